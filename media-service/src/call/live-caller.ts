import type { TurnTiming } from './call-metrics';

/**
 * The caller's side of a live call, from the provider's VAD and transcription events: whether
 * they are speaking, when each of their items started and stopped, and the timing of their last
 * turn, which the provider's own reply to it takes for the turn metrics.
 */
export class LiveCaller {
  readonly #items = new Map<string, { startAt: number; endAt?: number; heard?: boolean }>();
  #pendingTurn: TurnTiming | undefined;
  /** Speaking now (server VAD): the greeting and silence timers wait. */
  speaking = false;
  /** Words of theirs were transcribed at least once. */
  spoke = false;

  /** `speech_started` of item `itemId`. */
  started(itemId: string, now: number): void {
    this.#items.set(itemId, { startAt: now });
    this.speaking = true;
  }

  /** `speech_stopped`: the turn ends now (the provider answers at once). */
  stopped(itemId: string, now: number): void {
    this.speaking = false;
    const item = this.#items.get(itemId);
    if (item) item.endAt = now;
    this.#pendingTurn = { endOfSpeechAt: now, endOfTurnAt: now, eager: false };
  }

  /** A turn the caller finished has no words transcribed yet (a hang-up waits for them, bounded). */
  get awaitingWords(): boolean {
    for (const item of this.#items.values()) if (item.endAt !== undefined && !item.heard) return true;
    return false;
  }

  /** Transcribed words of `itemId`: when they were said, or undefined for no words or an unknown item. */
  words(itemId: string, text: string): { startAt: number; endAt?: number } | undefined {
    const item = this.#items.get(itemId);
    if (item) item.heard = true;
    if (text.trim() === '' || !item) return undefined;
    this.spoke = true;
    return item;
  }

  /** The timing of the last turn, once (for the reply the provider starts on its own). */
  takeTurn(): TurnTiming | undefined {
    const turn = this.#pendingTurn;
    this.#pendingTurn = undefined;
    return turn;
  }
}
