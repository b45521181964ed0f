import { FRAME_BYTES, MULAW_BYTES_PER_MS, mulawRms } from './mulaw-signal';

/**
 * The Flux stand-in's ear: an energy voice detector plus the Flux turn state machine
 * (Initial → StartOfTurn → Update… → [EagerEndOfTurn → TurnResumed…] → EndOfTurn), driven only
 * by the audio it is fed. Time is audio time (160 μ-law bytes = 20 ms), never the wall clock, so
 * the same bytes always give the same events, however fast a test sends them.
 */

/** The thresholds a client sets in the query string or with `Configure`. */
export interface FluxThresholds {
  eotThreshold: number;
  eagerEotThreshold?: number;
  eotTimeoutMs: number;
}

/** Knobs of the sandbox detector (not part of the Flux protocol). */
export interface FluxTuning {
  /** Frame RMS (16-bit linear) above which a frame is voiced: 500 ≈ −36 dBFS, far above μ-law silence (0). */
  speechRmsThreshold: number;
  /** Voiced audio needed before speech starts, so a click does not open a turn. */
  minSpeechMs: number;
  /** Quiet audio tolerated inside speech (gaps between words). */
  hangoverMs: number;
  /** Flux sends `Update` about every 0.25 s of transcribed audio (state doc rule 1). */
  updateIntervalMs: number;
  /** How fast the growing transcript prefix reveals words while speech continues. */
  msPerWord: number;
  /** A pause at least this long starts a new speech segment, which pops the next board text. */
  segmentGapMs: number;
}

/** Defaults chosen so a 0.7 threshold ends a turn ~400 ms after the last voiced frame. */
export const DEFAULT_FLUX_TUNING: FluxTuning = {
  speechRmsThreshold: 500,
  minSpeechMs: 40,
  hangoverMs: 100,
  updateIntervalMs: 250,
  msPerWord: 300,
  segmentGapMs: 200,
};

/** Silence that ends a turn: 0.5 → 250 ms, 0.7 → 400 ms, 0.9 → 550 ms; ≥ 1.0 disables the model, leaving `eot_timeout_ms`. */
export function eotSilenceMs(thresholds: FluxThresholds): number {
  if (thresholds.eotThreshold >= 1) return thresholds.eotTimeoutMs;
  const ms = Math.round(250 + (thresholds.eotThreshold - 0.5) * 750);
  return Math.min(Math.max(ms, 200), thresholds.eotTimeoutMs);
}

/** Silence that fires `EagerEndOfTurn`: 0.3 → 160 ms, 0.5 → 200 ms, always ≥ 60 ms before end of turn. */
export function eagerSilenceMs(thresholds: FluxThresholds): number | undefined {
  if (thresholds.eagerEotThreshold === undefined) return undefined;
  const ms = Math.round(100 + thresholds.eagerEotThreshold * 200);
  return Math.max(100, Math.min(ms, eotSilenceMs(thresholds) - 60));
}

/** One word with its audio-time span, as Flux reports it (converted to seconds on the wire). */
export interface FluxWord {
  word: string;
  startMs: number;
  endMs: number;
}

/** A `TurnInfo` payload before it gets a request id and sequence id. */
export interface FluxTurnEvent {
  event: 'StartOfTurn' | 'Update' | 'EagerEndOfTurn' | 'TurnResumed' | 'EndOfTurn';
  turnIndex: number;
  windowStartMs: number;
  windowEndMs: number;
  transcript: string;
  words: FluxWord[];
  confidence: number;
  trigger?: 'model' | 'manual' | 'timeout';
}

type TurnState = 'initial' | 'ongoing' | 'awaiting_end';

/** Pure, synchronous turn detector: feed 20 ms frames, get the `TurnInfo` events they cause. */
export class FluxTurnDetector {
  #thresholds: FluxThresholds;
  readonly #tuning: FluxTuning;
  readonly #nextText: () => string | undefined;
  #audioMs = 0;
  #speaking = false;
  #loudMs = 0;
  #loudStartMs = 0;
  #lastVoiceEndMs = 0;
  #state: TurnState = 'initial';
  #turnIndex = 0;
  #turnStartMs = 0;
  #lastUpdateMs = 0;
  #words: string[] = [];

  constructor(thresholds: FluxThresholds, tuning: FluxTuning, nextText: () => string | undefined) {
    this.#thresholds = thresholds;
    this.#tuning = tuning;
    this.#nextText = nextText;
  }

  /** Audio time heard so far, in milliseconds. */
  get audioMs(): number {
    return this.#audioMs;
  }

  /** Applies a `Configure` message; takes effect from the next frame. */
  configure(thresholds: Partial<FluxThresholds>): FluxThresholds {
    this.#thresholds = { ...this.#thresholds, ...thresholds };
    return this.#thresholds;
  }

  /** Feeds one frame (normally 160 bytes) and returns the events it triggers. */
  push(frame: Uint8Array): FluxTurnEvent[] {
    const startMs = this.#audioMs;
    this.#audioMs += frame.length / MULAW_BYTES_PER_MS;
    const onset = this.#trackVoice(mulawRms(frame) >= this.#tuning.speechRmsThreshold, startMs);
    return this.#step(onset);
  }

  /** `ForceEndTurn`: ends an open turn now with `trigger: "manual"`. */
  forceEndTurn(): FluxTurnEvent[] {
    return this.#state === 'initial' ? [] : [this.#endTurn('manual')];
  }

  /** `CloseStream`: flushes an open turn as if its silence had elapsed. */
  finish(): FluxTurnEvent[] {
    return this.#state === 'initial' ? [] : [this.#endTurn('model')];
  }

  /** Updates the voiced/quiet tracking; returns the gap before a new speech onset, if one starts. */
  #trackVoice(loud: boolean, frameStartMs: number): { gapMs: number; atMs: number } | undefined {
    if (!loud) {
      this.#loudMs = 0;
      if (this.#speaking && this.#audioMs - this.#lastVoiceEndMs >= this.#tuning.hangoverMs) this.#speaking = false;
      return undefined;
    }
    if (this.#loudMs === 0) this.#loudStartMs = frameStartMs;
    this.#loudMs += this.#audioMs - frameStartMs;
    if (this.#speaking) {
      this.#lastVoiceEndMs = this.#audioMs;
      return undefined;
    }
    if (this.#loudMs < this.#tuning.minSpeechMs) return undefined;
    const gapMs = this.#loudStartMs - this.#lastVoiceEndMs;
    this.#speaking = true;
    this.#lastVoiceEndMs = this.#audioMs;
    return { gapMs, atMs: this.#loudStartMs };
  }

  #step(onset: { gapMs: number; atMs: number } | undefined): FluxTurnEvent[] {
    if (this.#state === 'initial') return onset ? [this.#startTurn(onset.atMs)] : [];
    // A new segment after a pause (always so after EagerEndOfTurn) is the callee's next utterance.
    if (onset && (this.#state === 'awaiting_end' || onset.gapMs >= this.#tuning.segmentGapMs)) this.#appendNextText();
    if (this.#state === 'awaiting_end' && onset) {
      this.#state = 'ongoing';
      this.#lastUpdateMs = this.#audioMs;
      return [this.#event('TurnResumed', this.#revealedWords(), 0)];
    }
    const silenceMs = this.#speaking ? 0 : this.#audioMs - this.#lastVoiceEndMs;
    if (!this.#speaking && silenceMs >= eotSilenceMs(this.#thresholds)) {
      return [this.#endTurn(this.#thresholds.eotThreshold >= 1 ? 'timeout' : 'model')];
    }
    if (this.#state === 'awaiting_end') return [];
    const eagerMs = eagerSilenceMs(this.#thresholds);
    if (eagerMs !== undefined && !this.#speaking && silenceMs >= eagerMs && this.#words.length > 0) {
      this.#state = 'awaiting_end';
      return [this.#event('EagerEndOfTurn', this.#finalWords(), this.#thresholds.eagerEotThreshold ?? 0.5)];
    }
    if (this.#audioMs - this.#lastUpdateMs < this.#tuning.updateIntervalMs) return [];
    this.#lastUpdateMs = this.#audioMs;
    const confidence = (silenceMs / eotSilenceMs(this.#thresholds)) * this.#thresholds.eotThreshold;
    return [this.#event('Update', this.#revealedWords(), Math.min(0.99, confidence))];
  }

  #startTurn(atMs: number): FluxTurnEvent {
    this.#state = 'ongoing';
    this.#turnStartMs = atMs;
    this.#lastUpdateMs = this.#audioMs;
    this.#words = [];
    this.#appendNextText();
    return this.#event('StartOfTurn', [], 0);
  }

  #endTurn(trigger: 'model' | 'manual' | 'timeout'): FluxTurnEvent {
    const confidence = this.#thresholds.eotThreshold + (1 - Math.min(this.#thresholds.eotThreshold, 1)) / 2;
    const end = { ...this.#event('EndOfTurn', this.#finalWords(), Math.min(1, confidence)), trigger };
    this.#state = 'initial';
    this.#turnIndex += 1;
    this.#words = [];
    return end;
  }

  #appendNextText(): void {
    const text = this.#nextText();
    if (text) this.#words.push(...text.split(/\s+/).filter((word) => word !== ''));
  }

  /** While speech continues: a prefix growing at `msPerWord`, never the last word yet; once quiet: everything. */
  #revealedWords(): FluxWord[] {
    if (!this.#speaking) return this.#finalWords();
    const elapsed = this.#audioMs - this.#turnStartMs;
    const count = Math.max(0, Math.min(this.#words.length - 1, Math.floor(elapsed / this.#tuning.msPerWord)));
    const step = this.#tuning.msPerWord;
    return this.#words.slice(0, count).map((word, i) => ({
      word,
      startMs: this.#turnStartMs + i * step,
      endMs: Math.min(this.#audioMs, this.#turnStartMs + (i + 0.8) * step),
    }));
  }

  /** The whole transcript, spread evenly over the voiced span so the last word ends with the voice. */
  #finalWords(): FluxWord[] {
    const span = Math.max(this.#lastVoiceEndMs - this.#turnStartMs, 1);
    const each = span / Math.max(this.#words.length, 1);
    return this.#words.map((word, i) => ({
      word,
      startMs: Math.round(this.#turnStartMs + i * each),
      endMs: Math.round(this.#turnStartMs + (i + 1) * each),
    }));
  }

  #event(event: FluxTurnEvent['event'], words: FluxWord[], confidence: number): FluxTurnEvent {
    return {
      event,
      turnIndex: this.#turnIndex,
      windowStartMs: this.#turnStartMs,
      windowEndMs: this.#audioMs,
      transcript: words.map((w) => w.word).join(' '),
      words,
      confidence: Math.round(confidence * 1000) / 1000,
    };
  }
}

/** Splits arbitrary-sized audio into whole 20 ms frames, keeping the remainder for next time. */
export class FrameSplitter {
  #pending = new Uint8Array(0);

  /** Appends `audio` and returns every complete frame now available. */
  push(audio: Uint8Array): Uint8Array[] {
    const joined = new Uint8Array(this.#pending.length + audio.length);
    joined.set(this.#pending);
    joined.set(audio, this.#pending.length);
    const frames: Uint8Array[] = [];
    let offset = 0;
    for (; offset + FRAME_BYTES <= joined.length; offset += FRAME_BYTES) frames.push(joined.subarray(offset, offset + FRAME_BYTES));
    this.#pending = joined.slice(offset);
    return frames;
  }
}
