import type { LanguageModel, LlmRequest, LlmStream } from '../ports/language-model';
import type { CallCounters } from './call-metrics';

/** A Flux turn longer than this is not answered eagerly: a long guess is rarely kept (docs/protocols.md "Lessons from open-source voice pipelines"). */
const EAGER_MAX_WORDS = 60;

/** A reply started on a guess of the caller's words, reused when the turn ends as guessed. */
export interface Guess {
  transcript: string;
  controller: AbortController;
  stream: LlmStream;
  startedAt: number;
}

/**
 * Eager end of turn (docs/design.md "The call engine"): on Flux `EagerEndOfTurn` the model starts on the words so
 * far; `EndOfTurn` with the same words keeps that reply (saving the model's first-token time),
 * anything else discards it. At most one guess runs at a time.
 */
export class EagerGuess {
  readonly #llm: LanguageModel;
  readonly #counters: CallCounters;
  readonly #now: () => number;
  readonly #request: (signal: AbortSignal, guess: string) => LlmRequest;
  #current: Guess | undefined;

  /** `request` builds the model request with the guessed caller words last. */
  constructor(llm: LanguageModel, counters: CallCounters, now: () => number, request: (signal: AbortSignal, guess: string) => LlmRequest) {
    this.#llm = llm;
    this.#counters = counters;
    this.#now = now;
    this.#request = request;
  }

  /** Starts the model on `transcript` (an earlier guess is dropped); long or empty guesses are skipped. */
  guess(transcript: string): void {
    if (transcript.trim() === '' || transcript.split(/\s+/).length > EAGER_MAX_WORDS) return;
    this.drop();
    const text = transcript.trim();
    const controller = new AbortController();
    const stream = this.#llm.stream(this.#request(controller.signal, text));
    this.#current = { transcript: text, controller, stream, startedAt: this.#now() };
    this.#counters.eagerStarted++;
  }

  /** The turn ended with `text`: the guess's reply when it guessed right; otherwise it is discarded. */
  take(text: string): Guess | undefined {
    const guess = this.#current;
    this.#current = undefined;
    if (guess && guess.transcript === text) return guess;
    if (guess) {
      guess.controller.abort();
      this.#counters.eagerDiscarded++;
    }
    return undefined;
  }

  /** Stops the running guess, if any (the caller went on talking, a barge-in, the call ending). */
  drop(): void {
    if (!this.#current) return;
    this.#current.controller.abort();
    this.#current = undefined;
    this.#counters.eagerDiscarded++;
  }
}
