import type { SttStream } from '../ports/speech-to-text';
import type { SessionTimers } from './session-types';

/**
 * How long a hung-up call waits for the recogniser's last results. Flux answers CloseStream with its
 * final turn in well under a second; the bound keeps a silent provider from holding the ending.
 */
export const LAST_WORDS_WAIT_MS = 1500;

/** Words of the caller's with when they were said (clock ms). */
export interface CallerWords {
  text: string;
  startAt: number;
  endAt: number;
}

/**
 * The caller's side of a standard call, from Flux's turn events: whether a turn is open, when it
 * started, its latest words, and after a hang-up the bounded wait for the recogniser's final
 * words, so "Thanks, bye" said just before hanging up still reaches the transcript.
 */
export class CallerTurn {
  readonly #stt: SttStream;
  readonly #timers: SessionTimers;
  #startAt: number | undefined;
  /** The recogniser's latest words of the turn still open. */
  #openText = '';
  readonly #closedWaiters: (() => void)[] = [];
  /** The caller hung up: what they said last is written down, never answered. */
  gone = false;

  constructor(stt: SttStream, timers: SessionTimers) {
    this.#stt = stt;
    this.#timers = timers;
  }

  /** A turn is open (Flux `StartOfTurn` seen, no `EndOfTurn` yet). */
  get speaking(): boolean {
    return this.#startAt !== undefined;
  }

  /** `StartOfTurn` at clock `now`. */
  started(now: number): void {
    this.#startAt = now;
  }

  /** Words so far of the open turn (an update or an eager end of turn). */
  heard(transcript: string): void {
    if (transcript.trim() !== '') this.#openText = transcript.trim();
  }

  /** `EndOfTurn` at clock `now`: when the turn started (now when no start was seen). */
  ended(now: number): number {
    const startAt = this.#startAt ?? now;
    this.#startAt = undefined;
    this.#openText = '';
    return startAt;
  }

  /** The recogniser closed (a hang-up waits for this). */
  sttClosed(): void {
    for (const resolve of this.#closedWaiters.splice(0)) resolve();
  }

  /**
   * The caller hung up: closes the recogniser so it flushes what it heard, waits (bounded) for it to
   * close, and returns the words of a turn it left unfinished, if any.
   */
  async hangUp(now: () => number): Promise<CallerWords | undefined> {
    this.gone = true;
    let timer: unknown;
    await new Promise<void>((resolve) => {
      this.#closedWaiters.push(resolve);
      timer = this.#timers.setTimeout(resolve, LAST_WORDS_WAIT_MS);
      this.#stt.close();
    });
    this.#timers.clearTimeout(timer);
    if (this.#openText === '') return undefined;
    const endAt = now();
    const words = { text: this.#openText, startAt: this.#startAt ?? endAt, endAt };
    this.#openText = '';
    this.#startAt = undefined;
    return words;
  }
}
