import { describe, expect, it } from 'vitest';
import { Playout } from '../../../web-client/src/playout';
import { sine } from './signals';

const RATE = 48000;
const QUANTUM = 128;
/** 16 kHz samples in `ms`. */
const samples = (ms: number) => new Float32Array(ms * 16).fill(0.25);

/** Renders quanta until `until` is true (or `max` quanta); returns the marks echoed and the quanta rendered. */
function renderUntil(playout: Playout, until: (echoed: string[]) => boolean, max = 10_000) {
  const echoed: string[] = [];
  const out = new Float32Array(QUANTUM);
  let quanta = 0;
  while (!until(echoed) && quanta < max) {
    echoed.push(...playout.render(out));
    quanta++;
  }
  return { echoed, quanta, out };
}

describe('Playout', () => {
  it('plays silence until 60 ms are buffered, then the audio', () => {
    // Arrange
    const playout = new Playout(RATE);
    const out = new Float32Array(QUANTUM);
    playout.push(samples(40));

    // Act and Assert: 40 ms waits (briefly), 60 ms plays.
    playout.render(out);
    expect(out.every((s) => s === 0)).toBe(true);
    playout.push(samples(20));
    playout.render(out);
    expect(out.at(-1)).toBeCloseTo(0.25, 6);
    expect(playout.stats().playedMs).toBeGreaterThan(0);
  });

  it('starts anyway once audio has waited 60 ms under the start level', () => {
    const playout = new Playout(RATE);
    playout.push(samples(20));
    expect(playout.mark('short')).toEqual([]);
    const { echoed, quanta } = renderUntil(playout, (marks) => marks.length > 0);
    expect(echoed).toEqual(['short']);
    // 60 ms of waiting (22.5 quanta at 48 kHz), then 20 ms of playing (7.5 quanta).
    expect(quanta).toBeGreaterThanOrEqual(30);
    expect(quanta).toBeLessThanOrEqual(32);
  });

  it('echoes a mark when the samples before it have played, not before', () => {
    // Arrange
    const playout = new Playout(RATE);
    playout.push(sine(16000, 440, 16000));

    // Act
    expect(playout.mark('one-second')).toEqual([]);
    const { echoed, quanta } = renderUntil(playout, (marks) => marks.length > 0);

    // Assert: a second of audio at 48 kHz is 375 quanta; the position is exact.
    expect(echoed).toEqual(['one-second']);
    expect(quanta).toBe(375);
    expect(playout.stats()).toMatchObject({ playedMs: 1000, bufferedMs: 0 });
  });

  it('echoes a mark at once when nothing is left to play', () => {
    const playout = new Playout(RATE);
    expect(playout.mark('first')).toEqual(['first']);
    playout.push(samples(100));
    renderUntil(playout, () => playout.stats().bufferedMs === 0);
    expect(playout.mark('after')).toEqual(['after']);
  });

  it('on clear drops the buffer and returns every pending mark, in order', () => {
    // Arrange
    const playout = new Playout(RATE);
    playout.push(samples(1000));
    playout.mark('a');
    playout.push(samples(1000));
    playout.mark('b');
    renderUntil(playout, () => playout.stats().playedMs >= 100);
    const played = playout.stats().playedMs;

    // Act
    const echoed = playout.clear();

    // Assert: silence at once, the same count played, and new audio buffers from the start again.
    expect(echoed).toEqual(['a', 'b']);
    expect(playout.stats()).toMatchObject({ bufferedMs: 0, playedMs: played });
    const { out } = renderUntil(playout, (_marks) => false, 1);
    expect(out.every((s) => s === 0)).toBe(true);
    playout.push(samples(100));
    playout.mark('c');
    expect(renderUntil(playout, (marks) => marks.length > 0).echoed).toEqual(['c']);
  });

  it('grows the start level by 20 ms per underrun, to at most 200 ms', () => {
    // Arrange
    const playout = new Playout(RATE);
    const targets: number[] = [];

    // Act: twelve times, audio runs dry and comes back 10 ms later.
    for (let i = 0; i < 12; i++) {
      playout.push(samples(200));
      renderUntil(playout, () => playout.stats().bufferedMs === 0);
      renderUntil(playout, () => false, 4);
      playout.push(samples(1));
      targets.push(playout.stats().targetMs);
    }

    // Assert
    expect(targets).toEqual([80, 100, 120, 140, 160, 180, 200, 200, 200, 200, 200, 200]);
    expect(playout.stats().underruns).toBe(12);
  });

  it('counts no underrun when audio comes back after a pause (the next reply)', () => {
    const playout = new Playout(RATE);
    playout.push(samples(200));
    renderUntil(playout, () => playout.stats().bufferedMs === 0);
    renderUntil(playout, () => false, 200);
    playout.push(samples(200));
    expect(playout.stats()).toMatchObject({ underruns: 0, targetMs: 60 });
  });

  it('plays a tone at its pitch, upsampled', () => {
    const playout = new Playout(44100);
    playout.push(sine(16000, 1000, 16000));
    const out = new Float32Array(44100 - 128 * 40);
    for (let at = 0; at < out.length; at += QUANTUM) playout.render(out.subarray(at, at + QUANTUM));
    const audible = out.subarray(128 * 10);
    let crossings = 0;
    for (let i = 1; i < audible.length; i++) if (audible[i - 1]! < 0 && audible[i]! >= 0) crossings++;
    expect((crossings * 44100) / audible.length).toBeCloseTo(1000, -1);
  });
});
