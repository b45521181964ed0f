import { KnowledgeRepository } from '../../shared/db/knowledge-repository';
import { KnowledgeSearcher } from '../../shared/knowledge/index-cache';
import { OpenAiEmbedder } from '../../shared/llm/embeddings-client';
import { tableBackedWorkflows } from '../../media-service/src/server/table-workflows';
import { randomUUID } from 'node:crypto';
import { tableBackedSessionDeps } from '../../media-service/src/server/session-defaults';
import { tableBackedToolPorts, textsToSandbox, type ToolSenders } from '../../media-service/src/tools/tool-ports';
import { tableBackedCustomTools } from '../../media-service/src/tools/custom-tools';
import type { ToolPorts } from '../../media-service/src/tools/tool-types';
import type { Logger } from '../../shared/log';
import { DeepgramSpeechToText } from '../../media-service/src/adapters/deepgram-speech-to-text';
import { DeepgramTextToSpeech } from '../../media-service/src/adapters/deepgram-text-to-speech';
import { OpenAiRealtime } from '../../media-service/src/adapters/openai-realtime';
import { OpenAiSpeechToText } from '../../media-service/src/adapters/openai-speech-to-text';
import { SesEmail } from '../../media-service/src/adapters/ses-email';
import { TwilioSms } from '../../media-service/src/adapters/twilio-sms';
import { SesSandboxServer } from '../../media-service/src/sandbox/ses-server';
import { TwilioTelephony } from '../../media-service/src/adapters/twilio-telephony';
import { startCallSession } from '../../media-service/src/call/call-session';
import type { ProviderRegistry } from '../../media-service/src/call/providers';
import type { CallSessionDeps, SessionTuning } from '../../media-service/src/call/session-types';
import { SANDBOX_PROVIDER_LABELS, sandboxLabel } from '../../media-service/src/call/call-metrics';
import { dialOutbound } from '../../media-service/src/calls/dial-outbound';
import { OutboundConsumer } from '../../media-service/src/calls/outbound-consumer';
import { SqsOutboundJobs } from '../../shared/queue/outbound-calls';
import { PacerScheduler } from '../../media-service/src/pipeline/pacer-scheduler';
import { languageModelsOver, modelSources } from '../../media-service/src/server/language-models';
import { MediaServer } from '../../media-service/src/server/media-server';
import { SandboxCarrier } from '../../media-service/src/sandbox/carrier';
import { DeepgramSandboxServer } from '../../media-service/src/sandbox/deepgram-server';
import type { FluxTuning } from '../../media-service/src/sandbox/flux-turn-detector';
import type { AuraTuning } from '../../media-service/src/sandbox/aura-session';
import { OpenAiSandboxServer, type OpenAiSandboxOptions } from '../../media-service/src/sandbox/openai-server';
import { PaymentsSandboxServer, SANDBOX_PAYMENT_KEY } from '../../media-service/src/sandbox/payments-server';
import { StripePaymentLinks } from '../../media-service/src/adapters/stripe-payment-links';
import { TranscriptBoard } from '../../media-service/src/sandbox/transcript-board';
import { MinutesRepository } from '../../shared/db/minutes-repository';
import { CallSlotsRepository } from '../../shared/db/call-slots-repository';
import type { CallEvent } from '../../shared/events/catalog';
import type { EventBus } from '../../shared/events/event-bus';
import { CallLifecycle } from '../../shared/services/call-lifecycle';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { S3RecordingStore } from '../../media-service/src/adapters/s3-recording-store';
import { createApiHarness, type ApiHarness } from './api-harness';
import { freePort } from '../../scripts/local/stand-ins/dynamodb-local';
import { startRoundRobinProxy } from '../../scripts/local/round-robin-proxy';
import { captureLogger } from './capture-logger';
import { CALL_HANG_MS } from './call-limits';

/** An event bus that keeps what it is given, so tests can assert on `call.started` / `call.ended`. */
export class CapturingBus implements EventBus {
  readonly events: CallEvent[] = [];
  readonly #endedWaiters = new Map<number, (() => void)[]>();
  async publish(events: CallEvent[]): Promise<void> {
    this.events.push(...events);
    for (const event of events) {
      if (event.type !== 'call.ended') continue;
      for (const resolve of this.#endedWaiters.get(event.detail.call_id) ?? []) resolve();
      this.#endedWaiters.delete(event.detail.call_id);
    }
  }
  /** Resolves when `call.ended` has been published for the call (at once if it already was). */
  ended(callId: number): Promise<void> {
    if (this.events.some((event) => event.type === 'call.ended' && event.detail.call_id === callId)) return Promise.resolve();
    return new Promise((resolve) => this.#endedWaiters.set(callId, [...(this.#endedWaiters.get(callId) ?? []), resolve]));
  }
  of(callId: number): string[] {
    return this.events.filter((event) => event.detail.call_id === callId).map((event) => event.type);
  }
}

/** Knobs of one test stack. */
export interface CallStackOptions {
  llm?: OpenAiSandboxOptions;
  flux?: Partial<FluxTuning>;
  aura?: Partial<AuraTuning>;
  tuning?: Partial<SessionTuning>;
  /** Call-engine processes behind a round-robin proxy (default 1: no proxy). */
  tasks?: number;
  /** Each process's admission cap (MEDIA_MAX_CALLS), by process; default none. */
  maxCalls?: readonly number[];
  /** Outbound-queue consumers racing for the same jobs (default 1), as one per call-engine task. */
  consumers?: number;
  /** The wait of a call deferred at the concurrency cap (default the engine's: 1–2 s doubling to 30–60 s). */
  deferDelayS?: (attempt: number) => number;
  /** The built-in tools' back ends (default: the stack's table, texts on the sandbox carrier, email in the local SES, pages on the sandbox payment server). */
  toolPorts?: (core: ApiHarness['core'], log: Logger, senders: ToolSenders) => ToolPorts;
  /** The wall clock of the booking rules and the prompt's "today" (default the system clock). */
  clock?: () => Date;
  /** The provider registry the calls get, from the stack's full one (default: all of it). */
  providers?: (full: ProviderRegistry) => ProviderRegistry;
}

const STREAM_SECRET = 'test-stream-secret';
/** The platform's sender address on the test stack (the local SES stand-in accepts any). */
export const STACK_EMAIL_FROM = 'assistant@test.localhost';

/**
 * The whole call path on loopback: the API (real repositories on DynamoDB Local, fauxqs queue),
 * the outbound consumer and dialler, the sandbox carrier with simulated callees, the sandbox Flux,
 * Aura and OpenAI servers, and the media server running real call sessions. Nothing is mocked.
 */
export async function startCallStack(options: CallStackOptions = {}) {
  const api: ApiHarness = await createApiHarness({ allowPrivateUrls: true, ...(options.clock && { clock: options.clock }) });
  const board = new TranscriptBoard();
  const scheduler = new PacerScheduler();
  const { log, lines: logs } = captureLogger();
  const [deepgram, openai, payments, ses, carrier] = await Promise.all([
    // Aura at 25 ms per character (real speech is ~65): replies play 2.5× faster, so tests stay short.
    DeepgramSandboxServer.start({
      board,
      ...(options.flux && { flux: options.flux }),
      aura: { msPerChar: 25, firstByteDelayMs: 20, ...options.aura },
    }),
    OpenAiSandboxServer.start({ ttftMs: 20, tokenIntervalMs: 2, ...options.llm }),
    PaymentsSandboxServer.start(),
    SesSandboxServer.start(),
    SandboxCarrier.start({
      utterances: board,
      scheduler,
      log,
      timing: { dialMs: 20, answerMs: 50, busyMs: 30, maxRingMs: 300, amdHumanMs: 300 },
    }),
  ]);
  openai.realtime.useBoard(board);
  const bus = new CapturingBus();
  const s3 = new S3Client({
    region: 'us-east-1',
    endpoint: api.sqsEndpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const bucket = `recordings-${randomUUID()}`;
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  const { core } = api;
  const minutes = new MinutesRepository(core.db);
  const slots = new CallSlotsRepository(core.db);
  const lifecycle = new CallLifecycle({
    calls: core.callRepo,
    assistants: core.assistantRepo,
    minutes,
    slots,
    events: bus,
    now: () => new Date(),
    newEventId: () => randomUUID(),
  });
  const account = { accountSid: carrier.accountSid, authToken: carrier.authToken, baseUrl: carrier.baseUrl };
  const telephony = new TwilioTelephony(account);
  const senders: ToolSenders = {
    sms: new TwilioSms(account),
    smsSandbox: textsToSandbox(SANDBOX_PROVIDER_LABELS),
    // As in `npm run dev`: a business without its own key uses the sandbox test key.
    payments: new StripePaymentLinks({ secretBox: core.secretBox, ...payments.sdkTarget, fallbackKey: SANDBOX_PAYMENT_KEY }),
    email: new SesEmail({
      region: 'us-east-1',
      endpoint: ses.endpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      fromAddress: STACK_EMAIL_FROM,
    }),
  };
  // The production factories: `provider: openai` gets the sandbox OpenAI, `custom` the business's URL
  // through the guarded fetch (private addresses allowed, as in `npm run dev`).
  const models = modelSources({ openai: { apiKey: 'sk-sandbox', baseURL: openai.baseUrl }, allowPrivateUrls: true, sandboxTags: true });
  const openAiSandbox = { apiKey: 'sk-sandbox', baseUrl: openai.baseUrl, sendTag: true, log };
  const registry: ProviderRegistry = {
    recognisers: {
      deepgram: { port: new DeepgramSpeechToText({ apiKey: 'sandbox', baseUrl: deepgram.baseUrl, log }), label: sandboxLabel('deepgram') },
      openai: { port: new OpenAiSpeechToText(openAiSandbox), label: sandboxLabel('openai') },
    },
    voices: {
      deepgram: {
        port: new DeepgramTextToSpeech({ apiKey: 'sandbox', baseUrl: deepgram.baseUrl, sendTag: true, log }),
        label: sandboxLabel('deepgram'),
      },
    },
    speechToSpeech: { openai: { port: new OpenAiRealtime(openAiSandbox), label: sandboxLabel('openai-realtime') } },
    models,
  };
  const sessionDeps: CallSessionDeps = {
    registry: options.providers?.(registry) ?? registry,
    languageModelFor: languageModelsOver(models, core.secretBox),
    telephony,
    scheduler,
    calls: core.callRepo,
    assistants: core.assistantRepo,
    businesses: core.businesses,
    lifecycle,
    toolPorts: options.toolPorts?.(core, log, senders) ?? tableBackedToolPorts(core.db, core.ids, log, senders, options.clock),
    customTools: tableBackedCustomTools(core.db, core.secretBox, true),
    knowledge: new KnowledgeSearcher(
      new KnowledgeRepository(core.db),
      new OpenAiEmbedder({ apiKey: 'sk-sandbox', baseURL: openai.baseUrl }),
    ),
    workflows: tableBackedWorkflows(core.db),
    recordings: new S3RecordingStore({ s3, bucket }),
    ...tableBackedSessionDeps(core.callRepo, core.callerMemory),
    providers: SANDBOX_PROVIDER_LABELS,
    log,
    ...(options.tuning && { tuning: options.tuning }),
    ...(options.clock && { wallClock: options.clock }),
  };
  const port = await freePort();
  const twilioOptions = {
    catalog: core.catalog,
    businesses: core.businesses,
    assistants: core.assistantRepo,
    calls: core.callRepo,
    ids: core.ids,
    minutes,
    slots,
    lifecycle,
    now: () => new Date(),
    authToken: carrier.authToken,
    publicBaseUrl: `http://127.0.0.1:${port}`,
    streamTokenSecret: STREAM_SECRET,
    log,
  };
  // One call-engine process, or several behind a round-robin proxy (the load balancer): each has
  // its own server and session registry, so a call's callbacks and its stream land on different ones.
  const tasks = options.tasks ?? 1;
  const medias = await Promise.all(
    Array.from({ length: tasks }, async (_, i) =>
      MediaServer.start(
        {
          twilio: twilioOptions,
          startSession: (input) => startCallSession(sessionDeps, input),
          log,
          ...(options.maxCalls?.[i] !== undefined && { maxCalls: options.maxCalls[i] }),
        },
        tasks === 1 ? port : await freePort(),
        '127.0.0.1',
      ),
    ),
  );
  const media = medias[0]!;
  const proxy =
    tasks === 1
      ? undefined
      : await startRoundRobinProxy(
          medias.map((server) => server.port),
          port,
        );
  /** The session running the call on any of the processes. */
  const sessionOf = (callId: number) => medias.map((server) => server.registry.get(callId)).find((handle) => handle !== undefined);
  const dial = dialOutbound({
    telephony,
    calls: core.callRepo,
    assistants: core.assistantRepo,
    minutes,
    slots,
    lifecycle,
    publicBaseUrl: twilioOptions.publicBaseUrl,
    streamTokenSecret: STREAM_SECRET,
    now: () => new Date(),
    log,
    ringTimeoutS: 5,
  });
  const consumers = Array.from(
    { length: options.consumers ?? 1 },
    (_, i) =>
      new OutboundConsumer({
        jobs: new SqsOutboundJobs(api.sqs, api.queueUrl),
        calls: core.callRepo,
        dial,
        owner: i === 0 ? 'test' : `test-${i + 1}`,
        now: () => new Date(),
        log,
        waitTimeS: 1,
        ...(options.deferDelayS && { deferDelayS: options.deferDelayS }),
      }),
  );
  const polling = Promise.all(
    consumers.map((consumer) => consumer.run().catch((error: unknown) => log.error('consumer.failed', { error }))),
  );

  /**
   * Resolves once the call has ended with its transcript written: after its `call.ended` event and,
   * when a session ran it, after that session is done (event-driven: no polling). `timeoutMs`
   * bounds a hang ({@link CALL_HANG_MS}); it times nothing.
   */
  async function whenCallEnded(businessId: number, callId: number, timeoutMs = CALL_HANG_MS) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`call ${callId} did not end within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([bus.ended(callId), timeout]);
      await Promise.race([sessionOf(callId)?.done, timeout]);
    } finally {
      clearTimeout(timer);
    }
    const found = await core.callRepo.findCall(businessId, callId, Math.floor(Date.now() / 1000));
    if (found?.call.status !== 'ended') throw new Error(`call ${callId} published call.ended but reads as ${found?.call.status}`);
    return found;
  }

  async function stop(): Promise<void> {
    for (const consumer of consumers) consumer.stop();
    await carrier.close();
    await proxy?.close();
    await Promise.all(medias.map((server) => server.close()));
    await Promise.all([deepgram.close(), openai.close(), payments.close(), ses.close(), polling]);
  }

  return {
    s3,
    bucket,
    api,
    core,
    carrier,
    ses,
    deepgram,
    openai,
    payments,
    media,
    medias,
    proxy,
    bus,
    logs,
    lifecycle,
    slots,
    telephony,
    board,
    scheduler,
    whenCallEnded,
    stop,
    streamSecret: STREAM_SECRET,
  };
}

export type CallStack = Awaited<ReturnType<typeof startCallStack>>;
