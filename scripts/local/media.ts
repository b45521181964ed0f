import { randomBytes } from 'node:crypto';
import type { CoreDeps } from '../../functions/lib/deps';
import { readMediaConfig } from '../../media-service/src/config';
import { PacerScheduler } from '../../media-service/src/pipeline/pacer-scheduler';
import type { SandboxCarrier } from '../../media-service/src/sandbox/carrier';
import { TranscriptBoard } from '../../media-service/src/sandbox/transcript-board';
import { jsonLog, startMediaRuntime, type MediaLog } from '../../media-service/src/server/media-runtime';
import { startProviders } from '../../media-service/src/server/providers';
import type { EventBus } from '../../shared/events/event-bus';
import type { LocalStackInfo } from './infra';

/** Options of {@link startLocalMedia}. */
export interface LocalMediaOptions {
  /** Where call.started/transferred/ended go: the after-call pipeline's bus (`startLocalAfterCall(...).events`). */
  events: EventBus;
  /** An OpenAI-compatible sandbox already running (the after-call one), shared instead of starting another. */
  openAiBaseUrl?: string;
  /** The media server's port; default env MEDIA_PORT, else 3001. */
  port?: number;
  log?: MediaLog;
}

/** The running local call engine and where its pieces listen. */
export interface LocalMedia {
  /** The media server (Twilio callbacks, `/health`, media streams): `http://127.0.0.1:<port>`. */
  mediaUrl: string;
  /** The sandbox carrier's REST base (what `TwilioTelephony` calls); also drives simulated inbound calls. */
  carrierUrl: string;
  carrier: SandboxCarrier;
  deepgramUrl: string;
  openAiUrl: string;
  /** Drains running calls (a few seconds at most locally), then closes every server. */
  stop(): Promise<void>;
}

/**
 * `npm run dev`'s call engine: the sandbox carrier, sandbox Deepgram (Flux + Aura) and sandbox
 * OpenAI on loopback, and the same media runtime as on Fargate (server, outbound consumer on the
 * local fauxqs queue), pointed at them. The sweeper runs in the parent process (scripts/local/sweeper.ts). No provider key is needed or used.
 *
 * @example
 * const afterCall = await startLocalAfterCall(core, config, {});
 * const media = await startLocalMedia(core, infra.info, { events: afterCall.events, openAiBaseUrl: afterCall.llmBaseUrl });
 */
export async function startLocalMedia(core: CoreDeps, info: LocalStackInfo, options: LocalMediaOptions): Promise<LocalMedia> {
  const log = options.log ?? jsonLog;
  const port = options.port ?? Number(process.env.MEDIA_PORT ?? 3001);
  const config = readMediaConfig({
    PORT: String(port),
    STAGE: 'local',
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    AWS_REGION: info.region,
    TABLE_NAME: info.tableName,
    DYNAMODB_ENDPOINT: info.dynamoEndpoint,
    OUTBOUND_QUEUE_URL: info.outboundQueueUrl,
    SQS_ENDPOINT: info.sqsEndpoint,
    RECORDINGS_BUCKET: info.recordingsBucket,
    S3_ENDPOINT: info.sqsEndpoint,
    LOCAL_SECRET_KEY: info.localSecretKey,
    // A fresh key per run: tokens only live for the minute between TwiML and the stream's start.
    STREAM_TOKEN_SECRET: randomBytes(32).toString('base64url'),
    ALLOW_PRIVATE_URLS: 'true',
    SANDBOX_CARRIER: 'true',
    SANDBOX_AUTH_TOKEN: info.sandboxAuthToken,
    DRAIN_TIMEOUT_MS: '5000',
    OWNER_ID: `local:${process.pid}`,
  });
  const scheduler = new PacerScheduler({ log });
  const providers = await startProviders(config, {
    board: new TranscriptBoard(),
    scheduler,
    log,
    ...(options.openAiBaseUrl && { openAiSandboxUrl: options.openAiBaseUrl }),
  });
  const runtime = await startMediaRuntime({
    config,
    providers,
    events: options.events,
    secretBox: core.secretBox,
    scheduler,
    host: '127.0.0.1',
    log,
  });
  return {
    mediaUrl: config.PUBLIC_BASE_URL,
    carrierUrl: providers.carrier!.baseUrl,
    carrier: providers.carrier!,
    deepgramUrl: providers.deepgramSandbox!.baseUrl,
    openAiUrl: providers.openai.baseURL!,
    async stop() {
      await runtime.shutdown();
      await providers.close();
    },
  };
}
