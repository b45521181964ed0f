import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { CoreDeps } from '../../functions/lib/deps';
import type { BenchProviderReport } from '../calls-providers';
import { startBenchMedia, type LogTally } from './media-stack';
import { warmVoiceChild } from './floor';
import { GcPauses } from './gc-pauses';
import { LiveHeap } from './live-heap';
import { LoopProbe } from './loop-probe';
import { startProvidersChild, type ProviderLatencies } from './providers-child';
import { SteadyWindow } from './steady';
import { turnCauses, type TurnCauses, type TurnWindow } from './turn-causes';
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
  /**
   * Turns whose EndOfTurn reached the media process within {@link CROWD_MS} of another call's, and
   * the rest: crowded turns share the media thread's CPU with each other's replies.
   */
  crowdedTurns: Record<string, number | boolean | null>[];
  loneTurns: Record<string, number | boolean | null>[];
  /** The media process's GC over the run: major and minor collections, all pauses summed, the longest one (ms). */
  gc: { major: number; minor: number; pausedMs: number; longestMs: number };
  /** The media process's event-loop delay over the run (`monitorEventLoopDelay`, 1 ms resolution), ms. */
  loopDelay: { p99Ms: number; maxMs: number };
  /**
   * Where the time of the turns whose overhead passed `overMs` went, beside every turn's
   * (bench/lib/turn-causes.ts): the media GC, its other work, its waits for a core, its idle time.
   */
  causes(overMs: number): { slow: TurnCauses; all: TurnCauses };
  /** The bench's own CPU probe inside the media process (ms), taken out of {@link cpuPctPerCall}. */
  probeCostMs: number;
  /** The media main thread's time on a CPU and waiting for one (Linux schedstat; undefined elsewhere). */
  mainThread: { runMs: number; runqueueWaitMs: number } | undefined;
  underruns: number;
  underrunMs: number;
  tickP99Ms: number;
  tickMaxMs: number;
  /** Steady state (all N calls connected, none ended yet): tick lateness p99, CPU per call, window length. */
  steady: { tickP99Ms: number; tickMaxMs: number; cpuPctPerCall: number; seconds: number };
  /**
   * Media-process CPU per concurrent call over the whole run, % of one core (CPU time ÷ Σ call
   * durations, setup and teardown included), without the bench's probe. The sandbox's CPU is in
   * the two children, never in this figure: {@link sandboxCpuPctPerCall}.
   */
  cpuPctPerCall: number;
  /** The children's CPU per call on the same basis (since each was spawned, the voice child's warm-up included). */
  sandboxCpuPctPerCall: { network: number; voice: number } | undefined;
  /** Peak RSS growth over the idle process ÷ peak concurrent calls. */
  rssMiBPerCall: number;
  /** Heap and buffers held per live call, from the points right after each major GC ({@link LiveHeap}). */
  liveHeap: ReturnType<LiveHeap['perCall']>;
  wallS: number;
  providers: BenchProviderReport | undefined;
  logs: LogTally;
}

/** Two EndOfTurns closer than this (ms) are crowded: their replies' work overlaps on the media thread. */
export const CROWD_MS = 10;

/**
 * No run may take longer than this (calls last ~20–30 s; BENCH_RUN_TIMEOUT_S, default 120: on a
 * machine loaded far past its cores the calls are dialled and answered slowly, and a run cut at
 * 60 s left a quarter of them unfinished).
 */
const RUN_TIMEOUT_MS = Number(process.env.BENCH_RUN_TIMEOUT_S ?? 120) * 1000;
const MiB = 1024 * 1024;

/**
 * Runs `spec`: starts the provider children with its latencies (the voice child warmed up, see
 * `warmVoiceChild`) and a fresh media stack (fresh scheduler, so tick statistics are this run's),
 * queues the calls, dials them, waits until every session is done (or the time limit), then reads
 * each call's metrics back from DynamoDB.
 */
export async function runCalls(env: BenchEnv, spec: RunSpec): Promise<RunResult> {
  const child = await startProvidersChild(spec.latencies);
  await warmVoiceChild(child.urls);
  const stack = await startBenchMedia(env.core, child.urls);
  let measured: Omit<RunResult, 'providers'>;
  let providers: BenchProviderReport | undefined;
  try {
    const placed = await env.tenants.place(spec.calls, spec.eager);
    global.gc?.();
    const rssIdle = process.memoryUsage().rss;
    const cpuBefore = process.cpuUsage();
    const schedBefore = mainThreadSchedstat();
    const started = performance.now();
    const gc = new GcPauses();
    const steady = new SteadyWindow(stack.scheduler);
    const probe = new LoopProbe(stack.scheduler, [
      { name: 'media', pid: process.pid, tid: process.pid },
      ...(child.pids.voice === undefined ? [] : [{ name: 'voice', pid: child.pids.voice, tid: child.pids.voice }]),
    ]);
    const liveHeap = new LiveHeap(() => stack.media.registry.size);
    const dialling = stack.dialAll(placed);
    const peak = await watch(stack, spec.calls, started, steady);
    await dialling;
    steady.remove();
    probe.stop();
    liveHeap.stop();
    gc.stop();
    const cpu = process.cpuUsage(cpuBefore);
    const schedAfter = mainThreadSchedstat();
    const wallMs = performance.now() - started;
    const { windows, ...calls } = await readCalls(env, placed, steady, stack.sessions.startedAt, gc);
    const events = {
      endOfTurns: windows.map((window) => window.fromMs),
      setups: [...stack.sessions.startedAt.values()],
      endings: stack.sessions.endedAt,
    };
    const threads = { media: 0, voice: probe.threads.length > 1 ? 1 : undefined };
    measured = {
      spec,
      ...calls,
      peakConcurrent: peak.concurrent,
      gc: gc.summary(),
      loopDelay: peak.loopDelay,
      causes: (overMs) => ({
        slow: turnCauses(
          windows.filter((window) => window.overheadMs > overMs),
          probe,
          gc,
          events,
          threads,
        ),
        all: turnCauses(windows, probe, gc, events, threads),
      }),
      probeCostMs: probe.costMs,
      sandboxCpuPctPerCall: undefined,
      tickP99Ms: stack.scheduler.latePercentileMs(99),
      tickMaxMs: stack.scheduler.stats().maxLateMs,
      steady: {
        tickP99Ms: steady.lateness.percentile(99),
        tickMaxMs: steady.lateness.percentile(100),
        cpuPctPerCall: (steady.cpuMs / Math.max(1, steady.wallMs) / spec.calls) * 100,
        seconds: steady.wallMs / 1000,
      },
      cpuPctPerCall: (((cpu.user + cpu.system) / 1000 - probe.costMs) / Math.max(1, stack.sessions.callMs)) * 100,
      rssMiBPerCall: (peak.rss - rssIdle) / MiB / Math.max(1, peak.concurrent),
      liveHeap: liveHeap.perCall(),
      mainThread:
        schedBefore && schedAfter
          ? { runMs: schedAfter.runMs - schedBefore.runMs, runqueueWaitMs: schedAfter.waitMs - schedBefore.waitMs }
          : undefined,
      wallS: wallMs / 1000,
      logs: stack.logs,
    };
  } finally {
    await stack.stop();
    providers = await child.stop();
  }
  const callMs = Math.max(1, stack.sessions.callMs);
  const sandboxCpuPctPerCall = providers && {
    network: ((providers.networkCpuS * 1000) / callMs) * 100,
    voice: ((providers.voiceCpuS * 1000) / callMs) * 100,
  };
  return { ...measured, providers, sandboxCpuPctPerCall };
}

/** Samples concurrency and RSS every 100 ms until every call is done (BENCH_TIMELINE: prints event-loop delay each second). */
async function watch(stack: Awaited<ReturnType<typeof startBenchMedia>>, calls: number, started: number, steady: SteadyWindow) {
  const peak = { concurrent: 0, rss: 0, loopDelay: { p99Ms: 0, maxMs: 0 } };
  // The run's event-loop delay, and (BENCH_TIMELINE) each second's: one more 1 ms sampler only then.
  const run = monitorEventLoopDelay({ resolution: 1 });
  run.enable();
  const loop = process.env.BENCH_TIMELINE ? monitorEventLoopDelay({ resolution: 1 }) : undefined;
  loop?.enable();
  let second = Math.floor(started / 1000);
  while (stack.sessions.done < calls && performance.now() - started < RUN_TIMEOUT_MS) {
    peak.concurrent = Math.max(peak.concurrent, stack.media.registry.size);
    peak.rss = Math.max(peak.rss, process.memoryUsage.rss());
    if (stack.sessions.done > 0) steady.close();
    else if (stack.media.registry.size >= calls) steady.open();
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (loop && Math.floor(performance.now() / 1000) !== second) {
      second = Math.floor(performance.now() / 1000);
      console.log(
        `  t=${((performance.now() - started) / 1000).toFixed(0)}s calls ${stack.media.registry.size} loop delay p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms max ${(loop.max / 1e6).toFixed(1)} ms, ticks late max ${stack.scheduler.stats().maxLateMs.toFixed(1)}`,
      );
      loop.reset();
    }
  }
  loop?.disable();
  run.disable();
  peak.loopDelay = { p99Ms: run.percentile(99) / 1e6, maxMs: run.max / 1e6 };
  steady.close();
  return peak;
}

/**
 * This thread's time on a CPU and waiting in the run queue for one (ms), from Linux's
 * /proc/thread-self/schedstat; undefined where there is none. The wait is time the media thread was
 * ready to run but another thread (a stand-in, a GC helper, another tenant of the machine) had the CPU.
 */
function mainThreadSchedstat(): { runMs: number; waitMs: number } | undefined {
  try {
    const [runNs, waitNs] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number);
    return { runMs: runNs! / 1e6, waitMs: waitNs! / 1e6 };
  } catch {
    return undefined;
  }
}

/** Splits turns (with their EndOfTurn time, epoch ms) into crowded and lone ones (see {@link CROWD_MS}). */
function byCrowding(placedTurns: { at: number; row: RunResult['turns'][number] }[]) {
  const sorted = [...placedTurns].sort((a, b) => a.at - b.at);
  const crowded: RunResult['turns'] = [];
  const lone: RunResult['turns'] = [];
  sorted.forEach(({ at, row }, i) => {
    const near = (sorted[i - 1] && at - sorted[i - 1]!.at < CROWD_MS) || (sorted[i + 1] && sorted[i + 1]!.at - at < CROWD_MS);
    (near ? crowded : lone).push(row);
  });
  return { crowded, lone };
}

/**
 * Reads every placed call back: outcome, per-turn metrics and pacing. `sessionStarts`: each call's
 * session start (epoch ms). Each turn row gains `gc_pause_ms`: how long the media process's GC paused
 * it between EndOfTurn and its first frame sent.
 */
async function readCalls(
  env: BenchEnv,
  placed: PlacedCall[],
  steady: SteadyWindow,
  sessionStarts: ReadonlyMap<number, number>,
  gc: GcPauses,
) {
  const endedReasons: Record<string, number> = {};
  const turns: RunResult['turns'] = [];
  const phases: Record<'ramp' | 'steady' | 'teardown', RunResult['turns']> = { ramp: [], steady: [], teardown: [] };
  const placedTurns: { at: number; row: RunResult['turns'][number] }[] = [];
  const windows: (TurnWindow & { overheadMs: number })[] = [];
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
    // `at_ms` counts from the session's start, which the bench noted for each call.
    const startedAt = sessionStarts.get(callId);
    for (const row of rows) {
      if (startedAt === undefined || typeof row.at_ms !== 'number') continue;
      if (typeof row.first_audio_sent_ms === 'number') {
        const window = { fromMs: startedAt + row.at_ms, toMs: startedAt + row.at_ms + row.first_audio_sent_ms };
        row.gc_pause_ms = Math.round(gc.pausedWithin(window.fromMs, window.toMs) * 10) / 10;
        windows.push({ ...window, overheadMs: row.first_audio_sent_ms });
      }
      phases[steady.phaseOf(startedAt + row.at_ms)].push(row);
      placedTurns.push({ at: startedAt + row.at_ms, row });
    }
    underruns += metrics.pacing?.underruns ?? 0;
    underrunMs += metrics.pacing?.underrun_ms ?? 0;
    if ((reason === 'assistant_ended' || reason === 'caller_hung_up') && rows.length >= 4) completed++;
  }
  const { crowded, lone } = byCrowding(placedTurns);
  return {
    completed,
    endedReasons,
    turns,
    steadyTurns: phases.steady,
    rampTurns: phases.ramp,
    teardownTurns: phases.teardown,
    crowdedTurns: crowded,
    loneTurns: lone,
    underruns,
    underrunMs,
    windows,
  };
}
