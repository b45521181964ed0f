import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { BenchProviderReport, BenchProviderUrls } from '../calls-providers';

/** Sandbox provider latencies for one run (ms). */
export interface ProviderLatencies {
  ttftMs: number;
  tokenIntervalMs: number;
  ttsFirstByteMs: number;
  msPerChar: number;
}

/** The running provider child: its URLs, and `stop()` returning what the carrier saw. */
export interface ProvidersChild {
  urls: BenchProviderUrls;
  stop(): Promise<BenchProviderReport | undefined>;
}

const TSX = join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'tsx');

/**
 * Spawns `bench/calls-providers.ts` (tsx) and waits for its URL line. The child gets a `stop`
 * line to report and exit; it is killed if it has not exited 5 s later.
 */
export async function startProvidersChild(latencies: ProviderLatencies): Promise<ProvidersChild> {
  const args = [join(import.meta.dirname, '..', 'calls-providers.ts'), '--ttft-ms', String(latencies.ttftMs), '--token-interval-ms', String(latencies.tokenIntervalMs), '--tts-first-byte-ms', String(latencies.ttsFirstByteMs), '--ms-per-char', String(latencies.msPerChar)];
  const child = spawn(TSX, args, { stdio: ['pipe', 'pipe', 'inherit'] });
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
    throw new Error('the provider child did not start');
  }
  const urls = JSON.parse(first) as BenchProviderUrls;
  return {
    urls,
    async stop() {
      child.stdin!.write('stop\n');
      const report = await nextLine(5000);
      const exited = child.exitCode !== null || (await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), 5000);
        child.once('exit', () => (clearTimeout(timer), resolve(true)));
      }));
      if (!exited) child.kill('SIGKILL');
      return report ? (JSON.parse(report) as BenchProviderReport) : undefined;
    },
  };
}
