/**
 * G.711 μ-law helpers for the sandbox providers only: the Flux stand-in measures the energy of
 * what it hears, and the Aura stand-in must return audio a simulated callee can hear. Kept here
 * (not in `audio/`) so the sandbox owns no dependency on the pipeline's codecs.
 */

/** μ-law silence: the byte a phone line carries when nobody speaks (decodes to 0). */
export const MULAW_SILENCE = 0xff;

/** 8000 μ-law bytes are one second of audio; 8 bytes are one millisecond. */
export const MULAW_BYTES_PER_MS = 8;

/** One 20 ms telephony frame (160 bytes), the unit both stand-ins count audio in. */
export const FRAME_BYTES = 160;

const BIAS = 0x84;
const CLIP = 32635;

const DECODE_TABLE = (() => {
  const table = new Int16Array(256);
  for (let i = 0; i < 256; i++) {
    const u = ~i & 0xff;
    const exponent = (u >> 4) & 0x07;
    const magnitude = ((((u & 0x0f) << 3) + BIAS) << exponent) - BIAS;
    table[i] = u & 0x80 ? -magnitude : magnitude;
  }
  return table;
})();

/** Decodes one μ-law byte to a 16-bit linear sample. */
export function decodeMulaw(byte: number): number {
  return DECODE_TABLE[byte & 0xff]!;
}

/** Encodes one 16-bit linear sample to μ-law (G.711, with the usual 0x84 bias and clipping). */
export function encodeMulaw(sample: number): number {
  let value = Math.max(-32768, Math.min(32767, Math.round(sample)));
  const sign = value < 0 ? 0x80 : 0;
  if (value < 0) value = -value;
  value = Math.min(value, CLIP) + BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (value & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (value >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

/** Root-mean-square level of μ-law audio on the 16-bit linear scale (0 for pure silence). */
export function mulawRms(audio: Uint8Array): number {
  if (audio.length === 0) return 0;
  let sum = 0;
  for (const byte of audio) {
    const sample = DECODE_TABLE[byte]!;
    sum += sample * sample;
  }
  return Math.sqrt(sum / audio.length);
}

/**
 * Deterministic speech-like μ-law audio: a voiced tone (three harmonics of a 110–170 Hz pitch)
 * under a ~4.5 Hz syllable envelope that never drops to silence, so an energy detector hears one
 * continuous utterance. `seed` varies pitch and phase so different texts sound different.
 */
export function synthesizeSpeechLike(durationMs: number, seed = 0): Uint8Array {
  const frames = Math.max(1, Math.ceil(durationMs / 20));
  const out = new Uint8Array(frames * FRAME_BYTES);
  const pitch = 110 + (Math.abs(seed) % 60);
  const phase = (Math.abs(seed) % 17) / 17;
  for (let i = 0; i < out.length; i++) {
    const t = i / 8000;
    const envelope = 0.4 + 0.6 * Math.abs(Math.sin(2 * Math.PI * (4.5 * t + phase)));
    const voice =
      Math.sin(2 * Math.PI * pitch * t) + 0.5 * Math.sin(4 * Math.PI * pitch * t) + 0.25 * Math.sin(6 * Math.PI * pitch * t);
    out[i] = encodeMulaw(5200 * envelope * voice);
  }
  return out;
}

/** A simple string hash so the same text always produces the same voice. */
export function textSeed(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) | 0;
  return hash;
}
