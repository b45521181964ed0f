import type { Pacer } from '../pipeline/pacer';
import type { TtsEvent, TtsStream } from '../ports/text-to-speech';
import { FrameMarker, isFirstFrameMark, parseMark } from './frame-marker';

/** Why the assistant is saying something (transcript and metrics tell them apart). */
export type UtteranceKind = 'greeting' | 'reply' | 'filler' | 'notice' | 'idle' | 'goodbye' | 'voicemail';

/** One thing the assistant says: its text, its audio's progress, and what the caller heard of it. */
export interface Utterance {
  readonly id: number;
  readonly kind: UtteranceKind;
  /** The text as written (before speech normalisation), for the transcript and history. */
  text: string;
  bytesReceived: number;
  /** Audio the caller has heard, from echoed marks (≤ 200 ms behind the truth). */
  bytesPlayed: number;
  /** All audio has arrived from the TTS. */
  flushed: boolean;
  /** Played to the end, or cut off. */
  finished: boolean;
  interrupted: boolean;
  /** Clock ms: first text sent to the TTS, first audio in, first audio queued, first audio heard. */
  requestedAt?: number;
  firstByteMs?: number;
  firstQueuedAt?: number;
  /** The first frame left for the carrier. */
  firstSentAt?: number;
  firstPlayedAt?: number;
  playedAt?: number;
  /** Resolves once finished (played or interrupted). */
  readonly done: Promise<void>;
}

/** Options of {@link Speaker}. */
export interface SpeakerOptions {
  tts: TtsStream;
  pacer: Pacer;
  /** Monotonic clock (ms). */
  now: () => number;
  /** Speech normalisation and pronunciations, applied to each piece before the TTS sees it. */
  toSpeech: (text: string) => string;
  /** Called when a provider event must end the call (TTS error or closed). */
  onFailure: (error: Error) => void;
  /**
   * Sends due audio now instead of at the next scheduler tick: called once per utterance, when its
   * first frame is queued, so a reply's first audio never waits up to a tick (10 ms) for the timer.
   */
  kick?: () => void;
}

/**
 * The assistant's mouth: text pieces go to one TTS stream per call, audio comes back in order and
 * is framed (whole 20 ms frames) into the pacer with a mark every 200 ms, so echoed marks say how
 * much of each utterance the caller actually heard (docs/protocols.md "Twilio"). Utterances
 * play in order; each ends with one TTS flush, which attributes audio to utterances without ids.
 */
export class Speaker {
  readonly #options: SpeakerOptions;
  readonly #queue: Utterance[] = [];
  /** Utterances in the order their text reached the TTS: audio and flushes arrive in this order. */
  #ttsOrder: Utterance[] = [];
  readonly #resolvers = new Map<number, () => void>();
  #nextId = 1;
  /** Characters sent to the TTS (billing metric). */
  charactersSent = 0;
  /** One for the TTS stream: audio arrives in utterance order, and a flush pads the tail. */
  readonly #framer: FrameMarker;
  readonly #offs: (() => void)[];

  constructor(options: SpeakerOptions) {
    this.#options = options;
    this.#framer = new FrameMarker(options.pacer, options.now, () => options.kick?.());
    this.#offs = [options.tts.on((event) => this.#onTts(event)), options.pacer.onMarkSent((name) => this.onMarkSent(name))];
  }

  /** True while anything is queued, being synthesised or playing. */
  get speaking(): boolean {
    return this.#queue.some((utterance) => !utterance.finished);
  }

  /** True while audio is actually queued or playing (not just text waiting for its first byte). */
  get audible(): boolean {
    return this.#queue.some((utterance) => !utterance.finished && utterance.bytesReceived > 0);
  }

  /** Starts an utterance; push text into it, then `end` it. */
  begin(kind: UtteranceKind): Utterance {
    let resolve!: () => void;
    const done = new Promise<void>((r) => (resolve = r));
    const utterance: Utterance = {
      id: this.#nextId++,
      kind,
      text: '',
      bytesReceived: 0,
      bytesPlayed: 0,
      flushed: false,
      finished: false,
      interrupted: false,
      done,
    };
    this.#resolvers.set(utterance.id, resolve);
    this.#queue.push(utterance);
    return utterance;
  }

  /** Sends one piece of text (a sentence or clause) of `utterance` to the TTS. */
  push(utterance: Utterance, text: string): void {
    if (utterance.finished) return;
    const spoken = this.#options.toSpeech(text).trim();
    utterance.text = utterance.text === '' ? text.trim() : `${utterance.text} ${text.trim()}`;
    if (spoken === '') return;
    this.charactersSent += spoken.length;
    if (utterance.requestedAt === undefined) {
      utterance.requestedAt = this.#options.now();
      this.#ttsOrder.push(utterance);
    }
    this.#options.tts.speak(`${spoken} `);
  }

  /** No more text for `utterance`: flush the TTS (or finish at once when nothing was said). */
  end(utterance: Utterance): void {
    if (utterance.finished) return;
    if (utterance.requestedAt === undefined) return this.#finish(utterance);
    this.#options.tts.flush();
  }

  /** Speaks `text` as one utterance. */
  say(kind: UtteranceKind, text: string): Utterance {
    const utterance = this.begin(kind);
    this.push(utterance, text);
    this.end(utterance);
    return utterance;
  }

  /**
   * Barge-in: drops everything not yet heard (TTS `Clear`, pacer and carrier `clear`) and marks the
   * cut utterances interrupted. Returns the utterances that were cut.
   */
  interrupt(): Utterance[] {
    const cut = this.#queue.filter((utterance) => !utterance.finished);
    if (cut.length === 0) return [];
    this.#options.tts.clear();
    this.#options.pacer.clear();
    this.#framer.clear();
    this.#ttsOrder = [];
    for (const utterance of cut) {
      utterance.interrupted = utterance.bytesPlayed < utterance.bytesReceived || !utterance.flushed;
      this.#finish(utterance);
    }
    return cut;
  }

  /** A mark came back from the carrier. */
  onMark(name: string, afterClear: boolean): void {
    if (afterClear) return;
    const { utteranceId, position } = parseMark(name);
    const utterance = this.#queue.find((u) => u.id === utteranceId);
    if (!utterance || utterance.finished) return;
    const now = this.#options.now();
    if (position === 'end') {
      utterance.bytesPlayed = utterance.bytesReceived;
      utterance.firstPlayedAt ??= now;
      utterance.playedAt = now;
      return this.#finish(utterance);
    }
    utterance.firstPlayedAt ??= now;
    utterance.bytesPlayed = Math.max(utterance.bytesPlayed, Number(position));
  }

  /**
   * The pacer sent a mark (the speaker subscribes at construction): the one after an utterance's
   * first frame times its first audio out.
   */
  onMarkSent(name: string): void {
    const { utteranceId, position } = parseMark(name);
    if (!isFirstFrameMark(position)) return;
    const utterance = this.#queue.find((u) => u.id === utteranceId);
    if (utterance) utterance.firstSentAt ??= this.#options.now();
  }

  /** Stops listening to the TTS and the pacer (the call is over). */
  close(): void {
    for (const off of this.#offs) off();
    for (const utterance of this.#queue) if (!utterance.finished) this.#finish(utterance);
  }

  #receiving(): Utterance | undefined {
    while (this.#ttsOrder[0] && (this.#ttsOrder[0].flushed || this.#ttsOrder[0].finished)) this.#ttsOrder.shift();
    return this.#ttsOrder[0];
  }

  #onTts(event: TtsEvent): void {
    if (event.type === 'audio') return this.#onAudio(event.mulaw, event.firstByteMs);
    if (event.type === 'flushed') return this.#onFlushed();
    if (event.type === 'error') return this.#options.onFailure(event.error);
    if (event.type === 'closed') this.#options.onFailure(new Error('the text-to-speech stream closed'));
  }

  #onAudio(mulaw: Uint8Array, firstByteMs: number | undefined): void {
    const utterance = this.#receiving();
    if (!utterance) return;
    if (utterance.firstByteMs === undefined) utterance.firstByteMs = firstByteMs ?? this.#options.now() - (utterance.requestedAt ?? 0);
    this.#framer.audio(utterance, mulaw);
  }

  #onFlushed(): void {
    const utterance = this.#receiving();
    if (!utterance) return;
    if (!this.#framer.flush(utterance)) this.#finish(utterance);
  }

  #finish(utterance: Utterance): void {
    if (utterance.finished) return;
    utterance.finished = true;
    this.#resolvers.get(utterance.id)?.();
    this.#resolvers.delete(utterance.id);
    while (this.#queue[0]?.finished) this.#queue.shift();
  }
}
