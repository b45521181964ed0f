import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import * as v from 'valibot';
import { PacerScheduler } from '../../media-service/src/pipeline/pacer-scheduler';
import { SandboxCarrier } from '../../media-service/src/sandbox/carrier';
import { DeepgramSandboxServer } from '../../media-service/src/sandbox/deepgram-server';
import { SesSandboxServer } from '../../media-service/src/sandbox/ses-server';
import { OpenAiSandboxServer } from '../../media-service/src/sandbox/openai-server';
import { PaymentsSandboxServer } from '../../media-service/src/sandbox/payments-server';
import { TranscriptBoard } from '../../media-service/src/sandbox/transcript-board';
import { mediaLogger } from '../../media-service/src/server/media-runtime';
import type { Logger } from '../../shared/log';
import type { EventBus } from '../../shared/events/event-bus';
import type { LocalStackInfo } from './infra';
import { consoleOrigins, localMediaEnv, type LocalMedia, type MediaTask } from './media';
import { LOCAL_HEARTBEAT_MS, MEDIA_TASK_NUMBER, MediaTaskMessageSchema } from './media-task-protocol';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy';

const TASK_ENTRY = fileURLToPath(new URL('./media-task.ts', import.meta.url));

/** A child's first start compiles the media service through tsx: ~5 s on 2 busy cores; this is the give-up point. */
const START_TIMEOUT_MS = 60_000;
/** SIGTERM drains a child in at most its DRAIN_TIMEOUT_MS (5 s locally) plus the final writes; then SIGKILL. */
const STOP_TIMEOUT_MS = 15_000;

/** Options of {@link startMediaTasks}. */
export interface MediaTasksOptions {
  /** How many call-engine processes (MEDIA_TASKS, already checked: 1..16). */
  count: number;
  /** The proxy's port: the public URL the carrier calls (0: any free port). */
  port: number;
  /** The after-call pipeline's bus: every child's call events are published to it. */
  events: EventBus;
  /** The console's origins (CONSOLE_ORIGIN) for every child: default `consoleOrigins` of env PORT, else 3000. */
  consoleOrigin?: string;
  /** Each child's log lines (default: this process's stderr, unchanged). */
  output?: (line: string) => void;
  /** What happens to the children (one exited, a message dropped), in words (default: stderr). */
  notice?: (line: string) => void;
  log?: Logger;
  /**
   * Each child's session heartbeat (ms; default the engine's 30 s): tests that kill a process
   * mid-call shorten it, so the call has a heartbeat to be billed to within a second.
   */
  heartbeatMs?: number;
}

/** The running call-engine processes and the proxy standing in for the load balancer. */
export interface LocalMediaTasks extends LocalMedia {
  proxy: RoundRobinProxy;
}

/** One child process, started and listening. */
interface RunningTask {
  task: MediaTask;
  child: ChildProcess;
  port: number;
}

/**
 * `MEDIA_TASKS=N npm run dev`: N call-engine processes (scripts/local/media-task.ts, each the whole
 * media runtime with its own OWNER_ID) behind a round-robin proxy that stands in for the load
 * balancer, so the carrier's callbacks and media streams land on any of them. The sandbox carrier,
 * Flux/Aura and OpenAI servers run here, once, shared by every child (the simulated callees and the
 * sandbox recogniser share one transcript board); the children's call events come back over IPC
 * and go to `events`. Children exit with this process (a closed IPC channel ends them), and a child
 * that dies is only reported: the proxy skips it, the others carry on.
 *
 * @example
 * const media = await startMediaTasks(info, { count: 2, port: 3001, events: afterCall.events });
 * for (const task of media.tasks) console.log(task.url, task.pid);
 */
export async function startMediaTasks(info: LocalStackInfo, options: MediaTasksOptions): Promise<LocalMediaTasks> {
  const log = options.log ?? mediaLogger(process.env);
  const notice = options.notice ?? ((line: string) => console.error(line));
  const proxy = await startRoundRobinProxy([], options.port);
  const board = new TranscriptBoard();
  const [deepgram, openai, payments, ses, carrier] = await Promise.all([
    DeepgramSandboxServer.start({ board }),
    OpenAiSandboxServer.start({ board }),
    PaymentsSandboxServer.start(),
    SesSandboxServer.start(),
    SandboxCarrier.start({
      authToken: info.sandboxAuthToken,
      utterances: board,
      voiceUrl: `${proxy.url}/twilio/voice`,
      // As ops set the number's Voice Fallback URL on Twilio: a task at its cap answers 503, and the
      // fallback request goes through the proxy to the next process.
      voiceFallbackUrl: `${proxy.url}/twilio/voice`,
      // Twilio's own wait for a webhook answer (the sandbox's 5 s default is stricter): N processes,
      // the sandboxes and DynamoDB Local share a laptop's cores, and a busy one can take longer.
      callbackTimeoutMs: 15_000,
      scheduler: new PacerScheduler({ log }),
      log,
    }),
  ]);
  const env = {
    ...localMediaEnv(info, {
      port: 0,
      publicBaseUrl: proxy.url,
      streamTokenSecret: randomBytes(32).toString('base64url'),
      consoleOrigin: options.consoleOrigin ?? consoleOrigins(Number(process.env.PORT ?? 3000)),
    }),
    DEEPGRAM_BASE_URL: deepgram.baseUrl,
    OPENAI_BASE_URL: openai.baseUrl,
    TWILIO_BASE_URL: carrier.baseUrl,
    STRIPE_API_URL: payments.baseUrl,
    SES_ENDPOINT: ses.endpoint,
    ...(options.heartbeatMs !== undefined && { [LOCAL_HEARTBEAT_MS]: String(options.heartbeatMs) }),
  };
  const closeServers = async () => {
    await proxy.close();
    await Promise.all([carrier.close(), deepgram.close(), openai.close(), payments.close(), ses.close()]);
  };
  const state = { stopping: false };
  const started = await Promise.allSettled(
    Array.from({ length: options.count }, (_, i) => startTask(i + 1, env, options, { notice, state })),
  );
  const running = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    state.stopping = true;
    await Promise.all(running.map(({ child, task }) => terminate(child, task)));
    await closeServers();
    throw failed.reason;
  }
  for (const { port } of running) proxy.add(port);
  return {
    mediaUrl: proxy.url,
    tasks: running.map(({ task }) => task),
    proxy,
    carrierUrl: carrier.baseUrl,
    carrier,
    deepgramUrl: deepgram.baseUrl,
    openAiUrl: openai.baseUrl,
    paymentsUrl: payments.baseUrl,
    mailUrl: ses.endpoint,
    ses,
    async stop() {
      state.stopping = true;
      // Children drain first, while the proxy and the carrier still carry their calls' last words.
      await Promise.all(running.map(({ child, task }) => terminate(child, task)));
      await closeServers();
    },
  };
}

/**
 * Spawns call-engine process `number` with the media environment `env` (`localMediaEnv` plus the
 * sandbox servers' URLs), its IPC channel open and its log lines sent to `output`, line by line.
 */
export function spawnMediaTask(number: number, env: Record<string, string>, output: (line: string) => void): ChildProcess {
  // Only what a child needs: a stray TWILIO_* or AWS_* in the developer's shell must not reach it.
  const base = { PATH: process.env.PATH ?? '', ...(process.env.TMPDIR && { TMPDIR: process.env.TMPDIR }) };
  const child = spawn(process.execPath, ['--import', 'tsx', TASK_ENTRY], {
    env: { ...base, ...env, [MEDIA_TASK_NUMBER]: String(number) },
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  createInterface({ input: child.stderr! }).on('line', output);
  return child;
}

/** Spawns child `number` and resolves once it listens; rejects if it exits or stalls first. */
function startTask(
  number: number,
  env: Record<string, string>,
  options: MediaTasksOptions,
  parent: { notice: (line: string) => void; state: { stopping: boolean } },
): Promise<RunningTask> {
  const child = spawnMediaTask(number, env, options.output ?? ((line: string) => void process.stderr.write(`${line}\n`)));
  const exit = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => resolve(signal ?? `exit code ${code}`));
    child.once('error', (error) => resolve(`failed: ${error.message}`));
  });
  const task: MediaTask = { number, url: '', pid: child.pid ?? 0, sessions: [], exit };
  return new Promise<RunningTask>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`Call engine ${number} did not start within ${START_TIMEOUT_MS / 1000} s.`));
    }, START_TIMEOUT_MS);
    child.on('message', (raw) => {
      const parsed = v.safeParse(MediaTaskMessageSchema, raw);
      if (!parsed.success) return parent.notice(`Call engine ${number}: an unknown message was dropped.`);
      const message = parsed.output;
      if (message.type === 'session') task.sessions.push(message.call_id);
      if (message.type === 'events')
        void options.events.publish(message.events).catch((error: unknown) => parent.notice(`Call events lost: ${String(error)}`));
      if (message.type === 'ready') {
        clearTimeout(timer);
        task.url = `http://127.0.0.1:${message.port}`;
        resolve({ task, child, port: message.port });
      }
    });
    void exit.then((how) => {
      clearTimeout(timer);
      reject(new Error(`Call engine ${number} exited before it was ready (${how}); its log is above.`));
      if (task.url && !parent.state.stopping)
        parent.notice(
          `Call engine ${number} (pid ${task.pid}) exited (${how}). The proxy skips it and the other call engines take new calls; ` +
            'its live calls are ended by the sweeper once their last heartbeat is 2 minutes old.',
        );
    });
  });
}

/** SIGTERM (drain), then SIGKILL if the child has not exited in time; resolves once it has. */
async function terminate(child: ChildProcess, task: MediaTask): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await task.exit;
  clearTimeout(timer);
}
