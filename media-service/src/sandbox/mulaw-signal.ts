import { BYTES_PER_MS, encodeSample, FRAME_BYTES } from '../audio/mulaw';
import { rememberSynthesis, type Synthesiser } from '../audio/tone';

/**
 * μ-law signals of the sandbox providers: the Flux stand-in measures the energy of what it hears,
 * and the Aura and Realtime stand-ins return audio a simulated callee can hear. The codec itself
 * is `audio/mulaw.ts` (as for the carrier and callee); this file keeps the provider voices' names.
 */
export { FRAME_BYTES, MULAW_SILENCE, mulawRms } from '../audio/mulaw';

/** 8000 μ-law bytes are one second of audio; 8 bytes are one millisecond. */
export const MULAW_BYTES_PER_MS = BYTES_PER_MS;

/**
 * Deterministic speech-like μ-law audio: a voiced tone (three harmonics of a 110–170 Hz pitch)
 * under a ~4.5 Hz syllable envelope that never drops to silence, so an energy detector hears one
 * continuous utterance. `seed` varies pitch and phase so different texts sound different.
 * Remembered: the result is shared and must not be modified.
 */
export const synthesizeSpeechLike: Synthesiser = rememberSynthesis(synthesize);

function synthesize(durationMs: number, seed = 0): Uint8Array {
  const frames = Math.max(1, Math.ceil(durationMs / 20));
  const out = new Uint8Array(frames * FRAME_BYTES);
  const pitch = 110 + (Math.abs(seed) % 60);
  const phase = (Math.abs(seed) % 17) / 17;
  for (let i = 0; i < out.length; i++) {
    const t = i / 8000;
    const envelope = 0.4 + 0.6 * Math.abs(Math.sin(2 * Math.PI * (4.5 * t + phase)));
    const voice = Math.sin(2 * Math.PI * pitch * t) + 0.5 * Math.sin(4 * Math.PI * pitch * t) + 0.25 * Math.sin(6 * Math.PI * pitch * t);
    out[i] = encodeSample(Math.round(5200 * envelope * voice));
  }
  return out;
}

/** A simple string hash so the same text always produces the same voice. */
export function textSeed(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) | 0;
  return hash;
}
