/**
 * A bound on jobs run at once, in all and per group (here: index builds per process and per
 * business). A job past either limit waits; when a slot frees, of the waiting jobs whose group is
 * under its limit, the one of the group started longest ago (never: first) goes next, then the
 * oldest, so a group with a long queue takes turns with the others instead of going first.
 */
export class BuildSlots {
  readonly #running = new Map<string, number>();
  /** When each group last started a job (a counter, not a clock). */
  readonly #lastStarted = new Map<string, number>();
  #starts = 0;
  #total = 0;
  readonly #waiting: Array<{ group: string; start: () => void }> = [];

  constructor(
    private readonly maxTotal: number,
    private readonly maxPerGroup: number,
  ) {}

  /** Jobs waiting for a slot (tests read it). */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Runs `job` once a slot of `group` is free; its result or error is the caller's. */
  async run<T>(group: string, job: () => Promise<T>): Promise<T> {
    // A waiting job's slot is taken for it when it is started (#release).
    if (this.#free(group)) this.#take(group);
    else await new Promise<void>((start) => this.#waiting.push({ group, start }));
    try {
      return await job();
    } finally {
      this.#release(group);
    }
  }

  #free(group: string): boolean {
    return this.#total < this.maxTotal && (this.#running.get(group) ?? 0) < this.maxPerGroup;
  }

  #take(group: string): void {
    this.#lastStarted.set(group, this.#starts++);
    this.#total++;
    this.#running.set(group, (this.#running.get(group) ?? 0) + 1);
  }

  #release(group: string): void {
    this.#total--;
    const left = this.#running.get(group)! - 1;
    if (left === 0) this.#running.delete(group);
    else this.#running.set(group, left);
    // Forgotten when idle, so it holds at most the groups seen since the process was last idle.
    if (this.#total === 0 && this.#waiting.length === 0) this.#lastStarted.clear();
    let next = -1;
    for (const [i, waiter] of this.#waiting.entries()) {
      if (!this.#free(waiter.group)) continue;
      const since = this.#lastStarted.get(waiter.group) ?? -1;
      if (next === -1 || since < (this.#lastStarted.get(this.#waiting[next]!.group) ?? -1)) next = i;
    }
    if (next === -1) return;
    const [waiter] = this.#waiting.splice(next, 1);
    // Taken here, synchronously, so no job arriving meanwhile can take the slot first.
    this.#take(waiter!.group);
    waiter!.start();
  }
}
