import { createLogger, type Logger } from '../../../shared/log';

/** Anything the shared scheduler can drive. */
export interface Tickable {
  tick(nowMs: number): void;
}

/** A periodic timer source: real `setInterval` in production, driven by hand in tests. */
export interface Ticker {
  start(everyMs: number, onTick: () => void): () => void;
}

/** `setInterval`, unref'd so an idle scheduler never keeps the process alive. */
export const intervalTicker: Ticker = {
  start(everyMs, onTick) {
    const id = setInterval(onTick, everyMs);
    id.unref();
    return () => clearInterval(id);
  },
};

/** Options for {@link PacerScheduler}. */
export interface PacerSchedulerOptions {
  /** Monotonic ms clock; default `performance.now`. */
  now?: () => number;
  ticker?: Ticker;
  /** Default 10 ms: half a frame, so a frame is never more than 10 ms late at the sink. */
  tickMs?: number;
  log?: Logger;
}

/** How regularly the shared tick actually fired (event-loop health). */
export interface SchedulerStats {
  ticks: number;
  /** Mean and max delay past the nominal tick time. */
  meanLateMs: number;
  maxLateMs: number;
}

/**
 * Tick lateness in fixed 0.5 ms buckets up to 250 ms (one overflow bucket past it), so a
 * percentile costs no allocation per tick and no sorting however long the process runs.
 */
export class LatenessHistogram {
  static readonly BUCKET_MS = 0.5;
  static readonly BUCKETS = 500;
  readonly #counts = new Uint32Array(LatenessHistogram.BUCKETS + 1);
  #count = 0;
  #max = 0;

  /** Samples recorded. */
  get count(): number {
    return this.#count;
  }

  /** Records one lateness (ms; negative counts as 0). */
  record(lateMs: number): void {
    const late = Math.max(0, lateMs);
    this.#counts[Math.min(LatenessHistogram.BUCKETS, Math.floor(late / LatenessHistogram.BUCKET_MS))]!++;
    this.#count++;
    this.#max = Math.max(this.#max, late);
  }

  /**
   * Nearest-rank percentile (0 < p ≤ 100) as the upper edge of its bucket, never above the largest
   * sample (so the overflow bucket reports the max); 0 when nothing was recorded.
   */
  percentile(p: number): number {
    if (this.#count === 0) return 0;
    const rank = Math.min(this.#count, Math.max(1, Math.ceil((p / 100) * this.#count)));
    let seen = 0;
    for (let bucket = 0; bucket < LatenessHistogram.BUCKETS; bucket++) {
      seen += this.#counts[bucket]!;
      if (seen >= rank) return Math.min((bucket + 1) * LatenessHistogram.BUCKET_MS, this.#max);
    }
    return this.#max;
  }
}

/**
 * One timer for every pacer in the process (and, in the sandbox, every simulated call): 100
 * concurrent calls cost one interval instead of 100 timers drifting against each other. The
 * interval runs only while something is registered. A throwing tickable is logged, never fatal.
 */
export class PacerScheduler {
  readonly #members = new Set<Tickable>();
  readonly #now: () => number;
  readonly #ticker: Ticker;
  readonly #tickMs: number;
  readonly #log: NonNullable<PacerSchedulerOptions['log']>;
  #stop: (() => void) | undefined;
  #expected = 0;
  #ticks = 0;
  #lateSum = 0;
  #lateMax = 0;
  readonly #lateness = new LatenessHistogram();

  constructor(options: PacerSchedulerOptions = {}) {
    this.#now = options.now ?? (() => performance.now());
    this.#ticker = options.ticker ?? intervalTicker;
    this.#tickMs = options.tickMs ?? 10;
    this.#log = options.log ?? createLogger({ service: 'media' });
  }

  /** The scheduler's clock (ms). */
  now(): number {
    return this.#now();
  }

  /** Registers a pacer (or any tickable); returns the function that removes it. */
  add(member: Tickable): () => void {
    this.#members.add(member);
    if (!this.#stop) {
      this.#expected = this.#now() + this.#tickMs;
      this.#stop = this.#ticker.start(this.#tickMs, () => this.#tickAll());
    }
    return () => {
      this.#members.delete(member);
      if (this.#members.size === 0 && this.#stop) {
        this.#stop();
        this.#stop = undefined;
      }
    };
  }

  /** Registered members. */
  get size(): number {
    return this.#members.size;
  }

  /** Tick regularity since construction. */
  stats(): SchedulerStats {
    return { ticks: this.#ticks, meanLateMs: this.#ticks ? this.#lateSum / this.#ticks : 0, maxLateMs: this.#lateMax };
  }

  /** Tick lateness percentile since construction (e.g. 99 for pacing jitter p99), from {@link LatenessHistogram}. */
  latePercentileMs(p: number): number {
    return this.#lateness.percentile(p);
  }

  #tickAll(): void {
    const now = this.#now();
    const late = Math.max(0, now - this.#expected);
    this.#expected = now + this.#tickMs;
    this.#ticks++;
    this.#lateSum += late;
    this.#lateMax = Math.max(this.#lateMax, late);
    this.#lateness.record(late);
    for (const member of this.#members) {
      try {
        member.tick(now);
      } catch (error) {
        this.#log.error('pacer.tick.failed', { error: String(error) });
      }
    }
  }
}
