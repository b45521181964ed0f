import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

/** One garbage-collection pause of this process's main thread: start (epoch ms), length (ms), and whether it was a major GC. */
export interface GcPause {
  atMs: number;
  ms: number;
  major: boolean;
  /** A scavenge of the young generation. */
  minor: boolean;
}

/**
 * Records this process's GC pauses while it runs (Node's `gc` performance entries: scavenges,
 * incremental marking steps and mark-compact pauses, each with its main-thread duration), so the
 * bench can tell which slow turns had the process stopped by its own collector.
 */
export class GcPauses {
  readonly pauses: GcPause[] = [];
  readonly #observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) this.pauses.push(toPause(entry));
  });

  constructor() {
    this.#observer.observe({ entryTypes: ['gc'] });
  }

  stop(): void {
    this.#observer.disconnect();
  }

  /** Total GC pause (ms) inside the epoch window [fromMs, toMs]. */
  pausedWithin(fromMs: number, toMs: number): number {
    let total = 0;
    for (const pause of this.pauses) {
      const overlap = Math.min(toMs, pause.atMs + pause.ms) - Math.max(fromMs, pause.atMs);
      if (overlap > 0) total += overlap;
    }
    return total;
  }

  /** The run's GC: how many major and minor collections, every pause summed (ms), and the longest pause (ms). */
  summary(): { major: number; minor: number; pausedMs: number; longestMs: number } {
    return {
      major: this.pauses.filter((pause) => pause.major).length,
      minor: this.pauses.filter((pause) => pause.minor).length,
      pausedMs: this.pauses.reduce((sum, pause) => sum + pause.ms, 0),
      longestMs: this.pauses.reduce((longest, pause) => Math.max(longest, pause.ms), 0),
    };
  }
}

function toPause(entry: PerformanceEntry): GcPause {
  const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
  return {
    atMs: performance.timeOrigin + entry.startTime,
    ms: entry.duration,
    major: kind === constants.NODE_PERFORMANCE_GC_MAJOR,
    minor: kind === constants.NODE_PERFORMANCE_GC_MINOR,
  };
}
