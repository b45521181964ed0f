import type { SttEvent } from '../ports/speech-to-text';

/**
 * OpenAI realtime transcription's events mapped onto the engine's turn events (pure, so the
 * mapping is table-tested): server VAD `speech_started` is the start of a turn, transcription
 * `delta`s grow its interim text, and `completed` ends it with the final transcript, timed by the
 * item's `speech_stopped`. OpenAI offers no eager end of turn, so none is ever emitted.
 *
 * Ordering: OpenAI may still be transcribing item A when the caller's next item B starts (its
 * deltas interleave with B's VAD events). The engine expects turns one after another, so B's
 * events are held until A completes, then released in order.
 */

/** The server events this mapping reads (already schema-checked by the adapter). */
export type TranscriptionServerEvent =
  | { type: 'input_audio_buffer.speech_started'; item_id: string; audio_start_ms: number }
  | { type: 'input_audio_buffer.speech_stopped'; item_id: string; audio_end_ms: number }
  | { type: 'conversation.item.input_audio_transcription.delta'; item_id: string; delta?: string }
  | { type: 'conversation.item.input_audio_transcription.completed'; item_id: string; transcript: string }
  | { type: 'conversation.item.input_audio_transcription.failed'; item_id: string };

interface Item {
  id: string;
  turnIndex: number;
  text: string;
  endOfSpeechMs?: number;
  /** Events raised while an earlier item was still open. */
  held: SttEvent[];
  done: boolean;
}

/** Turns for one stream; feed it every server event in receipt order. */
export class TranscriptionTurns {
  readonly #items: Item[] = [];
  #nextTurn = 0;

  /** True while a turn has started and not yet ended (the caller may be mid-sentence). */
  get speaking(): boolean {
    return this.#items.some((item) => item.endOfSpeechMs === undefined && !item.done);
  }

  /** True while some turn still waits for its transcript. */
  get pending(): boolean {
    return this.#items.length > 0;
  }

  /**
   * The socket was replaced and the caller's audio since the last turn that ended is heard again:
   * the turns not ended (and those held behind them) are forgotten, and the replay starts them
   * again with the same indices.
   */
  resume(): void {
    const first = this.#items[0];
    if (first) this.#nextTurn = first.turnIndex;
    this.#items.length = 0;
  }

  /** The engine events `event` causes, in order. */
  push(event: TranscriptionServerEvent): SttEvent[] {
    if (event.type === 'input_audio_buffer.speech_started') {
      const item: Item = { id: event.item_id, turnIndex: this.#nextTurn++, text: '', held: [], done: false };
      this.#items.push(item);
      return this.#raise(item, { type: 'start_of_turn', turnIndex: item.turnIndex });
    }
    const item = this.#items.find((candidate) => candidate.id === event.item_id);
    if (!item) return [];
    switch (event.type) {
      case 'input_audio_buffer.speech_stopped':
        item.endOfSpeechMs = event.audio_end_ms;
        return [];
      case 'conversation.item.input_audio_transcription.delta':
        if (!event.delta) return [];
        item.text += event.delta;
        return this.#raise(item, { type: 'update', turnIndex: item.turnIndex, transcript: item.text.trim() });
      case 'conversation.item.input_audio_transcription.completed':
        return this.#end(item, event.transcript);
      case 'conversation.item.input_audio_transcription.failed':
        return this.#end(item, item.text);
    }
  }

  #end(item: Item, transcript: string): SttEvent[] {
    const end: SttEvent = {
      type: 'end_of_turn',
      turnIndex: item.turnIndex,
      transcript: transcript.trim(),
      ...(item.endOfSpeechMs !== undefined && { endOfSpeechMs: item.endOfSpeechMs }),
    };
    const out = this.#raise(item, end);
    item.done = true;
    // Release the turns that waited behind this one, up to the next one still open.
    while (this.#items[0]?.done) {
      this.#items.shift();
      const next = this.#items[0];
      if (next) out.push(...next.held.splice(0));
    }
    return out;
  }

  /** Emits now when `item` is the oldest open turn; holds otherwise. */
  #raise(item: Item, event: SttEvent): SttEvent[] {
    if (this.#items[0] === item) return [event];
    item.held.push(event);
    return [];
  }
}
