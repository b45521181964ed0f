import type { Ticker } from '../../../../media-service/src/pipeline/pacer-scheduler';
import type { CarrierTimers } from '../../../../media-service/src/sandbox/carrier-types';

interface Pending {
  at: number;
  every?: number;
  callback: () => void;
  id: number;
}

/**
 * A manual clock for the pacer scheduler and carrier timers: `advance(ms)` fires every interval
 * tick and timeout due, in time order, with `now` set to each one's due time. Deterministic:
 * no real timers anywhere.
 */
export class FakeClock {
  #now = 0;
  #nextId = 1;
  #pending: Pending[] = [];

  /** Current fake time in ms. */
  now = (): number => this.#now;

  /** A `Ticker` driven by this clock. */
  readonly ticker: Ticker = {
    start: (everyMs, onTick) => {
      const id = this.#add(this.#now + everyMs, onTick, everyMs);
      return () => this.#remove(id);
    },
  };

  /** `CarrierTimers` driven by this clock. */
  readonly timers: CarrierTimers = {
    setTimeout: (callback, ms) => this.#add(this.#now + ms, callback),
    clearTimeout: (handle) => this.#remove(handle as number),
  };

  /** Moves time forward by `ms`, firing everything due on the way. */
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      const next = this.#pending.filter((p) => p.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!next) break;
      this.#now = next.at;
      if (next.every !== undefined) next.at += next.every;
      else this.#remove(next.id);
      next.callback();
    }
    this.#now = end;
  }

  #add(at: number, callback: () => void, every?: number): number {
    const id = this.#nextId++;
    this.#pending.push({ at, callback, id, ...(every !== undefined && { every }) });
    return id;
  }

  #remove(id: number): void {
    this.#pending = this.#pending.filter((p) => p.id !== id);
  }
}
