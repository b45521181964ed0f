import { randomBytes, randomUUID } from 'node:crypto';
import { tableBackedSessionDeps } from '../../media-service/src/server/session-defaults';
import { tableBackedToolPorts } from '../../media-service/src/tools/tool-ports';
import type { CoreDeps } from '../../functions/lib/deps';
import { DeepgramSpeechToText } from '../../media-service/src/adapters/deepgram-speech-to-text';
import { DeepgramTextToSpeech } from '../../media-service/src/adapters/deepgram-text-to-speech';
import { FallbackLanguageModel } from '../../media-service/src/adapters/fallback-language-model';
import { OpenAiLanguageModel } from '../../media-service/src/adapters/openai-language-model';
import { SesEmail } from '../../media-service/src/adapters/ses-email';
import { TwilioSms } from '../../media-service/src/adapters/twilio-sms';
import { TwilioTelephony } from '../../media-service/src/adapters/twilio-telephony';
import { startCallSession } from '../../media-service/src/call/call-session';
import type { CallSessionDeps } from '../../media-service/src/call/session-types';
import { SANDBOX_PROVIDER_LABELS, sandboxLabel } from '../../media-service/src/call/call-metrics';
import { dialOutbound } from '../../media-service/src/calls/dial-outbound';
import { PacerScheduler } from '../../media-service/src/pipeline/pacer-scheduler';
import { MediaServer } from '../../media-service/src/server/media-server';
import { MinutesRepository } from '../../shared/db/minutes-repository';
import type { CallEvent } from '../../shared/events/catalog';
import type { EventBus } from '../../shared/events/event-bus';
import { CallLifecycle } from '../../shared/services/call-lifecycle';
import { freePort } from '../../scripts/local/stand-ins/dynamodb-local';
import type { BenchProviderUrls } from '../calls-providers';
import type { PlacedCall } from './tenants';
import { createLogger } from '../../shared/log';

/** Where the media process's logs went: counts, and the first few lines for the report. */
export interface LogTally {
  count: number;
  first: string[];
}

/** Ignores call events (no after-call pipeline in the bench). */
const quietBus: EventBus = { publish: async (_events: CallEvent[]) => undefined };

/**
 * The media service as on Fargate, in this process: `MediaServer` running `startCallSession`, the
 * dialler and one shared `PacerScheduler`, with the adapters pointed at the provider child.
 * Sessions are counted as they start and finish.
 */
export async function startBenchMedia(core: CoreDeps, urls: BenchProviderUrls) {
  const logs: LogTally = { count: 0, first: [] };
  const log = createLogger({
    service: 'bench',
    write: (line) => {
      logs.count++;
      if (logs.first.length < 5) logs.first.push(line.trimEnd().slice(0, 300));
    },
  });
  const scheduler = new PacerScheduler({ log });
  const minutes = new MinutesRepository(core.db);
  const lifecycle = new CallLifecycle({
    calls: core.callRepo,
    assistants: core.assistantRepo,
    minutes,
    events: quietBus,
    now: () => new Date(),
    newEventId: () => randomUUID(),
  });
  const LOCAL = { accessKeyId: 'local', secretAccessKey: 'local' };
  const account = { accountSid: urls.accountSid, authToken: urls.authToken, baseUrl: urls.carrierUrl };
  const telephony = new TwilioTelephony(account);
  const llm = new OpenAiLanguageModel({ provider: 'openai', apiKey: 'sk-sandbox', baseURL: urls.openAiUrl });
  const deps: CallSessionDeps = {
    // Standard mode on Deepgram only: the bench's calls run Flux, the sandbox model and Aura.
    registry: {
      recognisers: {
        deepgram: { port: new DeepgramSpeechToText({ apiKey: 'sandbox', baseUrl: urls.fluxUrl, log }), label: sandboxLabel('deepgram') },
      },
      voices: {
        deepgram: { port: new DeepgramTextToSpeech({ apiKey: 'sandbox', baseUrl: urls.auraUrl, log }), label: sandboxLabel('deepgram') },
      },
      speechToSpeech: {},
      models: { openai: { port: { open: async () => llm }, label: sandboxLabel('openai') } },
    },
    // As in production (server/language-models.ts): the call's model is the sandbox model behind the
    // stall watch (no fallback configured), so the watch's per-chunk cost is measured too.
    languageModelFor: async (_business, _config, _key, call = {}) => new FallbackLanguageModel({ primary: llm, ...call }),
    telephony,
    scheduler,
    lifecycle,
    calls: core.callRepo,
    assistants: core.assistantRepo,
    businesses: core.businesses,
    toolPorts: tableBackedToolPorts(core.db, core.ids, log, {
      sms: new TwilioSms(account),
      smsSandbox: true,
      email: new SesEmail({ region: 'us-east-1', endpoint: urls.sesUrl, credentials: LOCAL, fromAddress: 'assistant@bench.localhost' }),
    }),
    ...tableBackedSessionDeps(core.callRepo, core.callerMemory),
    providers: SANDBOX_PROVIDER_LABELS,
    log,
  };
  const port = await freePort();
  const publicBaseUrl = `http://127.0.0.1:${port}`;
  const streamTokenSecret = randomBytes(32).toString('base64url');
  /** Sessions started and done, the sum of their durations (ms), when each call's session started (epoch ms, sub-ms), and when each finished. */
  const sessions = { started: 0, done: 0, callMs: 0, startedAt: new Map<number, number>(), endedAt: [] as number[] };
  const media = await MediaServer.start(
    {
      twilio: {
        catalog: core.catalog,
        businesses: core.businesses,
        assistants: core.assistantRepo,
        calls: core.callRepo,
        ids: core.ids,
        minutes,
        lifecycle,
        now: () => new Date(),
        authToken: urls.authToken,
        publicBaseUrl,
        streamTokenSecret,
        log,
      },
      startSession: (input) => {
        const handle = startCallSession(deps, input);
        const startedAt = performance.now();
        sessions.started++;
        // The session's clock starts here too, so this plus a turn's `at_ms` places the turn in time.
        sessions.startedAt.set(input.claims.callId, performance.timeOrigin + startedAt);
        void handle.done.then(() => {
          sessions.done++;
          sessions.callMs += performance.now() - startedAt;
          sessions.endedAt.push(performance.timeOrigin + performance.now());
        });
        return handle;
      },
      log,
    },
    port,
    '127.0.0.1',
  );
  const dial = dialOutbound({
    telephony,
    calls: core.callRepo,
    assistants: core.assistantRepo,
    minutes,
    lifecycle,
    publicBaseUrl,
    streamTokenSecret,
    now: () => new Date(),
    log,
    ringTimeoutS: 10,
  });
  let stopped = false;

  return {
    media,
    scheduler,
    sessions,
    logs,
    /**
     * Claims and dials the queued calls as the outbound consumer does (same claim, same dialler),
     * 10 at a time like one SQS batch, without polling: fauxqs runs inside this process, so its
     * server side would be counted as ours.
     */
    async dialAll(placed: readonly PlacedCall[]) {
      for (let start = 0; start < placed.length && !stopped; start += 10) {
        await Promise.all(
          placed.slice(start, start + 10).map(async (job) => {
            const claimed = await core.callRepo.claimQueued(job.businessId, job.callId, 'bench', new Date().toISOString());
            if (claimed) await dial(claimed).catch((error: unknown) => log.error('dial.failed', { error }));
          }),
        );
      }
    },
    async stop() {
      stopped = true;
      await media.registry.drain(2000);
      await media.close();
    },
  };
}

export type BenchMedia = Awaited<ReturnType<typeof startBenchMedia>>;
