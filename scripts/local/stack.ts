import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createApp } from '../../functions/api/app';
import { createApiDeps, createCoreDeps, createOutboundQueue, functionLogger, type CoreDeps } from '../../functions/lib/deps';
import { startLocalSweeper } from './sweeper';
import type { Logger } from '../../shared/log';
import type { AssistantService } from '../../shared/services/assistant-service';
import { startLocalAfterCall, type LocalAfterCall } from './after-call';
import { localApiConfig } from './config';
import { startLocalInfra, type LocalStackInfo } from './infra';
import { startLocalKnowledge } from './knowledge';
import { startLocalMedia, type LocalMedia } from './media';
import { startMediaTasks } from './media-tasks';
import { freePort } from './stand-ins/dynamodb-local';
import { localSite } from './web-site';

/** The console's build, served at `/` (`npm run build:web`). */
const CONSOLE_DIR = fileURLToPath(new URL('../../console/dist', import.meta.url));
/** The browser client's build, served at `/web-call.js`, `/web-call.mjs` and `/web-call-worklet.js`. */
const WEB_CLIENT_DIR = fileURLToPath(new URL('../../web-client/dist', import.meta.url));

/** The most call-engine processes `npm run dev` starts (each is a whole media runtime: ~100 MiB). */
export const MAX_MEDIA_TASKS = 16;

/** Reads MEDIA_TASKS: unset means 1; anything but a whole number from 1 to 16 is refused with a clear message. */
export function parseMediaTasks(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 1;
  const text = value.trim();
  if (!/^\d{1,2}$/.test(text) || Number(text) < 1 || Number(text) > MAX_MEDIA_TASKS)
    throw new Error(
      `MEDIA_TASKS must be a whole number from 1 to ${MAX_MEDIA_TASKS} (call-engine processes); got "${value.slice(0, 40)}".`,
    );
  return Number(text);
}

/** Options of {@link startLocalStack}. */
export interface LocalStackOptions {
  /** The API's port (0: any free port). */
  apiPort: number;
  /** The call engine's public port: the engine itself, or the proxy in front of several (0: any free port). */
  mediaPort: number;
  /** Call-engine processes: 1 runs the engine in this process, more run child processes behind a proxy. */
  mediaTasks: number;
  /** Stand-ins already running (tests); default: DynamoDB Local (data in .data/) and fauxqs, started here. */
  infra?: LocalStackInfo;
  /** A real OpenAI key for the after-call analysis. */
  openAiApiKey?: string;
  /** Where the child processes' log lines go (default: stderr). */
  mediaOutput?: (line: string) => void;
  /** The in-process call engine's logger (MEDIA_TASKS=1; default: the media service's, on stdout): benchmarks read its lines. */
  mediaLog?: Logger;
  /** Run the stack's one sweeper (a timer here; limits from SWEEP_* env). `npm run dev` does; tests sharing a table do not. */
  sweeper?: boolean;
  /** Where the sweeper reads its SWEEP_* limits and period (default process.env): tests shorten them. */
  sweeperEnv?: Record<string, string | undefined>;
  /** The call-engine children's session heartbeat (ms; default 30 s): tests that kill a process mid-call shorten it. */
  heartbeatMs?: number;
  /** Where the console and the browser client are built (default `console/dist`, `web-client/dist`): tests point at folders of their own. */
  consoleDir?: string;
  webClientDir?: string;
}

/** The running local stack. */
export interface LocalStack {
  apiUrl: string;
  /** The console (`http://localhost:<port>/`), served with the API on its port. */
  consoleUrl: string;
  /**
   * The console's origins (`localhost` and `127.0.0.1` on the API's port): the call engine must
   * allow them for web calls as it allows a business's `web_origins` (its CONSOLE_ORIGIN).
   */
  consoleOrigins: string[];
  /** Where everything runs, `apiUrl` and `carrierUrl` included (what .data/dev-stack.json records). */
  info: LocalStackInfo;
  /** The data folder was new (seed the demo). */
  fresh: boolean;
  core: CoreDeps;
  assistants: AssistantService;
  afterCall: LocalAfterCall;
  media: LocalMedia;
  /** Drains live calls (their call.ended goes through the after-call pipeline), then stops everything. */
  stop(): Promise<void>;
}

/**
 * The whole product on this machine (`npm run dev`, and the tests that need it as it runs): the
 * stand-ins, the API, the after-call pipeline, and the call engine (in process, or MEDIA_TASKS
 * child processes behind a round-robin proxy) with the sandbox carrier and providers.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const infra = options.infra ? { info: options.infra, fresh: false, stop: async () => undefined } : await startLocalInfra();
  const config = localApiConfig(infra.info);
  const core = createCoreDeps(config);
  // After the call: the call engine publishes call.started/transferred/ended to afterCall.events (the API publishes none).
  const afterCall = await startLocalAfterCall(core, config, { ...(options.openAiApiKey && { openAiApiKey: options.openAiApiKey }) });
  // Knowledge ingestion: a fauxqs queue and the queue function's handler; embeddings from the same OpenAI as the analysis.
  const knowledge = await startLocalKnowledge(core, config, {
    baseUrl: afterCall.llmBaseUrl,
    apiKey: options.openAiApiKey ?? 'sk-sandbox',
  });
  // The API's port is fixed before the engine starts: the console is served on it, and the engine
  // must know the console's origins to let its pages open web calls.
  const apiPort = options.apiPort || (await freePort());
  const consoleOrigins = [`http://localhost:${apiPort}`, `http://127.0.0.1:${apiPort}`];
  const consoleOrigin = consoleOrigins.join(',');
  const media =
    options.mediaTasks === 1
      ? await startLocalMedia(core, infra.info, {
          events: afterCall.events,
          port: options.mediaPort,
          consoleOrigin,
          ...(afterCall.llmBaseUrl && { openAiBaseUrl: afterCall.llmBaseUrl }),
          ...(options.mediaLog && { log: options.mediaLog }),
        })
      : await startMediaTasks(infra.info, {
          count: options.mediaTasks,
          port: options.mediaPort,
          consoleOrigin,
          events: afterCall.events,
          ...(options.mediaOutput && { output: options.mediaOutput }),
          ...(options.heartbeatMs !== undefined && { heartbeatMs: options.heartbeatMs }),
        });
  // One sweeper for the stack, here in the parent process, never on a call engine's thread.
  const stopSweeper = options.sweeper
    ? startLocalSweeper(core, {
        queue: createOutboundQueue(config),
        events: afterCall.events,
        carrier: media.carrier,
        log: functionLogger('sweeper'),
        ...(options.sweeperEnv && { env: options.sweeperEnv }),
      })
    : () => undefined;
  // Browsers open web calls on the engine's public port (the proxy's with MEDIA_TASKS > 1). No
  // CONSOLE_ORIGIN: the console is served from this same origin, so it needs no CORS.
  const mediaWsOrigin = media.mediaUrl.replace(/^http/, 'ws');
  const api = createApiDeps(core, createOutboundQueue(config), functionLogger('api'), () => new Date(), {
    webCallUrl: `${mediaWsOrigin}/web/calls`,
  });
  const site = localSite(createApp(api), {
    consoleDir: options.consoleDir ?? CONSOLE_DIR,
    webClientDir: options.webClientDir ?? WEB_CLIENT_DIR,
    mediaWsOrigin,
    // GET /calls/{id} presigns recording links against this S3 endpoint (path style): the player loads from it.
    recordingsOrigin: new URL(config.S3_ENDPOINT ?? infra.info.sqsEndpoint).origin,
  });
  let server: ReturnType<typeof serve> | undefined;
  await new Promise<void>((resolve) => {
    server = serve({ fetch: site.fetch, port: apiPort }, () => resolve());
  });
  const apiUrl = `http://localhost:${apiPort}/api/v1`;
  return {
    apiUrl,
    consoleUrl: `http://localhost:${apiPort}/`,
    consoleOrigins,
    info: { ...infra.info, apiUrl, carrierUrl: media.carrierUrl, mailUrl: media.mailUrl },
    fresh: infra.fresh,
    core,
    assistants: api.assistants,
    afterCall,
    media,
    async stop() {
      server?.close();
      stopSweeper();
      await knowledge.stop();
      await media.stop();
      await afterCall.stop();
      await infra.stop();
    },
  };
}
