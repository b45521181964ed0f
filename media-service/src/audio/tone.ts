import { encodeSample, FRAME_BYTES, FRAME_MS, SAMPLE_RATE } from './mulaw';

/**
 * Synthetic audio for the sandbox: the simulated callee's "voice" and the voicemail beep. The
 * sandbox speech-to-text detects speech by energy alone (frame RMS ≥ 500 on the 16-bit scale), so
 * speech-like audio here keeps every 20 ms frame far above that (measured minimum ≈ 2000, maximum ≈ 4600) and
 * never dips for more than a frame inside an utterance (a ≥ 200 ms dip would split it in two).
 */

/** Default speaking pace: ~60 ms per character ≈ 150 words a minute. */
export const MS_PER_CHAR = 60;

/** Shortest utterance ("Yes.") still long enough to be detected as speech (≥ 40 ms voiced). */
export const MIN_UTTERANCE_MS = 400;

/** How long `text` takes to say at `msPerChar`, never less than {@link MIN_UTTERANCE_MS}. */
export function speechDurationMs(text: string, msPerChar = MS_PER_CHAR): number {
  return Math.max(MIN_UTTERANCE_MS, Math.round(text.trim().length * msPerChar));
}

/** A stable 32-bit hash so the same text always gets the same voice. */
export function textSeed(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return hash >>> 0;
}

/** A deterministic synthesiser: the same length and seed always give the same audio. */
export type Synthesiser = (durationMs: number, seed?: number) => Uint8Array;

/**
 * Remembers the last `size` results of a deterministic synthesiser. The sandbox says the same lines
 * over and over (every bench call asks the same questions and hears the same answers), and
 * synthesising them sample by sample was a sixth of the provider process's CPU. Callers must
 * treat the audio as read-only: it is shared.
 */
export function rememberSynthesis(synthesise: Synthesiser, size = 128): Synthesiser {
  const cache = new Map<string, Uint8Array>();
  return (durationMs, seed = 0) => {
    const key = `${durationMs}:${seed}`;
    const known = cache.get(key);
    if (known) {
      cache.delete(key);
      cache.set(key, known);
      return known;
    }
    const audio = synthesise(durationMs, seed);
    cache.set(key, audio);
    if (cache.size > size) cache.delete(cache.keys().next().value!);
    return audio;
  };
}

/**
 * Deterministic speech-like μ-law of `durationMs` (rounded up to whole 20 ms frames): a voiced
 * source (pitch 100–160 Hz with slow intonation, four harmonics) under a ~4.5 Hz syllable envelope
 * that never drops below 0.5, with 10 ms fades at both ends. `seed` varies pitch and phase.
 * Remembered (see {@link rememberSynthesis}): the result is shared and must not be modified.
 */
export const speechLike: Synthesiser = rememberSynthesis(synthesiseSpeechLike);

function synthesiseSpeechLike(durationMs: number, seed = 0): Uint8Array {
  const frames = Math.max(1, Math.ceil(durationMs / FRAME_MS));
  const out = new Uint8Array(frames * FRAME_BYTES);
  const pitch = 100 + (seed % 61);
  const syllablePhase = ((seed >>> 8) % 97) / 97;
  const fade = SAMPLE_RATE / 100;
  let phase = 0;
  for (let i = 0; i < out.length; i++) {
    const t = i / SAMPLE_RATE;
    const f0 = pitch * (1 + 0.08 * Math.sin(2 * Math.PI * 0.7 * t));
    phase += (2 * Math.PI * f0) / SAMPLE_RATE;
    const voice = Math.sin(phase) + 0.6 * Math.sin(2 * phase) + 0.35 * Math.sin(3 * phase) + 0.2 * Math.sin(5 * phase);
    const syllable = 0.5 + 0.5 * Math.abs(Math.sin(Math.PI * (4.5 * t + syllablePhase)));
    const edge = Math.min(1, (i + 1) / fade, (out.length - i) / fade);
    out[i] = encodeSample(Math.round(5000 * syllable * edge * voice));
  }
  return out;
}

/** Options for {@link beep}. */
export interface BeepOptions {
  /** Default 500 ms, rounded up to whole frames. */
  durationMs?: number;
  /** Default 1000 Hz, the classic answering-machine tone. */
  frequencyHz?: number;
  /** Peak amplitude on the 16-bit scale; default 8000 (≈ −12 dBFS). */
  amplitude?: number;
}

/** A pure sine beep, as an answering machine plays before recording. */
export function beep(options: BeepOptions = {}): Uint8Array {
  const frames = Math.max(1, Math.ceil((options.durationMs ?? 500) / FRAME_MS));
  const frequency = options.frequencyHz ?? 1000;
  const amplitude = options.amplitude ?? 8000;
  const out = new Uint8Array(frames * FRAME_BYTES);
  for (let i = 0; i < out.length; i++) out[i] = encodeSample(Math.round(amplitude * Math.sin((2 * Math.PI * frequency * i) / SAMPLE_RATE)));
  return out;
}
