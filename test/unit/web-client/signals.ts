/** Test signals and measures for the audio modules. */

/** `count` samples of a sine at `hz`, sampled at `rate`. */
export function sine(rate: number, hz: number, count: number, amplitude = 0.5): Float32Array {
  return Float32Array.from({ length: count }, (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / rate));
}

/** A sine's amplitude, from its RMS. */
export function amplitude(samples: Float32Array): number {
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return Math.sqrt((2 * sum) / samples.length);
}

/** Upward zero crossings per second: a pure tone's frequency. */
export function frequency(samples: Float32Array, rate: number): number {
  let crossings = 0;
  for (let i = 1; i < samples.length; i++) if (samples[i - 1]! < 0 && samples[i]! >= 0) crossings++;
  return (crossings * rate) / samples.length;
}

/** Feeds `input` to `process` in blocks of `size`, and joins what comes out. */
export function inBlocks(input: Float32Array, size: number, process: (block: Float32Array) => Float32Array): Float32Array {
  const parts: Float32Array[] = [];
  for (let at = 0; at < input.length; at += size) parts.push(process(input.subarray(at, at + size)));
  const out = new Float32Array(parts.reduce((n, part) => n + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
