/** 10 s of 20 ms frames: far more than loading a call and opening Flux ever takes. */
const EARLY_AUDIO_FRAMES = 500;

/**
 * The caller's audio on its way to whatever hears it (Flux, or the speech-to-speech session).
 * People answer with "Hello?" before the call is loaded and the provider connected: those frames
 * (≤ 10 s) are kept and replayed, in order, to the listener once it attaches.
 */
export class CallerAudio {
  readonly #early: Uint8Array[] = [];
  #listener: ((frame: Uint8Array) => void) | undefined;

  /** One frame from the carrier (per 20 ms: no allocation here). */
  push(frame: Uint8Array): void {
    if (this.#listener) this.#listener(frame);
    else if (this.#early.length < EARLY_AUDIO_FRAMES) this.#early.push(frame);
  }

  /** From now on every frame goes to `listener`; the early ones first. */
  attach(listener: (frame: Uint8Array) => void): void {
    for (const frame of this.#early.splice(0)) listener(frame);
    this.#listener = listener;
  }
}
