/**
 * The microphone side of a call: the AudioContext's blocks in, 20 ms PCM16LE frames at 16 kHz
 * out, each with its level. Pure (no DOM): the capture worklet runs it, the unit tests feed it.
 */
import { encodePcm16, rms } from './pcm';
import { SAMPLE_RATE } from './protocol';
import { StreamResampler } from './resampler';

/** 20 ms at 16 kHz: 320 samples, 640 bytes, the frame the protocol recommends. */
export const FRAME_SAMPLES = SAMPLE_RATE / 50;

/** A frame ready to send, and its level (RMS, 0 to 1) for a meter. */
export interface CapturedFrame {
  frame: ArrayBuffer;
  level: number;
}

/** Turns the context's blocks into protocol frames; while muted, frames are silence. */
export class Capture {
  muted = false;
  private readonly resampler: StreamResampler;
  private readonly converted: Float32Array;
  private readonly pending = new Float32Array(FRAME_SAMPLES);
  private filled = 0;

  constructor(contextRate: number) {
    this.resampler = new StreamResampler(contextRate, SAMPLE_RATE);
    // One render quantum is 128 frames; room for more, in case a browser hands larger blocks.
    this.converted = new Float32Array(this.resampler.maxOutput(4096));
  }

  /** Takes one block at the context's rate; returns the frames it completed (usually none or one). */
  process(block: Float32Array): CapturedFrame[] {
    const frames: CapturedFrame[] = [];
    for (let start = 0; start < block.length; start += 4096) {
      const count = this.resampler.process(block.subarray(start, start + 4096), this.converted);
      for (let i = 0; i < count; i++) {
        this.pending[this.filled++] = this.muted ? 0 : this.converted[i]!;
        if (this.filled === FRAME_SAMPLES) {
          frames.push({ frame: encodePcm16(this.pending), level: rms(this.pending) });
          this.filled = 0;
        }
      }
    }
    return frames;
  }
}
