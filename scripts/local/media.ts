import { randomBytes } from 'node:crypto';
import type { CoreDeps } from '../../functions/lib/deps';
import { startCallSession } from '../../media-service/src/call/call-session';
import { readMediaConfig } from '../../media-service/src/config';
import { PacerScheduler } from '../../media-service/src/pipeline/pacer-scheduler';
import type { SandboxCarrier } from '../../media-service/src/sandbox/carrier';
import type { SesSandboxServer } from '../../media-service/src/sandbox/ses-server';
import { TranscriptBoard } from '../../media-service/src/sandbox/transcript-board';
import { mediaLogger, startMediaRuntime, type MediaRuntimeOptions } from '../../media-service/src/server/media-runtime';
import { startProviders } from '../../media-service/src/server/providers';
import type { EventBus } from '../../shared/events/event-bus';
import { freePort } from './stand-ins/dynamodb-local';
import type { LocalStackInfo } from './infra';
import type { RoundRobinProxy } from './round-robin-proxy';
import type { Logger } from '../../shared/log';

/** Options of {@link startLocalMedia}. */
export interface LocalMediaOptions {
  /** Where call.started/transferred/ended go: the after-call pipeline's bus (`startLocalAfterCall(...).events`). */
  events: EventBus;
  /** An OpenAI-compatible sandbox already running (the after-call one), shared instead of starting another. */
  openAiBaseUrl?: string;
  /** The media server's port; default env MEDIA_PORT, else 3001. */
  port?: number;
  /** The console's origins (CONSOLE_ORIGIN): default {@link consoleOrigins} of env PORT, else 3000 (where `npm run dev` serves the API and console). */
  consoleOrigin?: string;
  log?: Logger;
}

/**
 * The origins a browser on the local console has (`localhost` and `127.0.0.1` spell the same
 * machine differently, and the browser sends whichever the address bar has): web calls from
 * them are always allowed.
 */
export function consoleOrigins(apiPort: number): string {
  return `http://localhost:${apiPort},http://127.0.0.1:${apiPort}`;
}

/** One call-engine process of the local stack (MEDIA_TASKS of them). */
export interface MediaTask {
  /** 1..MEDIA_TASKS, as printed. */
  number: number;
  /** Its own media server: `http://127.0.0.1:<port>`. */
  url: string;
  pid: number;
  /** The calls whose media stream (session) ran here, in order. */
  sessions: number[];
  /** Resolves when the process has ended, with how (`SIGKILL`, `exit code 0`, …). */
  exit: Promise<string>;
}

/** The running local call engine and where its pieces listen. */
export interface LocalMedia {
  /** What the carrier calls (Twilio callbacks, `/health`, media streams): one engine, or the proxy in front of several. */
  mediaUrl: string;
  /** The call-engine processes: this one alone, or MEDIA_TASKS children. */
  tasks: MediaTask[];
  /** The load balancer's stand-in in front of the children (MEDIA_TASKS > 1 only). */
  proxy?: RoundRobinProxy;
  /** The sandbox carrier's REST base (what `TwilioTelephony` calls); also drives simulated inbound calls. */
  carrierUrl: string;
  carrier: SandboxCarrier;
  deepgramUrl: string;
  openAiUrl: string;
  /** The sandbox payment server: what the Stripe SDK calls, and where the payment pages live. */
  paymentsUrl: string;
  /** The local SES stand-in: the mail the assistants sent is listed at `<mailUrl>/store`. */
  mailUrl: string;
  ses: SesSandboxServer;
  /** Drains running calls (a few seconds at most locally), then closes every server. */
  stop(): Promise<void>;
}

/** The real `startCallSession`, telling `started` the id of each call whose session starts here. */
export function recordingSessions(started: (callId: number) => void): NonNullable<MediaRuntimeOptions['startSession']> {
  return (deps, input) => {
    const handle = startCallSession(deps, input);
    started(handle.callId);
    return handle;
  };
}

/** What differs between the call-engine processes of one local stack. */
export interface LocalMediaSettings {
  port: number;
  /** What the carrier calls and signs over: the engine itself, or the proxy in front of several. */
  publicBaseUrl: string;
  /** The same in every process of a stack: a stream's token is signed by whichever process dialled. */
  streamTokenSecret: string;
  /** Unset: the media service's default (host name + pid), unique per process. */
  ownerId?: string;
  /** CONSOLE_ORIGIN: the console's origins, always allowed to open web calls. */
  consoleOrigin?: string;
}

/** The media service's environment on the local stack, for `readMediaConfig` (in process, or in each MEDIA_TASKS child). */
export function localMediaEnv(info: LocalStackInfo, settings: LocalMediaSettings): Record<string, string> {
  return {
    PORT: String(settings.port),
    STAGE: 'local',
    PUBLIC_BASE_URL: settings.publicBaseUrl,
    AWS_REGION: info.region,
    TABLE_NAME: info.tableName,
    DYNAMODB_ENDPOINT: info.dynamoEndpoint,
    OUTBOUND_QUEUE_URL: info.outboundQueueUrl,
    SQS_ENDPOINT: info.sqsEndpoint,
    RECORDINGS_BUCKET: info.recordingsBucket,
    S3_ENDPOINT: info.sqsEndpoint,
    LOCAL_SECRET_KEY: info.localSecretKey,
    STREAM_TOKEN_SECRET: settings.streamTokenSecret,
    ALLOW_PRIVATE_URLS: 'true',
    SANDBOX_CARRIER: 'true',
    SANDBOX_PAYMENTS: 'true',
    SANDBOX_AUTH_TOKEN: info.sandboxAuthToken,
    DRAIN_TIMEOUT_MS: '5000',
    OUTBOUND_WAIT_S: '2',
    ...(settings.ownerId && { OWNER_ID: settings.ownerId }),
    ...(settings.consoleOrigin && { CONSOLE_ORIGIN: settings.consoleOrigin }),
  };
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
  const log = options.log ?? mediaLogger(process.env);
  // Port 0 (tests): a free port chosen first, since the public URL the carrier signs over names it.
  const port = (options.port ?? Number(process.env.MEDIA_PORT ?? 3001)) || (await freePort());
  const config = readMediaConfig(
    localMediaEnv(info, {
      port,
      publicBaseUrl: `http://127.0.0.1:${port}`,
      // A fresh key per run: tokens only live for the minute between TwiML and the stream's start.
      streamTokenSecret: randomBytes(32).toString('base64url'),
      ownerId: `local:${process.pid}`,
      consoleOrigin: options.consoleOrigin ?? consoleOrigins(Number(process.env.PORT ?? 3000)),
    }),
  );
  const scheduler = new PacerScheduler({ log });
  const providers = await startProviders(config, {
    board: new TranscriptBoard(),
    scheduler,
    log,
    ...(options.openAiBaseUrl && { openAiSandboxUrl: options.openAiBaseUrl }),
  });
  let stopped = (_how: string) => undefined as void;
  const exit = new Promise<string>((resolve) => (stopped = resolve));
  const task: MediaTask = { number: 1, url: config.PUBLIC_BASE_URL, pid: process.pid, sessions: [], exit };
  const runtime = await startMediaRuntime({
    config,
    providers,
    events: options.events,
    secretBox: core.secretBox,
    scheduler,
    host: '127.0.0.1',
    startSession: recordingSessions((callId) => task.sessions.push(callId)),
    log,
  });
  return {
    mediaUrl: config.PUBLIC_BASE_URL,
    tasks: [task],
    carrierUrl: providers.carrier!.baseUrl,
    carrier: providers.carrier!,
    deepgramUrl: providers.deepgramSandbox!.baseUrl,
    openAiUrl: providers.openai.baseURL!,
    paymentsUrl: providers.paymentsSandbox!.baseUrl,
    mailUrl: providers.sesSandbox!.endpoint,
    ses: providers.sesSandbox!,
    async stop() {
      await runtime.shutdown();
      await providers.close();
      stopped('stopped');
    },
  };
}
