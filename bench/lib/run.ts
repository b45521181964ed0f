import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { CoreDeps } from '../../functions/lib/deps';
import type { BenchProviderReport } from '../calls-providers';
import { startBenchMedia, type LogTally } from './media-stack';
import { startProvidersChild, type ProviderLatencies } from './providers-child';
import { SteadyWindow } from './steady';
import type { createTenants, PlacedCall } from './tenants';

/** The shared pieces every run uses (one DynamoDB Local, one fauxqs, one set of businesses). */
export interface BenchEnv {
  core: CoreDeps;
  tenants: Awaited<ReturnType<typeof createTenants>>;
}

/** One run: N concurrent calls with these provider latencies. */
export interface RunSpec {
  calls: number;
  eager: boolean;
  latencies: ProviderLatencies;
}

/** What one run measured. */
export interface RunResult {
  spec: RunSpec;
  completed: number;
  endedReasons: Record<string, number>;
  peakConcurrent: number;
  /** Per-turn rows of every call's `metrics.turns`. */
  turns: Record<string, number | boolean | null>[];
  /** The turns that ended inside the steady-state window (all N calls talking, none set up or torn down). */
  steadyTurns: Record<string, number | boolean | null>[];
  /** The turns taken while calls were still being set up, and after the first call ended. */
  rampTurns: Record<string, number | boolean | null>[];
  teardownTurns: Record<string, number | boolean | null>[];
  underruns: number;
  underrunMs: number;
  tickP99Ms: number;
  tickMaxMs: number;
  /** Steady state (all N calls connected, none ended yet): tick lateness p99, CPU per call, window length. */
  steady: { tickP99Ms: number; tickMaxMs: number; cpuPctPerCall: number; seconds: number };
  /** Media-process CPU per concurrent call over the whole run, % of one core (CPU time ÷ Σ call durations, setup and teardown included). */
  cpuPctPerCall: number;
  /** Peak RSS growth over the idle process ÷ peak concurrent calls. */
  rssMiBPerCall: number;
  wallS: number;
  providers: BenchProviderReport | undefined;
  logs: LogTally;
}

/** No run may take longer than this (calls last ~20 s). */
const RUN_TIMEOUT_MS = 60_000;
const MiB = 1024 * 1024;

/**
 * Runs `spec`: starts the provider child with its latencies and a fresh media stack (fresh
 * scheduler, so tick statistics are this run's), queues the calls, dials them, waits until every
 * session is done (or the time limit), then reads each call's metrics back from DynamoDB.
 */
export async function runCalls(env: BenchEnv, spec: RunSpec): Promise<RunResult> {
  const child = await startProvidersChild(spec.latencies);
  const stack = await startBenchMedia(env.core, child.urls);
  let measured: Omit<RunResult, 'providers'>;
  let providers: BenchProviderReport | undefined;
  try {
    const placed = await env.tenants.place(spec.calls, spec.eager);
    global.gc?.();
    const rssIdle = process.memoryUsage().rss;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const steady = new SteadyWindow(stack.scheduler);
    const dialling = stack.dialAll(placed);
    const peak = await watch(stack, spec.calls, started, steady);
    await dialling;
    steady.remove();
    const cpu = process.cpuUsage(cpuBefore);
    const wallMs = performance.now() - started;
    const calls = await readCalls(env, placed, steady);
    measured = {
      spec,
      ...calls,
      peakConcurrent: peak.concurrent,
      tickP99Ms: stack.scheduler.latePercentileMs(99),
      tickMaxMs: stack.scheduler.stats().maxLateMs,
      steady: {
        tickP99Ms: steady.lateness.percentile(99),
        tickMaxMs: steady.lateness.percentile(100),
        cpuPctPerCall: (steady.cpuMs / Math.max(1, steady.wallMs) / spec.calls) * 100,
        seconds: steady.wallMs / 1000,
      },
      cpuPctPerCall: ((cpu.user + cpu.system) / 1000 / Math.max(1, stack.sessions.callMs)) * 100,
      rssMiBPerCall: (peak.rss - rssIdle) / MiB / Math.max(1, peak.concurrent),
      wallS: wallMs / 1000,
      logs: stack.logs,
    };
  } finally {
    await stack.stop();
    providers = await child.stop();
  }
  return { ...measured, providers };
}

/** Samples concurrency and RSS every 100 ms until every call is done (BENCH_TIMELINE: prints event-loop delay each second). */
async function watch(stack: Awaited<ReturnType<typeof startBenchMedia>>, calls: number, started: number, steady: SteadyWindow) {
  const peak = { concurrent: 0, rss: 0 };
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  let second = Math.floor(started / 1000);
  while (stack.sessions.done < calls && performance.now() - started < RUN_TIMEOUT_MS) {
    peak.concurrent = Math.max(peak.concurrent, stack.media.registry.size);
    peak.rss = Math.max(peak.rss, process.memoryUsage.rss());
    if (stack.sessions.done > 0) steady.close();
    else if (stack.media.registry.size >= calls) steady.open();
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (process.env.BENCH_TIMELINE && Math.floor(performance.now() / 1000) !== second) {
      second = Math.floor(performance.now() / 1000);
      console.log(`  t=${((performance.now() - started) / 1000).toFixed(0)}s calls ${stack.media.registry.size} loop delay p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms max ${(loop.max / 1e6).toFixed(1)} ms, ticks late max ${stack.scheduler.stats().maxLateMs.toFixed(1)}`);
      loop.reset();
    }
  }
  loop.disable();
  steady.close();
  return peak;
}

/** Reads every placed call back: outcome, per-turn metrics and pacing. */
async function readCalls(env: BenchEnv, placed: PlacedCall[], steady: SteadyWindow) {
  const endedReasons: Record<string, number> = {};
  const turns: RunResult['turns'] = [];
  const phases: Record<'ramp' | 'steady' | 'teardown', RunResult['turns']> = { ramp: [], steady: [], teardown: [] };
  let completed = 0;
  let underruns = 0;
  let underrunMs = 0;
  for (const { businessId, callId } of placed) {
    const found = await env.core.callRepo.findCall(businessId, callId, Math.floor(Date.now() / 1000));
    const reason = found?.call.status === 'ended' ? String(found.call.ended_reason) : `not ended (${found?.call.status ?? 'missing'})`;
    endedReasons[reason] = (endedReasons[reason] ?? 0) + 1;
    const metrics = (found?.detail.metrics ?? {}) as { turns?: RunResult['turns']; pacing?: { underruns: number; underrun_ms: number } };
    const rows = metrics.turns ?? [];
    turns.push(...rows);
    const startedAt = typeof found?.call.started_at === 'string' ? Date.parse(found.call.started_at) : undefined;
    for (const row of rows) if (startedAt !== undefined && typeof row.at_ms === 'number') phases[steady.phaseOf(startedAt + row.at_ms)].push(row);
    underruns += metrics.pacing?.underruns ?? 0;
    underrunMs += metrics.pacing?.underrun_ms ?? 0;
    if ((reason === 'assistant_ended' || reason === 'caller_hung_up') && rows.length >= 4) completed++;
  }
  return { completed, endedReasons, turns, steadyTurns: phases.steady, rampTurns: phases.ramp, teardownTurns: phases.teardown, underruns, underrunMs };
}
