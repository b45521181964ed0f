import { FRAME_BYTES, FRAME_MS, MULAW_SILENCE } from '../audio/mulaw';
import { calleeLine } from './callee-lines';
import { beep, speechDurationMs, speechLike, textSeed } from '../audio/tone';
import { recordedMessage, type RecordedMessage } from './machine-recording';
import type { Scenario, ScenarioStep, SpokenText, UtteranceSink } from './scenario-script';

/** What the callee can do to its call (implemented by the sandbox carrier). */
export interface CalleeLine {
  readonly callSid: string;
  sendDtmf(digit: string): void;
  hangup(): void;
  /** A `beep` step finished (AMD `machine_end_beep` moment). */
  beepEnded(): void;
  /** An `amd` step: detection concludes now (another `machine_end_*` moment). */
  amdConcluded?(): void;
}

/** Everything the callee said, heard and did, in audio time (ms from stream start). */
export interface CalleeRecord {
  scenario: string;
  said: { text: string; startMs: number; endMs?: number; bargeIn: boolean }[];
  /** Runs of assistant speech as played to the callee (energy above threshold, gaps < 200 ms bridged). */
  heardSpeech: { startMs: number; endMs?: number }[];
  dtmf: { digit: string; atMs: number }[];
  steps: { kind: ScenarioStep['kind']; startMs: number; endMs?: number; timedOut?: boolean }[];
  hungUpAtMs?: number;
  /** What an answering machine (a `record` step) recorded, read as words once the call ended. */
  recorded?: RecordedMessage;
}

/** Tuning of {@link SimulatedCallee}. */
export interface SimulatedCalleeOptions {
  /** Receives each utterance's text just before its audio starts. */
  utterances?: UtteranceSink;
  /** Frame RMS at which the callee hears the assistant speaking; 500 like the sandbox Flux (ambience stays < 300). */
  speechRmsThreshold?: number;
  /**
   * Silence kept between two utterances of the callee: 300 ms, above the sandbox Flux's 200 ms
   * segment gap, so each `say` is transcribed as its own segment with its own board text.
   */
  minGapMs?: number;
  /** Speaking pace for `say` without a duration; default 60 ms per character. */
  msPerChar?: number;
}

/** Quiet that ends a heard run of assistant speech (bridges pauses between words). */
const HANGOVER_MS = 200;
/** The one silence frame every quiet callee returns (identity lets the stream reuse its base64). */
export const SILENCE_FRAME: Uint8Array = new Uint8Array(FRAME_BYTES).fill(MULAW_SILENCE);

/**
 * The simulated person on a sandbox call. The carrier calls `nextFrame` once per 20 ms frame with
 * the level of the assistant audio that just played; the callee runs its scenario on that audio
 * clock (deterministic: no timers) and returns its own next frame, a zero-copy view of a
 * pre-rendered utterance or a shared silence frame, so 100+ calls allocate almost nothing per frame.
 */
export class SimulatedCallee {
  readonly record: CalleeRecord;
  readonly #scenario: Scenario;
  readonly #line: CalleeLine;
  readonly #sink: UtteranceSink | undefined;
  readonly #threshold: number;
  readonly #minGapMs: number;
  readonly #msPerChar: number | undefined;
  #index = 0;
  #stepStart = 0;
  #stepActive = false;
  #stepCounter = 0;
  #audio: Uint8Array | undefined;
  #audioOffset = 0;
  #lastSpeechEnd = Number.NEGATIVE_INFINITY;
  #speechMarker = 0;
  #lastLoudEnd = Number.NEGATIVE_INFINITY;
  #runStart = 0;
  #ended = false;
  #recording: { startMs: number; untilMs: number; audio: Uint8Array[]; bytes: number } | undefined;

  constructor(scenario: Scenario, line: CalleeLine, options: SimulatedCalleeOptions = {}) {
    this.#scenario = scenario;
    this.#line = line;
    this.#sink = options.utterances;
    this.#threshold = options.speechRmsThreshold ?? 500;
    this.#minGapMs = options.minGapMs ?? 300;
    this.#msPerChar = options.msPerChar;
    this.record = { scenario: scenario.name, said: [], heardSpeech: [], dtmf: [], steps: [] };
  }

  /** True once the callee has hung up. */
  get ended(): boolean {
    return this.#ended;
  }

  /** True while a `record` step records: the stream hands over what plays ({@link recordPlayed}). */
  get recording(): boolean {
    return this.#recording !== undefined && !this.#ended;
  }

  /** Assistant audio that just played, while {@link recording} (a view; it is not modified later). */
  recordPlayed(bytes: Uint8Array, nowMs: number): void {
    const recording = this.#recording;
    if (!recording || nowMs >= recording.untilMs) return;
    recording.audio.push(bytes);
    recording.bytes += bytes.length;
  }

  /** The call ended: reads what was recorded against what the voice said (`spoken`) into `record.recorded`. */
  closeRecording(spoken: readonly SpokenText[]): void {
    const recording = this.#recording;
    if (!recording || this.record.recorded) return;
    const audio = new Uint8Array(recording.bytes);
    let offset = 0;
    for (const chunk of recording.audio) {
      audio.set(chunk, offset);
      offset += chunk.length;
    }
    this.record.recorded = recordedMessage(recording.startMs, audio, spoken);
  }

  /**
   * Advances one frame. `nowMs` is the audio time of the frame about to be sent; `heardRms` the
   * level of the assistant audio played during the previous 20 ms, or null when none was buffered.
   */
  nextFrame(nowMs: number, heardRms: number | null): Uint8Array {
    this.#hear(nowMs, heardRms);
    if (!this.#ended && nowMs >= this.#scenario.maxCallMs) this.#hangup(nowMs);
    if (!this.#ended) this.#advance(nowMs);
    return this.#ended ? SILENCE_FRAME : this.#frame(nowMs);
  }

  #hear(nowMs: number, rms: number | null): void {
    const runs = this.record.heardSpeech;
    const open = runs.at(-1)?.endMs === undefined ? runs.at(-1) : undefined;
    if (rms !== null && rms >= this.#threshold) {
      if (!open) {
        this.#runStart = nowMs - FRAME_MS;
        runs.push({ startMs: this.#runStart });
      }
      this.#lastLoudEnd = nowMs;
    } else if (open && nowMs - this.#lastLoudEnd >= HANGOVER_MS) {
      open.endMs = this.#lastLoudEnd;
    }
  }

  /** True while the assistant is audibly talking. */
  #hearing(nowMs: number): boolean {
    return nowMs - this.#lastLoudEnd < HANGOVER_MS;
  }

  #advance(nowMs: number): void {
    for (;;) {
      const current = this.#scenario.steps[this.#index];
      if (!current || this.#ended) return;
      if (!this.#stepActive) {
        this.#stepActive = true;
        this.#stepStart = nowMs;
        this.#stepCounter = 0;
        this.record.steps.push({ kind: current.kind, startMs: nowMs });
      }
      if (!this.#run(current, nowMs)) return;
      this.record.steps.at(-1)!.endMs = nowMs;
      this.#index++;
      this.#stepActive = false;
    }
  }

  /** Runs one step at `nowMs`; true when it has completed. */
  #run(s: ScenarioStep, nowMs: number): boolean {
    const elapsed = nowMs - this.#stepStart;
    switch (s.kind) {
      case 'say':
        return this.#speak(s.text, s.durationMs, nowMs, false);
      case 'bargeIn': {
        const due = this.#hearing(nowMs) && nowMs - this.#runStart >= s.afterAssistantStartsMs;
        if (this.#stepCounter === 0 && !due && elapsed < s.timeoutMs) return false;
        if (this.#stepCounter === 0 && !due) this.#timedOut();
        return this.#speak(s.text, s.durationMs, nowMs, true);
      }
      case 'waitForAssistant':
        // A person does not talk over an assistant still speaking: the timeout is for one that never speaks (or stops
        // mid-reply), so a long greeting with its notice is heard to the end however long it takes.
        if (elapsed >= s.timeoutMs && !this.#hearing(nowMs)) return this.#timedOut();
        if (s.replyOnly && this.#runStart < this.#lastSpeechEnd) return false;
        return this.#lastLoudEnd > this.#speechMarker && !this.#hearing(nowMs) && nowMs - this.#lastLoudEnd >= s.quietMs;
      case 'pause':
        return elapsed >= s.ms;
      case 'dtmf':
        return this.#pressKeys(s.digits, s.gapMs, elapsed, nowMs);
      case 'beep':
        return this.#play(beep({ durationMs: s.durationMs, frequencyHz: s.frequencyHz }), () => this.#line.beepEnded());
      case 'record':
        this.#recording ??= { startMs: nowMs, untilMs: nowMs + s.maxMs, audio: [], bytes: 0 };
        return true;
      case 'amd':
        this.#line.amdConcluded?.();
        return true;
      case 'silence':
        return false;
      case 'hangup':
        this.#hangup(nowMs);
        return true;
    }
  }

  #timedOut(): true {
    this.record.steps.at(-1)!.timedOut = true;
    return true;
  }

  /** Starts an utterance (after the minimum gap, unless barging in); true once it has been played. */
  #speak(line: string, durationMs: number | undefined, nowMs: number, bargeIn: boolean): boolean {
    if (this.#stepCounter === 0) {
      if (!bargeIn && nowMs < this.#lastSpeechEnd + this.#minGapMs) return false;
      const text = calleeLine(line, this.#sink?.language?.(this.#line.callSid));
      this.#stepCounter = 1;
      this.#speechMarker = nowMs;
      this.#sink?.push(this.#line.callSid, text);
      const entry = { text, startMs: nowMs, bargeIn };
      this.record.said.push(entry);
      const duration = durationMs ?? speechDurationMs(text, this.#msPerChar);
      this.#audio = speechLike(duration, textSeed(text));
      this.#audioOffset = 0;
      return false;
    }
    if (this.#audio) return false;
    this.record.said.at(-1)!.endMs = this.#lastSpeechEnd;
    return true;
  }

  #play(audio: Uint8Array, onEnd: () => void): boolean {
    if (this.#stepCounter === 0) {
      this.#stepCounter = 1;
      this.#audio = audio;
      this.#audioOffset = 0;
      return false;
    }
    if (this.#audio) return false;
    onEnd();
    return true;
  }

  #pressKeys(digits: string, gapMs: number, elapsed: number, nowMs: number): boolean {
    while (this.#stepCounter < digits.length && elapsed >= this.#stepCounter * gapMs) {
      const digit = digits[this.#stepCounter++]!;
      // A key press is a turn like an utterance: a following `waitForAssistant` waits for the reply to it.
      this.#speechMarker = nowMs;
      this.record.dtmf.push({ digit, atMs: nowMs });
      this.#line.sendDtmf(digit);
    }
    return this.#stepCounter >= digits.length;
  }

  #frame(nowMs: number): Uint8Array {
    const audio = this.#audio;
    if (!audio) return SILENCE_FRAME;
    const frame = audio.subarray(this.#audioOffset, this.#audioOffset + FRAME_BYTES);
    this.#audioOffset += FRAME_BYTES;
    if (this.#audioOffset >= audio.length) {
      this.#audio = undefined;
      this.#lastSpeechEnd = nowMs + FRAME_MS;
    }
    return frame;
  }

  #hangup(nowMs: number): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#audio = undefined;
    this.record.hungUpAtMs = nowMs;
    this.#line.hangup();
  }
}
