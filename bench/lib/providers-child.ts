import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { lowerPriority, runInRealTime } from '../../scripts/local/stand-ins/priority';
import type { BenchProviderReport, BenchProviderUrls, ChildReport, NetworkUrls, ProviderRole, VoiceUrls } from '../calls-providers';

/** Sandbox provider latencies for one run (ms). */
export interface ProviderLatencies {
  ttftMs: number;
  tokenIntervalMs: number;
  ttsFirstByteMs: number;
  msPerChar: number;
}

/** The running provider children: their URLs, and `stop()` returning what they saw. */
export interface ProvidersChild {
  urls: BenchProviderUrls;
  /** The two children's process ids (their main threads' tids), for the bench's CPU probe. */
  pids: { network: number | undefined; voice: number | undefined };
  stop(): Promise<BenchProviderReport | undefined>;
}

const ROOT = join(import.meta.dirname, '..', '..');
/**
 * Node flags of the stand-in processes: the media process's own (package.json `bench:calls`, the
 * media image's CMD), a 4 MiB young generation, so no process of the bench pauses for tens of ms
 * in a minor GC (docs/decisions.md "Media process GC").
 */
export const BENCH_NODE_FLAGS = ['--max-semi-space-size=4'];

/**
 * The phone network child runs below the media process's priority, as DynamoDB Local does: on the
 * bench's few cores it is the heaviest stand-in (every call's audio both ways, and Flux), and in
 * production Twilio and Deepgram run on their own machines, not on the media container's CPU.
 */
const NETWORK_NICENESS = 10;

/**
 * Real-time priorities of the bench (BENCH_REAL_TIME=off: none). The media process's main thread
 * (10) stands in for a service with its task's vCPUs to itself, as on Fargate. The voice providers'
 * main thread (5, below it) answers as soon as a request lands: the turns measured wait on it, and
 * the bar puts the providers at 0 ms, which on two shared cores they only are when they need not
 * wait for a core behind the phone network. Both fall back to normal priority where refused.
 */
export const REAL_TIME = process.env.BENCH_REAL_TIME === 'off' ? undefined : { media: 10, voice: 5 };

/**
 * The longest think time of a bench callee before each line (`benchCallee`), BENCH_THINK_MS
 * (default 1000; 0: every callee answers after the same pause, so their turns come in lockstep).
 */
const CALLEE_THINK_MS = Number(process.env.BENCH_THINK_MS ?? 1000);

interface Child<Urls> {
  urls: Urls;
  pid: number | undefined;
  stop(): Promise<ChildReport | undefined>;
}

/**
 * Spawns `bench/calls-providers.ts` in one role and waits for its URL line. The child gets a
 * `stop` line to report and exit; it is killed if it has not exited 5 s later.
 */
async function startChild<Urls>(role: ProviderRole, latencies: ProviderLatencies): Promise<Child<Urls>> {
  const args = [
    ...BENCH_NODE_FLAGS,
    '--import',
    'tsx',
    join(ROOT, 'bench', 'calls-providers.ts'),
    '--role',
    role,
    '--ttft-ms',
    String(latencies.ttftMs),
    '--token-interval-ms',
    String(latencies.tokenIntervalMs),
    '--tts-first-byte-ms',
    String(latencies.ttsFirstByteMs),
    '--ms-per-char',
    String(latencies.msPerChar),
    '--think-ms',
    String(CALLEE_THINK_MS),
  ];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const queue: string[] = [];
  const waiters: ((line: string | undefined) => void)[] = [];
  lines.on('line', (line) => (waiters.length > 0 ? waiters.shift()!(line) : queue.push(line)));
  lines.on('close', () => waiters.splice(0).forEach((waiter) => waiter(undefined)));
  const nextLine = (timeoutMs: number) =>
    new Promise<string | undefined>((resolve) => {
      if (queue.length > 0) return resolve(queue.shift());
      const timer = setTimeout(() => resolve(undefined), timeoutMs);
      waiters.push((line) => (clearTimeout(timer), resolve(line)));
    });
  const first = await nextLine(30_000);
  if (!first) {
    child.kill();
    throw new Error(`the ${role} provider child did not start`);
  }
  if (role === 'network' && child.pid !== undefined) lowerPriority(child.pid, NETWORK_NICENESS);
  if (role === 'voice' && child.pid !== undefined && REAL_TIME) runInRealTime(child.pid, REAL_TIME.voice);
  return {
    urls: JSON.parse(first) as Urls,
    pid: child.pid,
    async stop() {
      child.stdin!.write('stop\n');
      const report = await nextLine(5000);
      const exited =
        child.exitCode !== null ||
        (await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), 5000);
          child.once('exit', () => (clearTimeout(timer), resolve(true)));
        }));
      if (!exited) child.kill('SIGKILL');
      return report ? (JSON.parse(report) as ChildReport) : undefined;
    },
  };
}

/** Starts the phone network (carrier, callees, Flux) and the voice providers (OpenAI, Aura) as two children. */
export async function startProvidersChild(latencies: ProviderLatencies): Promise<ProvidersChild> {
  const [network, voice] = await Promise.all([startChild<NetworkUrls>('network', latencies), startChild<VoiceUrls>('voice', latencies)]);
  return {
    urls: { ...network.urls, ...voice.urls },
    pids: { network: network.pid, voice: voice.pid },
    async stop() {
      const [heard, answered] = await Promise.all([network.stop(), voice.stop()]);
      if (!heard || !answered) return undefined;
      return {
        calls: heard.calls ?? 0,
        completedByCallee: heard.completedByCallee ?? 0,
        statuses: heard.statuses ?? {},
        carrierTickP99Ms: heard.carrierTickP99Ms ?? 0,
        carrierTickMaxMs: heard.carrierTickMaxMs ?? 0,
        llmRequests: answered.llmRequests ?? 0,
        errors: heard.errors + answered.errors,
        networkCpuS: heard.cpuS,
        voiceCpuS: answered.cpuS,
      };
    },
  };
}
