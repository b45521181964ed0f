/**
 * The outside world of `npm run bench:calls`, run in two child processes so none of it shares the
 * media process's event loop, and the voice providers do not share one with the phone network
 * (in production they are other companies' services on their own machines):
 * - `--role network`: the sandbox carrier (every call answered by the bench callee) and the sandbox
 *   Deepgram Flux that hears the callees (they share the transcript board). This is the steady load:
 *   every call's caller audio out and the assistant's audio in, every 20 ms.
 * - `--role voice`: the sandbox OpenAI and the sandbox Deepgram Aura, which answer each turn.
 *   Latencies come from argv (`--ttft-ms 350 --token-interval-ms 10 --tts-first-byte-ms 150 --ms-per-char 30`).
 *
 * Each prints one JSON line with its URLs once listening; on a `stop` line on stdin (or stdin
 * closing) prints one JSON line with what it saw, closes everything and exits.
 */
import { SesSandboxServer } from '../media-service/src/sandbox/ses-server';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { mulberry32 } from '../media-service/src/audio/mix';
import { PacerScheduler } from '../media-service/src/pipeline/pacer-scheduler';
import { SandboxCarrier } from '../media-service/src/sandbox/carrier';
import { DeepgramSandboxServer } from '../media-service/src/sandbox/deepgram-server';
import { OpenAiSandboxServer } from '../media-service/src/sandbox/openai-server';
import { scenario, step } from '../media-service/src/sandbox/scenario-script';
import { TranscriptBoard } from '../media-service/src/sandbox/transcript-board';
import { createLogger, type Logger } from '../shared/log';

/** The bench callee's lines: three questions (each hits a sandbox LLM intent), then goodbye. */
const BENCH_LINES = [
  'What are your hours on Saturday?',
  'How much does a cleaning cost?',
  'Where are you located?',
  'Great, thanks. Goodbye!',
];

/**
 * The callee of the `index`-th bench call: waits for the greeting, then before each line thinks for
 * 0 to `thinkMs` ms (seeded by `index`, so every run places the same pauses), then hangs up after the
 * goodbye. People do not all answer after the same pause; with `thinkMs` 0 every callee runs the
 * same timeline from its answer on, and calls dialled together take their turns in lockstep.
 */
export function benchCallee(index: number, thinkMs: number) {
  const random = mulberry32(index + 1);
  const think = () => Math.round(random() * thinkMs);
  const turns = BENCH_LINES.flatMap((line) => [step.waitForAssistant(), ...(thinkMs > 0 ? [step.pause(think())] : []), step.say(line)]);
  return scenario('bench', [...turns, step.waitForAssistant({ quietMs: 600, timeoutMs: 4000 }), step.hangup()], {
    description: 'Bench callee: greeting, three question/answer turns, goodbye, each line after a think time.',
    maxCallMs: 55_000,
  });
}

export type ProviderRole = 'network' | 'voice';

/** What the network process serves. */
export interface NetworkUrls {
  carrierUrl: string;
  accountSid: string;
  authToken: string;
  /** Sandbox Deepgram for `/v2/listen` (Flux). */
  fluxUrl: string;
  /** The local SES stand-in (the bench callees ask for no email; the tools need a sender). */
  sesUrl: string;
}

/** What the voice process serves. */
export interface VoiceUrls {
  /** Sandbox Deepgram for `/v1/speak` (Aura). */
  auraUrl: string;
  openAiUrl: string;
}

/** The URLs the media process points its adapters at. */
export type BenchProviderUrls = NetworkUrls & VoiceUrls;

/** What one child saw of the run, reported on stop (the network fields only from the network process). */
export interface ChildReport {
  calls?: number;
  completedByCallee?: number;
  statuses?: Record<string, number>;
  carrierTickP99Ms?: number;
  carrierTickMaxMs?: number;
  llmRequests?: number;
  errors: number;
  /** CPU time of this process since it started (s). */
  cpuS: number;
}

/** What both children saw of the run. */
export interface BenchProviderReport {
  calls: number;
  completedByCallee: number;
  statuses: Record<string, number>;
  carrierTickP99Ms: number;
  carrierTickMaxMs: number;
  llmRequests: number;
  errors: number;
  /** CPU time of each child (s). */
  networkCpuS: number;
  voiceCpuS: number;
}

interface Running {
  urls: NetworkUrls | VoiceUrls;
  report(): Omit<ChildReport, 'errors' | 'cpuS'>;
  close(): Promise<unknown>;
}

async function startNetwork(log: Logger, thinkMs: number): Promise<Running> {
  const board = new TranscriptBoard();
  // 5 ms ticks: each call's frames leave on its own 20 ms boundary (calls start at different times),
  // not all 100 calls' frames in one burst per tick, which no real phone network sends.
  const scheduler = new PacerScheduler({ tickMs: 5, log });
  let dialled = 0;
  const [flux, ses, carrier] = await Promise.all([
    DeepgramSandboxServer.start({ board }),
    SesSandboxServer.start(),
    SandboxCarrier.start({
      utterances: board,
      scheduler,
      log,
      scenarioFor: () => benchCallee(dialled++, thinkMs),
      timing: { dialMs: 20, answerMs: 100, amdHumanMs: 300 },
    }),
  ]);
  return {
    urls: {
      carrierUrl: carrier.baseUrl,
      accountSid: carrier.accountSid,
      authToken: carrier.authToken,
      fluxUrl: flux.baseUrl,
      sesUrl: ses.endpoint,
    },
    report() {
      const calls = carrier.calls();
      const statuses: Record<string, number> = {};
      for (const call of calls) statuses[call.status] = (statuses[call.status] ?? 0) + 1;
      return {
        calls: calls.length,
        completedByCallee: calls.filter((call) => call.endedBy === 'callee' || call.endedBy === 'api').length,
        statuses,
        carrierTickP99Ms: scheduler.latePercentileMs(99),
        carrierTickMaxMs: scheduler.stats().maxLateMs,
      };
    },
    close: () => Promise.all([carrier.close(), flux.close(), ses.close()]),
  };
}

async function startVoice(values: Record<string, string | undefined>): Promise<Running> {
  const [aura, openai] = await Promise.all([
    DeepgramSandboxServer.start({
      board: new TranscriptBoard(),
      aura: { msPerChar: Number(values['ms-per-char']), firstByteDelayMs: Number(values['tts-first-byte-ms']) },
    }),
    OpenAiSandboxServer.start({ ttftMs: Number(values['ttft-ms']), tokenIntervalMs: Number(values['token-interval-ms']) }),
  ]);
  return {
    urls: { auraUrl: aura.baseUrl, openAiUrl: openai.baseUrl },
    report: () => ({ llmRequests: openai.requests.length }),
    close: () => Promise.all([aura.close(), openai.close()]),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      role: { type: 'string', default: 'network' },
      'ttft-ms': { type: 'string', default: '0' },
      'tts-first-byte-ms': { type: 'string', default: '0' },
      'ms-per-char': { type: 'string', default: '30' },
      'token-interval-ms': { type: 'string', default: '0' },
      'think-ms': { type: 'string', default: '0' },
    },
  });
  let errors = 0;
  // Counts the stand-ins' failures (reported by the parent) instead of printing them.
  const log = createLogger({
    service: 'bench',
    write: (line) => void (line.includes('fail') || line.includes('error') ? errors++ : undefined),
  });
  const running = values.role === 'voice' ? await startVoice(values) : await startNetwork(log, Number(values['think-ms']));
  process.stdout.write(`${JSON.stringify(running.urls)}\n`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    const cpu = process.cpuUsage();
    const report: ChildReport = { ...running.report(), errors, cpuS: (cpu.user + cpu.system) / 1e6 };
    process.stdout.write(`${JSON.stringify(report)}\n`);
    await running.close();
    process.exit(0);
  };
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => void (line.trim() === 'stop' ? stop() : undefined));
  lines.on('close', () => void stop());
}

void main();
