/**
 * G.711 μ-law, the only codec a Twilio media stream carries (docs/protocols.md "Twilio": `audio/x-mulaw`,
 * 8000 Hz, mono, no header). Both directions are table lookups: a 256-entry decode table and a
 * 64 Ki-entry encode table indexed by the 16-bit sample, so a 20 ms frame costs 160 array reads.
 */

/** Telephony sample rate (samples per second). */
export const SAMPLE_RATE = 8000;

/** One μ-law byte per sample: 8 bytes are one millisecond. */
export const BYTES_PER_MS = 8;

/** The frame every telephony stream is cut into (Twilio sends one every 20 ms). */
export const FRAME_MS = 20;

/** 20 ms at 8 kHz: 160 bytes, 216 base64 characters on the wire. */
export const FRAME_BYTES = 160;

/** μ-law silence: the byte a quiet phone line carries (decodes to 0). Used to pad partial frames. */
export const MULAW_SILENCE = 0xff;

/** Sun g711.c constants: the 0x84 bias that lets segments share one shift, and the clip below it. */
const BIAS = 0x84;
const CLIP = 32635;

/** Reference encoder (Sun g711.c `linear2ulaw`); builds the lookup table once at load. */
function encodeReference(sample: number): number {
  let value = sample;
  const sign = value < 0 ? 0x80 : 0;
  if (value < 0) value = -value;
  value = Math.min(value, CLIP) + BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (value & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (value >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

/** Decode table: byte → 16-bit linear (Sun g711.c `ulaw2linear`). */
const DECODE = (() => {
  const table = new Int16Array(256);
  for (let byte = 0; byte < 256; byte++) {
    const u = ~byte & 0xff;
    const t = (((u & 0x0f) << 3) + BIAS) << ((u & 0x70) >> 4);
    table[byte] = u & 0x80 ? BIAS - t : t - BIAS;
  }
  return table;
})();

/** Encode table indexed by `sample + 32768`. */
const ENCODE = (() => {
  const table = new Uint8Array(65536);
  for (let i = 0; i < 65536; i++) table[i] = encodeReference(i - 32768);
  return table;
})();

/** Decodes one μ-law byte to a 16-bit linear sample (±32124 at most). */
export function decodeSample(byte: number): number {
  return DECODE[byte & 0xff]!;
}

/** Encodes one linear sample; values outside the 16-bit range are clipped, fractions truncated. */
export function encodeSample(sample: number): number {
  const clipped = sample >= 32767 ? 32767 : sample <= -32768 ? -32768 : sample | 0;
  return ENCODE[clipped + 32768]!;
}

/** Decodes a μ-law buffer to 16-bit PCM; pass `out` to reuse a buffer on the hot path. */
export function decodeMulaw(mulaw: Uint8Array, out: Int16Array = new Int16Array(mulaw.length)): Int16Array {
  for (let i = 0; i < mulaw.length; i++) out[i] = DECODE[mulaw[i]!]!;
  return out;
}

/** Encodes 16-bit PCM to μ-law; pass `out` to reuse a buffer on the hot path. */
export function encodeMulaw(pcm: Int16Array, out: Uint8Array = new Uint8Array(pcm.length)): Uint8Array {
  for (let i = 0; i < pcm.length; i++) out[i] = ENCODE[pcm[i]! + 32768]!;
  return out;
}

/**
 * Root-mean-square level of μ-law audio on the 16-bit linear scale (0 for pure silence), over
 * `[start, end)`. Speech from the sandbox voices measures ~800–4000; the office ambience < 300.
 */
export function mulawRms(mulaw: Uint8Array, start = 0, end = mulaw.length): number {
  if (end <= start) return 0;
  let sum = 0;
  for (let i = start; i < end; i++) {
    const sample = DECODE[mulaw[i]!]!;
    sum += sample * sample;
  }
  return Math.sqrt(sum / (end - start));
}

/**
 * Pads audio with μ-law silence to a whole number of 20 ms frames: reports say Twilio may drop a
 * trailing partial frame (docs/protocols.md "Lessons from open-source voice pipelines"). Returns the input itself when already aligned.
 */
export function padToFrame(mulaw: Uint8Array): Uint8Array {
  const remainder = mulaw.length % FRAME_BYTES;
  if (remainder === 0) return mulaw;
  const out = new Uint8Array(mulaw.length + FRAME_BYTES - remainder).fill(MULAW_SILENCE);
  out.set(mulaw);
  return out;
}

/** `ms` of μ-law silence, rounded up to whole frames. */
export function mulawSilence(ms: number): Uint8Array {
  const frames = Math.max(0, Math.ceil(ms / FRAME_MS));
  return new Uint8Array(frames * FRAME_BYTES).fill(MULAW_SILENCE);
}
