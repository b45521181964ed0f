import { LatenessHistogram, type PacerScheduler, type Tickable } from '../../media-service/src/pipeline/pacer-scheduler';

/**
 * The steady-state window of a run: from the moment every call has its session until the first
 * one ends, so ramp-up (call setup) and teardown are measured apart from N calls just talking.
 * Rides the media process's shared scheduler as one more member, measuring each tick's lateness
 * exactly as the scheduler does (gap to the previous tick minus the tick period).
 */
export class SteadyWindow implements Tickable {
  readonly lateness = new LatenessHistogram();
  readonly #tickMs: number;
  #previous: number | undefined;
  #open = false;
  #cpuAtOpen: NodeJS.CpuUsage | undefined;
  #openedAt = 0;
  /** Media-process CPU time (ms) and wall time (ms) inside the window, once closed. */
  cpuMs = 0;
  wallMs = 0;
  /** Wall-clock bounds of the window (epoch ms), to place call events (turns) inside or outside it. */
  openedAtEpochMs: number | undefined;
  closedAtEpochMs: number | undefined;
  /** Leaves the scheduler. */
  readonly remove: () => void;

  constructor(scheduler: PacerScheduler, tickMs = 10) {
    this.#tickMs = tickMs;
    this.remove = scheduler.add(this);
  }

  tick(nowMs: number): void {
    if (this.#open && this.#previous !== undefined) this.lateness.record(nowMs - this.#previous - this.#tickMs);
    this.#previous = nowMs;
  }

  /** Opens the window (once). */
  open(): void {
    if (this.#open || this.#cpuAtOpen) return;
    this.#open = true;
    this.#cpuAtOpen = process.cpuUsage();
    this.#openedAt = performance.now();
    this.openedAtEpochMs = Date.now();
  }

  /** Closes the window (once), recording the CPU and wall time it covered. */
  close(): void {
    if (!this.#open) return;
    this.#open = false;
    const cpu = process.cpuUsage(this.#cpuAtOpen);
    this.cpuMs = (cpu.user + cpu.system) / 1000;
    this.wallMs = performance.now() - this.#openedAt;
    this.closedAtEpochMs = Date.now();
  }

  /** True when epoch time `atMs` fell inside the window. */
  contains(atMs: number): boolean {
    return this.phaseOf(atMs) === 'steady';
  }

  /** The run's phase at epoch time `atMs`: calls still being set up, all talking, or some already ended. */
  phaseOf(atMs: number): 'ramp' | 'steady' | 'teardown' {
    if (this.openedAtEpochMs === undefined || atMs < this.openedAtEpochMs) return 'ramp';
    return this.closedAtEpochMs !== undefined && atMs > this.closedAtEpochMs ? 'teardown' : 'steady';
  }
}
