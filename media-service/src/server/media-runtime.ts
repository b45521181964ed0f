import { tableBackedWorkflows } from './table-workflows';
import { randomUUID } from 'node:crypto';
import { tableBackedSessionDeps } from './session-defaults';
import { tableBackedToolPorts, textsToSandbox } from '../tools/tool-ports';
import { tableBackedCustomTools } from '../tools/custom-tools';
import { KnowledgeRepository } from '../../../shared/db/knowledge-repository';
import { KnowledgeSearcher } from '../../../shared/knowledge/index-cache';
import { OpenAiEmbedder } from '../../../shared/llm/embeddings-client';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { AssistantRepository } from '../../../shared/db/assistant-repository';
import { BusinessRepository } from '../../../shared/db/business-repository';
import { CallRepository } from '../../../shared/db/call-repository';
import { CallSlotsRepository } from '../../../shared/db/call-slots-repository';
import { CallerMemoryRepository } from '../../../shared/db/caller-memory-repository';
import { CatalogRepository } from '../../../shared/db/catalog-repository';
import { createDb } from '../../../shared/db/client';
import { IdAllocator } from '../../../shared/db/ids';
import { MinutesRepository } from '../../../shared/db/minutes-repository';
import type { EventBus } from '../../../shared/events/event-bus';
import { SqsOutboundJobs } from '../../../shared/queue/outbound-calls';
import { CachingSecretBox, type SecretBox } from '../../../shared/security/secret-box';
import { CallLifecycle } from '../../../shared/services/call-lifecycle';
import { S3RecordingStore } from '../adapters/s3-recording-store';
import { StripePaymentLinks } from '../adapters/stripe-payment-links';
import { startCallSession } from '../call/call-session';
import type { CallSessionDeps, SessionHandle, SessionStart } from '../call/session-types';
import { dialOutbound } from '../calls/dial-outbound';
import { OutboundConsumer, type DialAdmission } from '../calls/outbound-consumer';
import type { MediaConfig } from '../config';
import { PacerScheduler } from '../pipeline/pacer-scheduler';
import { callEndedWithErrorEmf, publishActiveCalls } from '../../../shared/metrics/active-calls-metric';
import { isSandboxLabel } from '../call/call-metrics';
import { languageModelsOver, modelSources } from './language-models';
import { MediaServer } from './media-server';
import { tableWebCallTokens } from '../adapters/dynamodb-web-call-tokens';
import { NO_TYPED_SPEECH } from './typed-speech';
import type { MediaProviders } from './providers';
import { createLogger, type Logger } from '../../../shared/log';

/** The knowledge indexes one media process keeps (the API Lambda keeps the searcher's default, 256 MiB). */
const MEDIA_INDEX_BUDGET_BYTES = 512 * 1024 * 1024;

/** The log line of a media task that could not start (bad configuration, no Twilio credentials). */
export const MEDIA_START_FAILED = 'media.start_failed';

/**
 * The media task's logger: JSON lines on stderr (CloudWatch Logs keeps stdout for the EMF metric
 * lines), `service` from POWERTOOLS_SERVICE_NAME or `media`, level from LOG_LEVEL.
 */
export function mediaLogger(env: Readonly<Record<string, string | undefined>>): Logger {
  return createLogger({ service: 'media', env });
}

/** Options of {@link startMediaRuntime}; everything that differs between AWS and the local stack. */
export interface MediaRuntimeOptions {
  config: MediaConfig;
  providers: MediaProviders;
  /** EventBridge on AWS; the local event router (after-call pipeline) in `npm run dev`. */
  events: EventBus;
  /** Opens custom LLM keys and payment provider keys (KMS on AWS, the local box in `npm run dev`). */
  secretBox: SecretBox;
  /** The shared 10 ms ticker (pass the sandbox carrier's, so one timer serves both). */
  scheduler?: PacerScheduler;
  host?: string;
  /** Replaces `startCallSession` (tests). */
  startSession?: (deps: CallSessionDeps, input: SessionStart) => SessionHandle;
  /** Default: {@link mediaLogger} over `process.env`. */
  log?: Logger;
}

/** A running media service: its server and the graceful shutdown. */
export interface MediaRuntime {
  server: MediaServer;
  deps: CallSessionDeps;
  /** SIGTERM: stop consuming, refuse new streams, drain calls (DRAIN_TIMEOUT_MS), close the server. */
  shutdown(): Promise<void>;
}

/**
 * The media service's composition (shared by `main.ts` on Fargate and `npm run dev`): clients and
 * repositories, the call lifecycle, the session dependencies, the HTTP/WebSocket server, the
 * outbound-calls consumer and the ActiveCalls metric. The sweeper is not here: it runs once per
 * deployment (shared/services/call-sweeper.ts), never on the call engine's thread.
 */
export async function startMediaRuntime(options: MediaRuntimeOptions): Promise<MediaRuntime> {
  const { config, providers } = options;
  const log = options.log ?? mediaLogger(process.env);
  const db = createDb({ tableName: config.TABLE_NAME, region: config.AWS_REGION, endpoint: config.DYNAMODB_ENDPOINT });
  const repos = {
    calls: new CallRepository(db),
    assistants: new AssistantRepository(db),
    businesses: new BusinessRepository(db),
    slots: new CallSlotsRepository(db),
  };
  const minutes = new MinutesRepository(db);
  const now = () => new Date();
  const lifecycle = new CallLifecycle({
    ...repos,
    minutes,
    events: options.events,
    now,
    newEventId: () => `evt_${randomUUID()}`,
    // Every ending in this task (sessions, carrier callbacks) counts toward the ops alarm.
    onEnded: (call) => {
      if (call.ended_reason === 'error' && config.STAGE !== 'local')
        process.stdout.write(`${callEndedWithErrorEmf(config.STAGE, Date.now())}\n`);
    },
  });
  const deps = sessionDeps(options, { ...repos, lifecycle, db, log });
  const startSession = options.startSession ?? startCallSession;
  const server = await MediaServer.start(
    {
      twilio: {
        ...repos,
        minutes,
        catalog: new CatalogRepository(db),
        ids: new IdAllocator(db),
        lifecycle,
        now,
        log,
        authToken: providers.twilioAuthToken,
        publicBaseUrl: config.PUBLIC_BASE_URL,
        streamTokenSecret: config.STREAM_TOKEN_SECRET,
      },
      startSession: (input) => startSession(deps, input),
      web: {
        tokens: tableWebCallTokens(db),
        businesses: repos.businesses,
        assistants: repos.assistants,
        admission: { slots: repos.slots, minutes },
        lifecycle,
        consoleOrigins: config.CONSOLE_ORIGIN,
        typedSpeech: providers.typedSpeech ?? NO_TYPED_SPEECH,
      },
      maxCalls: config.MEDIA_MAX_CALLS,
      log,
    },
    config.PORT,
    options.host,
  );
  const stopConsuming = startOutbound(options, { ...repos, minutes, lifecycle }, server.admission, log);
  // CloudWatch reads these lines from the task's stdout; `npm run dev` (stage local) keeps its terminal quiet.
  const stopMetric =
    config.STAGE === 'local' ? () => undefined : publishActiveCalls({ stage: config.STAGE, count: () => server.registry.size });
  return {
    server,
    deps,
    async shutdown() {
      const consumerStopped = stopConsuming();
      server.beginDraining();
      log.info('media.draining', { active_calls: server.registry.size, deadline_ms: config.DRAIN_TIMEOUT_MS });
      // The consumer's last long poll (≤ OUTBOUND_WAIT_S) hands back what it got before the process may exit.
      await Promise.all([server.registry.drain(config.DRAIN_TIMEOUT_MS), consumerStopped]);
      stopMetric();
      await server.close();
      log.info('media.drained');
    },
  };
}

const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/** The table-backed records built once per process: sessions see them through ports, the dialler whole. */
interface TableRepos {
  calls: CallRepository;
  assistants: AssistantRepository;
  businesses: BusinessRepository;
  lifecycle: CallLifecycle;
}

type OutboundRepos = TableRepos & {
  minutes: MinutesRepository;
  slots: CallSlotsRepository;
};

/** The outbound-calls consumer (dialling through the providers' telephony); returns its stop. */
function startOutbound(options: MediaRuntimeOptions, repos: OutboundRepos, admission: DialAdmission, log: Logger) {
  const { config, providers } = options;
  const now = () => new Date();
  const sqs = new SQSClient({
    region: config.AWS_REGION,
    ...(config.SQS_ENDPOINT && { endpoint: config.SQS_ENDPOINT, credentials: LOCAL_CREDENTIALS }),
  });
  const consumer = new OutboundConsumer({
    jobs: new SqsOutboundJobs(sqs, config.OUTBOUND_QUEUE_URL),
    waitTimeS: config.OUTBOUND_WAIT_S,
    calls: repos.calls,
    owner: config.OWNER_ID,
    now,
    log,
    admission,
    dial: dialOutbound({
      ...repos,
      telephony: providers.telephony,
      now,
      log,
      publicBaseUrl: config.PUBLIC_BASE_URL,
      streamTokenSecret: config.STREAM_TOKEN_SECRET,
    }),
  });
  return keepConsuming(consumer, log);
}

/** Everything a call session needs, built once per process. */
function sessionDeps(options: MediaRuntimeOptions, built: TableRepos & { db: ReturnType<typeof createDb>; log: Logger }): CallSessionDeps {
  const { config, providers } = options;
  const memory = new CallerMemoryRepository(built.db);
  const s3 = config.RECORDINGS_BUCKET
    ? new S3Client({
        region: config.AWS_REGION,
        ...(config.S3_ENDPOINT && { endpoint: config.S3_ENDPOINT, forcePathStyle: true, credentials: LOCAL_CREDENTIALS }),
      })
    : undefined;
  const models = modelSources({
    openai: providers.openai,
    allowPrivateUrls: config.ALLOW_PRIVATE_URLS,
    sandboxTags: isSandboxLabel(providers.labels.llm),
  });
  return {
    registry: { ...providers.speech, models },
    languageModelFor: languageModelsOver(models, options.secretBox),
    telephony: providers.telephony,
    scheduler: options.scheduler ?? new PacerScheduler({ log: built.log }),
    calls: built.calls,
    assistants: built.assistants,
    businesses: built.businesses,
    lifecycle: built.lifecycle,
    toolPorts: tableBackedToolPorts(built.db, new IdAllocator(built.db), built.log, {
      sms: providers.sms,
      // Texts to the sandbox carrier (in this process or the local stack's): fictional numbers are the line's region.
      smsSandbox: textsToSandbox(providers.labels),
      email: providers.email,
      // Each business's own Stripe key, opened at call time and kept open 5 minutes (one KMS call per business, not per link).
      payments: new StripePaymentLinks({
        secretBox: new CachingSecretBox(options.secretBox),
        ...providers.payments,
        ...(config.PAYMENT_SUCCESS_URL && { successUrl: config.PAYMENT_SUCCESS_URL }),
      }),
    }),
    customTools: tableBackedCustomTools(built.db, options.secretBox, config.ALLOW_PRIVATE_URLS),
    // One index per knowledge base and version in this process, shared by its calls; queries embedded with the platform key.
    // 512 MiB of indexes: a task has 2-4 GiB and a call takes ~1 MiB (docs/decisions.md "Knowledge bases").
    knowledge: new KnowledgeSearcher(
      new KnowledgeRepository(built.db),
      new OpenAiEmbedder({ apiKey: providers.openai.apiKey, ...(providers.openai.baseURL && { baseURL: providers.openai.baseURL }) }),
      { budgetBytes: MEDIA_INDEX_BUDGET_BYTES },
    ),
    workflows: tableBackedWorkflows(built.db),
    ...(s3 && config.RECORDINGS_BUCKET && { recordings: new S3RecordingStore({ s3, bucket: config.RECORDINGS_BUCKET }) }),
    ...tableBackedSessionDeps(built.calls, memory),
    providers: providers.labels,
    log: built.log,
  };
}

/**
 * Runs the consumer until stopped, restarting its poll loop after a failed receive (SQS or network
 * down) 5 s later, so one outage never silently ends outbound dialling for the task's lifetime.
 * The returned stop resolves once the last poll is back and its jobs are handed back.
 */
function keepConsuming(consumer: OutboundConsumer, log: Logger): () => Promise<void> {
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      try {
        await consumer.run();
      } catch (error) {
        log.error('outbound consumer poll failed; retrying in 5 s', { error });
        await new Promise((resolve) => setTimeout(resolve, 5000).unref());
      }
    }
  })();
  return async () => {
    stopped = true;
    consumer.stop();
    await loop;
  };
}
