import type { Utterance } from './speaker';
import { playedInFull } from './transcript-log';

/** Whether each notice a call owed was heard in full (null: that notice was not due on this call). */
export interface NoticeOutcome {
  recording_notice_heard: boolean | null;
  ai_disclosure_heard: boolean | null;
}

/**
 * The AI-disclosure / recording notice of one call, in either conversation kind: said before the
 * assistant's first question, never cut by the caller (speech or keys) while it plays, and said
 * again before the assistant's next words whenever it was not heard to the end (cut by a provider
 * failure, or superseded before any of it was heard). Heard in full means its last audio was
 * played to the caller (its end mark echoed).
 */
export class Notice {
  readonly text: string;
  readonly #due: { recording: boolean; disclosure: boolean };
  readonly #said: Utterance[] = [];
  #pending = false;

  /** `text` '' means no notice is due on this call. */
  constructor(text: string, due: { recording: boolean; disclosure: boolean }) {
    this.text = text;
    this.#due = text === '' ? { recording: false, disclosure: false } : due;
  }

  /** The notice must go before the assistant's next words: it has not been heard in full, and none is on its way. */
  get due(): boolean {
    return this.text !== '' && !this.#pending && !this.heard && !this.playing;
  }

  /** A notice is asked for, before its utterance exists (live mode: the provider has not answered yet). */
  requested(): void {
    this.#pending = true;
  }

  /** The utterance that says the notice (with any greeting words before it). */
  saying(utterance: Utterance): void {
    this.#pending = false;
    this.#said.push(utterance);
  }

  /** A requested notice never started (its response was refused or dropped): it is due again. */
  dropped(): void {
    this.#pending = false;
  }

  /** A notice is queued or playing: the caller cannot cut the assistant off now. */
  get playing(): boolean {
    return this.#pending || this.#said.some((utterance) => !utterance.finished);
  }

  /** Some saying of the notice reached the caller to its last word. */
  get heard(): boolean {
    return this.#said.some(playedInFull);
  }

  /** What the call record keeps. */
  outcome(): NoticeOutcome {
    const heard = this.heard;
    return {
      recording_notice_heard: this.#due.recording ? heard : null,
      ai_disclosure_heard: this.#due.disclosure ? heard : null,
    };
  }
}
