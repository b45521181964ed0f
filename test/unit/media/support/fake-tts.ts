import type { ProviderError } from '../../../../shared/errors';
import type { TtsEvent, TtsListener, TtsStream } from '../../../../media-service/src/ports/text-to-speech';

/** A command the code under test sent to the stream. */
export type TtsCommand = { kind: 'speak'; text: string } | { kind: 'flush' } | { kind: 'clear' } | { kind: 'close' };

/**
 * A hand-driven text-to-speech stream: it records every command, and the test decides what the
 * "provider" answers and when (`audio`, `flushed`, `error`), so Speaker tests need no timers.
 *
 * @example
 * const tts = new FakeTextToSpeech();
 * speaker.say('reply', 'Hi.');
 * tts.audio(320); tts.flushed();
 */
export class FakeTextToSpeech implements TtsStream {
  /** Everything sent to the stream, in order. */
  readonly commands: TtsCommand[] = [];
  readonly #listeners = new Set<TtsListener>();

  speak(text: string): void {
    this.commands.push({ kind: 'speak', text });
  }

  flush(): void {
    this.commands.push({ kind: 'flush' });
  }

  clear(): void {
    this.commands.push({ kind: 'clear' });
  }

  close(): void {
    this.commands.push({ kind: 'close' });
  }

  on(listener: TtsListener): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** How many listeners are subscribed (0 once the consumer unsubscribed). */
  get listenerCount(): number {
    return this.#listeners.size;
  }

  /** The commands as short strings: `speak:Hi. `, `flush`, `clear`. */
  get log(): string[] {
    return this.commands.map((command) => (command.kind === 'speak' ? `speak:${command.text}` : command.kind));
  }

  /** Delivers one event to every listener, synchronously (as the port promises). */
  emit(event: TtsEvent): void {
    for (const listener of [...this.#listeners]) listener(event);
  }

  /** Delivers `bytes` of μ-law audio: the given bytes, or `bytes` counting bytes 0, 1, 2, … (mod 200, never silence). */
  audio(bytes: number | Uint8Array, firstByteMs?: number): void {
    const mulaw = typeof bytes === 'number' ? Uint8Array.from({ length: bytes }, (_, i) => i % 200) : bytes;
    this.emit(firstByteMs === undefined ? { type: 'audio', mulaw } : { type: 'audio', mulaw, firstByteMs });
  }

  /** Everything spoken before the last flush has been delivered. */
  flushed(): void {
    this.emit({ type: 'flushed' });
  }

  /** The stream failed. */
  error(error: ProviderError): void {
    this.emit({ type: 'error', error });
  }
}
