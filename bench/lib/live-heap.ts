import { constants, PerformanceObserver } from 'node:perf_hooks';

const MiB = 1024 * 1024;

/**
 * The memory a live call holds, without forcing a GC: right after each of the media process's major
 * GCs (the heap then holds little but live objects) it notes the heap in use plus the buffers
 * outside it, and the calls live then; the slope of a straight line through those points is MiB
 * per live call. Unlike peak RSS over idle RSS, it does not depend on whether V8 had already grown
 * its heap in an earlier run. Needs major GCs at different numbers of live calls (a run has 10–20).
 */
export class LiveHeap {
  readonly #points: { calls: number; mib: number }[] = [];
  readonly #observer: PerformanceObserver;

  constructor(liveCalls: () => number) {
    this.#observer = new PerformanceObserver((list) => {
      const major = list
        .getEntries()
        .some((entry) => (entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR);
      if (!major) return;
      const { heapUsed, external } = process.memoryUsage();
      this.#points.push({ calls: liveCalls(), mib: (heapUsed + external) / MiB });
    });
    this.#observer.observe({ entryTypes: ['gc'] });
  }

  stop(): void {
    this.#observer.disconnect();
  }

  /** MiB per live call (least squares), with the points it stands on; undefined with fewer than 3 points or one call count. */
  perCall(): { mibPerCall: number; points: number; calls: [number, number] } | undefined {
    const points = this.#points;
    if (points.length < 3) return undefined;
    const n = points.length;
    const meanX = points.reduce((sum, p) => sum + p.calls, 0) / n;
    const meanY = points.reduce((sum, p) => sum + p.mib, 0) / n;
    const sxx = points.reduce((sum, p) => sum + (p.calls - meanX) ** 2, 0);
    if (sxx === 0) return undefined;
    const sxy = points.reduce((sum, p) => sum + (p.calls - meanX) * (p.mib - meanY), 0);
    const calls = points.map((p) => p.calls);
    return { mibPerCall: sxy / sxx, points: n, calls: [Math.min(...calls), Math.max(...calls)] };
  }
}
