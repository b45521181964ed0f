import type { GcPauses } from './gc-pauses';
import type { LoopProbe } from './loop-probe';

/** One turn's overhead window: EndOfTurn reached the media process → its first frame was sent (epoch ms). */
export interface TurnWindow {
  fromMs: number;
  toMs: number;
}

/** What else happened in the media process during a run, as epoch ms lists. */
export interface RunEvents {
  /** Every turn's EndOfTurn (other calls' replies being built). */
  endOfTurns: number[];
  /** Sessions started (call set-up: DynamoDB reads, sockets opened). */
  setups: number[];
  /** Sessions finished (endings: the end write, settlement, sockets closed). */
  endings: number[];
}

/**
 * Where a set of turns' time went, summed over their windows (ms): the media main thread paused by
 * its own GC, running anything else (this turn's reply and every other call's work), ready but
 * waiting for a core, or idle (awaiting the voice providers over loopback); the voice child's main
 * thread on a CPU and waiting for one in the same windows. Plus, per turn, what else ran in the
 * media process then and the event loop's longest delay (median over the turns).
 */
export interface TurnCauses {
  turns: number;
  wallMs: number;
  gcMs: number;
  /** Windows that overlapped a major GC pause. */
  majorGcTurns: number;
  mediaOtherCpuMs: number;
  mediaWaitMs: number;
  mediaIdleMs: number;
  voiceRunMs: number;
  voiceWaitMs: number;
  /** Means per turn: other calls' EndOfTurns, session set-ups and endings inside the window. */
  otherEndOfTurns: number;
  setups: number;
  endings: number;
  /** Median over the turns of the longest scheduler-tick delay in the window (ms). */
  loopDelayMs: number;
}

const countWithin = (times: readonly number[], { fromMs, toMs }: TurnWindow) => times.filter((at) => at >= fromMs && at <= toMs).length;

/** Attributes the windows' time (see {@link TurnCauses}); `media` and `voice` index the probe's threads. */
export function turnCauses(
  windows: readonly TurnWindow[],
  probe: LoopProbe,
  gc: GcPauses,
  events: RunEvents,
  threads: { media: number; voice: number | undefined },
): TurnCauses {
  const sum: TurnCauses = {
    turns: windows.length,
    wallMs: 0,
    gcMs: 0,
    majorGcTurns: 0,
    mediaOtherCpuMs: 0,
    mediaWaitMs: 0,
    mediaIdleMs: 0,
    voiceRunMs: 0,
    voiceWaitMs: 0,
    otherEndOfTurns: 0,
    setups: 0,
    endings: 0,
    loopDelayMs: 0,
  };
  const delays: number[] = [];
  for (const window of windows) {
    const wall = window.toMs - window.fromMs;
    const times = probe.within(window.fromMs, window.toMs);
    const media = times[threads.media]!;
    const voice = threads.voice === undefined ? undefined : times[threads.voice];
    const gcMs = Math.min(wall, gc.pausedWithin(window.fromMs, window.toMs));
    const run = Math.min(wall, Math.max(media.runMs, gcMs));
    const wait = Math.min(wall - run, media.waitMs);
    sum.wallMs += wall;
    sum.gcMs += gcMs;
    sum.majorGcTurns += gc.pauses.some((p) => p.major && p.atMs < window.toMs && p.atMs + p.ms > window.fromMs) ? 1 : 0;
    sum.mediaOtherCpuMs += run - gcMs;
    sum.mediaWaitMs += wait;
    sum.mediaIdleMs += wall - run - wait;
    sum.voiceRunMs += voice?.runMs ?? 0;
    sum.voiceWaitMs += voice?.waitMs ?? 0;
    sum.otherEndOfTurns += Math.max(0, countWithin(events.endOfTurns, window) - 1);
    sum.setups += countWithin(events.setups, window);
    sum.endings += countWithin(events.endings, window);
    delays.push(probe.loopDelayWithin(window.fromMs, window.toMs));
  }
  const n = Math.max(1, windows.length);
  delays.sort((a, b) => a - b);
  return {
    ...sum,
    otherEndOfTurns: sum.otherEndOfTurns / n,
    setups: sum.setups / n,
    endings: sum.endings / n,
    loopDelayMs: delays[Math.floor(delays.length / 2)] ?? 0,
  };
}

/** One line: the shares of the windows' time, and what ran beside them. */
export function describeCauses(causes: TurnCauses): string {
  if (causes.turns === 0) return 'none';
  const share = (ms: number) => `${((100 * ms) / Math.max(1, causes.wallMs)).toFixed(0)} %`;
  return [
    `${causes.turns} turns, ${(causes.wallMs / causes.turns).toFixed(1)} ms each on average:`,
    `media GC ${share(causes.gcMs)} (${causes.majorGcTurns} overlapped a major GC),`,
    `media other work on the CPU ${share(causes.mediaOtherCpuMs)},`,
    `media waiting for a core ${share(causes.mediaWaitMs)},`,
    `media idle, awaiting the providers ${share(causes.mediaIdleMs)}`,
    `(voice child on a CPU ${share(causes.voiceRunMs)}, waiting for a core ${share(causes.voiceWaitMs)});`,
    `per turn: ${causes.otherEndOfTurns.toFixed(1)} other EndOfTurns, ${causes.setups.toFixed(2)} set-ups, ${causes.endings.toFixed(2)} endings;`,
    `event-loop delay (longest tick delay in the window) median ${causes.loopDelayMs.toFixed(1)} ms`,
  ].join(' ');
}
