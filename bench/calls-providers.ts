/**
 * The provider side of `npm run bench:calls`, run as a child process so the simulated callees and
 * the sandbox Flux/Aura/OpenAI never share the media process's CPU or event loop: the sandbox
 * carrier (every call answered by the bench callee), the sandbox Deepgram and the sandbox OpenAI,
 * on loopback. Latencies come from argv (`--ttft-ms 350 --token-interval-ms 10 --tts-first-byte-ms 150 --ms-per-char 30`).
 *
 * Prints one JSON line with the URLs once listening; on a `stop` line on stdin (or stdin closing)
 * prints one JSON line with what the carrier saw, closes everything and exits.
 */
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { PacerScheduler } from '../media-service/src/pipeline/pacer-scheduler';
import { SandboxCarrier } from '../media-service/src/sandbox/carrier';
import { DeepgramSandboxServer } from '../media-service/src/sandbox/deepgram-server';
import { OpenAiSandboxServer } from '../media-service/src/sandbox/openai-server';
import { scenario, step } from '../media-service/src/sandbox/scenarios';
import { TranscriptBoard } from '../media-service/src/sandbox/transcript-board';

/** Waits for the greeting, asks three questions (each hits a sandbox LLM intent), then says goodbye. */
const BENCH_CALLEE = scenario(
  'bench',
  [
    step.waitForAssistant(),
    step.say('What are your hours on Saturday?'),
    step.waitForAssistant(),
    step.say('How much does a cleaning cost?'),
    step.waitForAssistant(),
    step.say('Where are you located?'),
    step.waitForAssistant(),
    step.say('Great, thanks. Goodbye!'),
    step.waitForAssistant({ quietMs: 600, timeoutMs: 4000 }),
    step.hangup(),
  ],
  { description: 'Bench callee: greeting, three question/answer turns, goodbye.', maxCallMs: 55_000 },
);

/** The URLs the media process points its adapters at. */
export interface BenchProviderUrls {
  carrierUrl: string;
  accountSid: string;
  authToken: string;
  deepgramUrl: string;
  openAiUrl: string;
}

/** What the carrier saw of the run, reported on stop. */
export interface BenchProviderReport {
  calls: number;
  completedByCallee: number;
  statuses: Record<string, number>;
  carrierTickP99Ms: number;
  carrierTickMaxMs: number;
  llmRequests: number;
  errors: number;
  /** CPU time of this process since it started (s). */
  cpuS: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { 'ttft-ms': { type: 'string', default: '0' }, 'tts-first-byte-ms': { type: 'string', default: '0' }, 'ms-per-char': { type: 'string', default: '30' }, 'token-interval-ms': { type: 'string', default: '0' } },
  });
  let errors = 0;
  const log = (message: string) => void (message.includes('fail') || message.includes('error') ? errors++ : undefined);
  const board = new TranscriptBoard();
  const scheduler = new PacerScheduler({ tickMs: 20, log });
  const [deepgram, openai, carrier] = await Promise.all([
    DeepgramSandboxServer.start({ board, aura: { msPerChar: Number(values['ms-per-char']), firstByteDelayMs: Number(values['tts-first-byte-ms']) } }),
    OpenAiSandboxServer.start({ ttftMs: Number(values['ttft-ms']), tokenIntervalMs: Number(values['token-interval-ms']) }),
    SandboxCarrier.start({ utterances: board, scheduler, log, scenarioFor: () => BENCH_CALLEE, timing: { dialMs: 20, answerMs: 100, amdHumanMs: 300 } }),
  ]);
  const urls: BenchProviderUrls = { carrierUrl: carrier.baseUrl, accountSid: carrier.accountSid, authToken: carrier.authToken, deepgramUrl: deepgram.baseUrl, openAiUrl: openai.baseUrl };
  process.stdout.write(`${JSON.stringify(urls)}\n`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    const calls = carrier.calls();
    const statuses: Record<string, number> = {};
    for (const call of calls) statuses[call.status] = (statuses[call.status] ?? 0) + 1;
    const report: BenchProviderReport = {
      calls: calls.length,
      completedByCallee: calls.filter((call) => call.endedBy === 'callee' || call.endedBy === 'api').length,
      statuses,
      carrierTickP99Ms: scheduler.latePercentileMs(99),
      carrierTickMaxMs: scheduler.stats().maxLateMs,
      llmRequests: openai.requests.length,
      errors,
      cpuS: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
    };
    process.stdout.write(`${JSON.stringify(report)}\n`);
    await Promise.all([carrier.close(), deepgram.close(), openai.close()]);
    process.exit(0);
  };
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => void (line.trim() === 'stop' ? stop() : undefined));
  lines.on('close', () => void stop());
}

void main();
