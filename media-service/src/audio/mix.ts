import { decodeSample, encodeSample, FRAME_BYTES, SAMPLE_RATE } from './mulaw';

/**
 * Volume and background mixing done directly on μ-law, because Twilio has one outbound track and
 * the office ambience must be mixed in by us (docs/protocols.md "Lessons from open-source voice pipelines"). Both operations are lookups:
 * a 256-byte table per gain and one 64 KiB table for the sum of two bytes, so mixing a 20 ms
 * frame costs 160 reads and no float math.
 */

const gainTables = new Map<number, Uint8Array>();

/** The 256-byte table for one gain, rounded to 0.01 (the product's volume step) and cached. */
function gainTable(gain: number): Uint8Array {
  const key = Math.round(gain * 100);
  let table = gainTables.get(key);
  if (!table) {
    table = new Uint8Array(256);
    for (let byte = 0; byte < 256; byte++) table[byte] = encodeSample(Math.round(decodeSample(byte) * (key / 100)));
    gainTables.set(key, table);
  }
  return table;
}

/**
 * Scales μ-law audio by `gain` (the assistant's volume, 0.5–1.5) with clipping at full scale.
 * Pass `out` (may be `mulaw` itself) to avoid an allocation.
 */
export function applyGain(mulaw: Uint8Array, gain: number, out: Uint8Array = new Uint8Array(mulaw.length)): Uint8Array {
  if (!Number.isFinite(gain) || gain < 0) throw new RangeError(`gain must be a finite number ≥ 0, got ${gain}`);
  const table = gainTable(gain);
  for (let i = 0; i < mulaw.length; i++) out[i] = table[mulaw[i]!]!;
  return out;
}

/** `MIX[a << 8 | b]` = μ-law of decode(a) + decode(b), clipped. */
const MIX = (() => {
  const table = new Uint8Array(65536);
  for (let a = 0; a < 256; a++) {
    const base = decodeSample(a);
    for (let b = 0; b < 256; b++) table[(a << 8) | b] = encodeSample(base + decodeSample(b));
  }
  return table;
})();

/**
 * Adds `background` into `voice` IN PLACE (sample-wise sum with clipping) over their common
 * length, and returns `voice`. In place because the pacer mixes every outgoing frame.
 */
export function mixInto(voice: Uint8Array, background: Uint8Array): Uint8Array {
  const n = Math.min(voice.length, background.length);
  for (let i = 0; i < n; i++) voice[i] = MIX[(voice[i]! << 8) | background[i]!]!;
  return voice;
}

/** Anything that yields consecutive 20 ms μ-law frames (the pacer's background source). */
export interface FrameSource {
  /** Writes the next 160-byte frame into `out` (or a new buffer) and returns it. */
  nextFrame(out?: Uint8Array): Uint8Array;
}

/** Options for {@link OfficeAmbience}. */
export interface OfficeAmbienceOptions {
  /** Same seed, same sound: tests and recordings are reproducible. Default 1. */
  seed?: number;
  /** Multiplier on the default level (≈ −50 dBFS RMS); 0 is silent. Default 1. */
  level?: number;
}

/** Mulberry32: a 32-bit seeded PRNG, tiny and fast, good enough for noise. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Base noise amplitude before filtering; measured frame RMS mean ≈ 150 at level 1. */
const NOISE_AMPLITUDE = 900;
/** One-pole low-pass at ~350 Hz: a distant room is dull, its highs absorbed by walls. */
const LOWPASS_ALPHA = 1 - Math.exp((-2 * Math.PI * 350) / SAMPLE_RATE);
/** Keyboard-like ticks: ~1.5 per second, 5 ms each, quiet enough to stay under speech level. */
const CLICK_RATE_PER_SAMPLE = 1.5 / SAMPLE_RATE;
const CLICK_SAMPLES = 40;
const CLICK_AMPLITUDE = 500;

/**
 * A continuous "distant office" background: low-passed noise under a slow murmur envelope plus
 * sparse soft keyboard ticks. Generated frame by frame (never pre-buffered) so a `clear` wipes
 * at most the pacer's lead of it. Every frame stays far below speech: frame RMS ≤ ~260 at level 1 (mean ≈ 150, measured over 60 s),
 * while the speech detectors (sandbox Flux, simulated callee) trigger at 500.
 */
export class OfficeAmbience implements FrameSource {
  readonly #random: () => number;
  readonly #level: number;
  readonly #phaseA: number;
  readonly #phaseB: number;
  #lowpass = 0;
  #sample = 0;
  #clickLeft = 0;
  #clickSign = 1;

  constructor(options: OfficeAmbienceOptions = {}) {
    this.#random = mulberry32(options.seed ?? 1);
    this.#level = options.level ?? 1;
    this.#phaseA = this.#random() * 2 * Math.PI;
    this.#phaseB = this.#random() * 2 * Math.PI;
  }

  /** Writes the next 20 ms into `out` (allocated when omitted) and returns it. */
  nextFrame(out: Uint8Array = new Uint8Array(FRAME_BYTES)): Uint8Array {
    for (let i = 0; i < FRAME_BYTES; i++) out[i] = encodeSample(this.#nextSample() * this.#level);
    return out;
  }

  #nextSample(): number {
    const t = this.#sample++ / SAMPLE_RATE;
    // Murmur: two slow incommensurate sines keep the level drifting between 0.6 and 1.0.
    const murmur = 0.8 + 0.12 * Math.sin(2 * Math.PI * 0.31 * t + this.#phaseA) + 0.08 * Math.sin(2 * Math.PI * 0.13 * t + this.#phaseB);
    const white = (this.#random() * 2 - 1) * NOISE_AMPLITUDE;
    this.#lowpass += LOWPASS_ALPHA * (white - this.#lowpass);
    return this.#lowpass * murmur + this.#click();
  }

  #click(): number {
    if (this.#clickLeft === 0) {
      if (this.#random() >= CLICK_RATE_PER_SAMPLE) return 0;
      this.#clickLeft = CLICK_SAMPLES;
    }
    this.#clickLeft--;
    this.#clickSign = -this.#clickSign;
    const decay = this.#clickLeft / CLICK_SAMPLES;
    return this.#clickSign * CLICK_AMPLITUDE * decay * decay * (0.5 + this.#random() * 0.5);
  }
}
