/**
 * PCM signed 16-bit little-endian, the protocol's audio, to and from the Web Audio API's floats.
 * DataView, not Int16Array: an Int16Array reads in the machine's byte order, and the wire's is fixed.
 */

/** One server audio frame as floats in [-1, 1); undefined for an odd byte count (not whole samples). */
export function decodePcm16(bytes: ArrayBuffer): Float32Array | undefined {
  if (bytes.byteLength % 2 !== 0) return undefined;
  const view = new DataView(bytes);
  const samples = new Float32Array(bytes.byteLength / 2);
  for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(i * 2, true) / 32768;
  return samples;
}

/** Floats to a PCM16LE frame, clipped to the 16-bit range. */
export function encodePcm16(samples: Float32Array): ArrayBuffer {
  const bytes = new ArrayBuffer(samples.length * 2);
  const view = new DataView(bytes);
  for (let i = 0; i < samples.length; i++) {
    const clipped = Math.max(-1, Math.min(1, samples[i]!));
    view.setInt16(i * 2, Math.round(clipped < 0 ? clipped * 32768 : clipped * 32767), true);
  }
  return bytes;
}

/** Root mean square of a block, 0 (silence) to 1 (full scale): what a level meter shows. */
export function rms(samples: Float32Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return Math.sqrt(sum / samples.length);
}
