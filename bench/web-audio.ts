/**
 * `npm run bench:web-audio`: what a web call's audio conversion costs per 20 ms frame
 * (docs/performance.md "Issue 32: web calls"), each way exactly as `WebCallSocket` does it:
 * in, 640 bytes of 16 kHz PCM16LE → 47-tap low-pass and decimation → 160 bytes of μ-law;
 * out, 160 bytes of μ-law → PCM → linear interpolation → 640 bytes. Speech-like input, so the
 * μ-law tables see real values. BENCH_FRAMES (50000: 1000 s of audio) per run, BENCH_REPEATS (5)
 * runs; prints the median and the spread, and the share of one core a call's two directions take.
 */
import { decodeMulaw, encodeMulaw } from '../media-service/src/audio/mulaw';
import { Downsampler, Upsampler } from '../media-service/src/audio/resample';
import { speechLike } from '../media-service/src/audio/tone';

const FRAMES = Number(process.env.BENCH_FRAMES ?? 50_000);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);

/** Microseconds per frame of `step` over FRAMES frames. */
function timePerFrame(step: (i: number) => number): number {
  let sink = 0;
  const start = performance.now();
  for (let i = 0; i < FRAMES; i++) sink += step(i);
  const us = ((performance.now() - start) * 1000) / FRAMES;
  if (sink === -1) console.log(sink); // keeps the work observable
  return us;
}

function main(): void {
  // 2 s of speech-like μ-law, as 8 kHz and (through the upsampler) 16 kHz PCM16LE frames.
  const speech = speechLike(2000, 7);
  const pcm16 = new Upsampler().process(decodeMulaw(speech));
  const inFrames = Array.from({ length: 100 }, (_, f) => Buffer.from(pcm16.buffer, f * 640, 640));
  const outFrames = Array.from({ length: 100 }, (_, f) => speech.subarray(f * 160, f * 160 + 160));
  const down = new Downsampler();
  const up = new Upsampler();
  const inbound = (i: number) => {
    const bytes = inFrames[i % 100]!;
    return encodeMulaw(down.process(new Int16Array(bytes.buffer, bytes.byteOffset, 320))).length;
  };
  const outbound = (i: number) => {
    const pcm = up.process(decodeMulaw(outFrames[i % 100]!));
    return Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength).length;
  };
  timePerFrame(inbound);
  timePerFrame(outbound); // warm-up: the JIT settles first
  const runs = Array.from({ length: REPEATS }, () => ({ in: timePerFrame(inbound), out: timePerFrame(outbound) }));
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const spread = (values: number[]) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;
  const ins = runs.map((run) => run.in);
  const outs = runs.map((run) => run.out);
  const both = median(ins) + median(outs);
  console.log(`web audio, per 20 ms frame (${REPEATS} runs of ${FRAMES} frames, node ${process.version}):`);
  console.log(`  in  (16 kHz PCM → 8 kHz μ-law): median ${median(ins).toFixed(2)} µs (runs ${spread(ins)})`);
  console.log(`  out (8 kHz μ-law → 16 kHz PCM): median ${median(outs).toFixed(2)} µs (runs ${spread(outs)})`);
  console.log(`  both ways: ${both.toFixed(2)} µs a frame = ${((both / 20_000) * 100).toFixed(3)} % of one core per call`);
}

main();
