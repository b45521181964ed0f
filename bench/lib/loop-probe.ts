import { closeSync, openSync, readSync } from 'node:fs';
import type { PacerScheduler, Tickable } from '../../media-service/src/pipeline/pacer-scheduler';

/** A thread whose CPU time the probe follows: the media main thread, or a provider child's. */
export interface ProbedThread {
  name: string;
  /** Linux pid and tid of the thread (a process's main thread has tid = pid). */
  pid: number;
  tid: number;
}

/** What one thread did inside a window (ms): on a CPU, and ready but waiting for one. */
export interface ThreadTime {
  runMs: number;
  waitMs: number;
}

/**
 * Samples, on every tick of the media process's shared scheduler, how late the tick came (the event
 * loop's delay) and each probed thread's CPU time and run-queue wait (Linux
 * `/proc/<pid>/task/<tid>/schedstat`, read through a kept descriptor: ~10 µs a thread). A turn's
 * window [EndOfTurn, first frame sent] can then be split into the media thread's GC, its other work,
 * its waits for a core, and its idle time (awaiting the providers), and the voice child's CPU in it.
 * The probe's own CPU is counted ({@link costMs}) so the bench can take it out of the engine's.
 * Off Linux the probe records tick lateness only.
 */
export class LoopProbe implements Tickable {
  readonly threads: readonly ProbedThread[];
  /** Sample times (epoch ms), tick lateness (ms), and per thread the cumulative run and wait (ms). */
  readonly #at: number[] = [];
  readonly #late: number[] = [];
  readonly #run: number[][];
  readonly #wait: number[][];
  readonly #fds: (number | undefined)[];
  readonly #buffer = Buffer.alloc(128);
  readonly #tickMs: number;
  #previous: number | undefined;
  /** Main-thread ms spent inside the probe's own ticks. */
  costMs = 0;
  readonly #remove: () => void;

  constructor(scheduler: PacerScheduler, threads: readonly ProbedThread[], tickMs = 10) {
    this.threads = threads;
    this.#tickMs = tickMs;
    this.#fds = threads.map(({ pid, tid }) => {
      try {
        return openSync(`/proc/${pid}/task/${tid}/schedstat`, 'r');
      } catch {
        return undefined;
      }
    });
    this.#run = threads.map(() => []);
    this.#wait = threads.map(() => []);
    this.#remove = scheduler.add(this);
  }

  tick(nowMs: number): void {
    const started = performance.now();
    this.#at.push(performance.timeOrigin + nowMs);
    this.#late.push(this.#previous === undefined ? 0 : Math.max(0, nowMs - this.#previous - this.#tickMs));
    this.#previous = nowMs;
    this.#fds.forEach((fd, i) => {
      const [runNs, waitNs] = fd === undefined ? [NaN, NaN] : this.#read(fd);
      this.#run[i]!.push(runNs / 1e6);
      this.#wait[i]!.push(waitNs / 1e6);
    });
    this.costMs += performance.now() - started;
  }

  /** Leaves the scheduler and closes the descriptors. */
  stop(): void {
    this.#remove();
    for (const fd of this.#fds) if (fd !== undefined) closeSync(fd);
  }

  /** Each probed thread's run and wait inside the epoch window [fromMs, toMs], interpolated between ticks. */
  within(fromMs: number, toMs: number): ThreadTime[] {
    return this.threads.map((_, i) => ({
      runMs: Math.max(0, this.#valueAt(this.#run[i]!, toMs) - this.#valueAt(this.#run[i]!, fromMs)),
      waitMs: Math.max(0, this.#valueAt(this.#wait[i]!, toMs) - this.#valueAt(this.#wait[i]!, fromMs)),
    }));
  }

  /** The latest tick inside [fromMs, toMs] (and the first one after it, which closes the window): the event loop's longest delay there. */
  loopDelayWithin(fromMs: number, toMs: number): number {
    let worst = 0;
    for (let i = this.#indexAfter(fromMs); i < this.#at.length; i++) {
      worst = Math.max(worst, this.#late[i]!);
      if (this.#at[i]! > toMs) break;
    }
    return worst;
  }

  #read(fd: number): [number, number] {
    const length = readSync(fd, this.#buffer, 0, this.#buffer.length, 0);
    const [run, wait] = this.#buffer.toString('latin1', 0, length).split(' ');
    return [Number(run), Number(wait)];
  }

  /** Index of the first sample at or after `atMs`. */
  #indexAfter(atMs: number): number {
    let low = 0;
    let high = this.#at.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.#at[mid]! < atMs) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** A cumulative counter at `atMs`, linear between the samples around it (NaN → 0). */
  #valueAt(series: number[], atMs: number): number {
    const i = this.#indexAfter(atMs);
    if (i === 0 || i >= this.#at.length) return series[Math.min(i, series.length - 1)] || 0;
    const [t0, t1] = [this.#at[i - 1]!, this.#at[i]!];
    const share = t1 > t0 ? (atMs - t0) / (t1 - t0) : 1;
    return series[i - 1]! + (series[i]! - series[i - 1]!) * share || 0;
  }
}
