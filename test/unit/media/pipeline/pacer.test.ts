import { describe, expect, it } from 'vitest';
import { mixInto, type FrameSource } from '../../../../media-service/src/audio/mix';
import { decodeSample, encodeSample, FRAME_BYTES } from '../../../../media-service/src/audio/mulaw';
import { Pacer, PacerScheduler, type PacerSink, type Ticker } from '../../../../media-service/src/pipeline/pacer';
import { FakeClock } from '../support/fake-clock';
import { captureLogger } from '../../../support/capture-logger';

type Sent = { kind: 'audio'; frame: Uint8Array; atMs: number } | { kind: 'mark'; name: string } | { kind: 'clear' };

/** A sink that records everything with the time of the tick that sent it. */
function recorder() {
  const sent: Sent[] = [];
  let now = 0;
  const sink: PacerSink = {
    sendAudio: (frame) => void sent.push({ kind: 'audio', frame, atMs: now }),
    sendMark: (name) => void sent.push({ kind: 'mark', name }),
    clear: () => void sent.push({ kind: 'clear' }),
  };
  const tickAt = (pacer: Pacer, ms: number) => {
    now = ms;
    pacer.tick(ms);
  };
  const audio = () => sent.filter((item): item is Extract<Sent, { kind: 'audio' }> => item.kind === 'audio');
  const shape = () => sent.map((item) => (item.kind === 'audio' ? `a${item.frame.length}` : item.kind === 'mark' ? item.name : 'clear'));
  return { sent, sink, tickAt, audio, shape };
}

/** Ticks every 10 ms over [from, to]. */
function run(tickAt: (pacer: Pacer, ms: number) => void, pacer: Pacer, from: number, to: number): void {
  for (let t = from; t <= to; t += 10) tickAt(pacer, t);
}

const tone = (sample: number, bytes: number) => new Uint8Array(bytes).fill(encodeSample(sample));

/** A background that is one constant byte, so mixed frames can be predicted exactly. */
const constantBackground = (sample: number): FrameSource => ({
  nextFrame: (out = new Uint8Array(FRAME_BYTES)) => out.fill(encodeSample(sample)),
});

describe('Pacer', () => {
  it('releases 20 ms frames in real time, never more than the lead ahead', () => {
    // Arrange
    const { sink, tickAt, audio } = recorder();
    const pacer = new Pacer(sink, { leadMs: 100 });
    pacer.enqueue(tone(4000, FRAME_BYTES * 50)); // 1 s
    // Act
    run(tickAt, pacer, 0, 1200);
    // Assert
    const frames = audio();
    expect(frames).toHaveLength(50);
    expect(frames.every((f) => f.frame.length === FRAME_BYTES)).toBe(true);
    expect(frames.filter((f) => f.atMs === 0)).toHaveLength(2); // a 40 ms burst at most
    frames.forEach((f, i) => expect((i + 1) * 20 - f.atMs).toBeLessThanOrEqual(100));
    expect(pacer.stats().maxLeadMs).toBe(100);
    expect(pacer.stats()).toMatchObject({ voiceFramesSent: 50, underruns: 0 });
  });

  it('pads a partial tail with μ-law silence and keeps marks between the frames they follow', () => {
    // Arrange
    const { sink, tickAt, shape, audio } = recorder();
    const pacer = new Pacer(sink, { leadMs: 40 });
    pacer.enqueue(tone(4000, 320));
    pacer.mark('first');
    pacer.enqueue(tone(4000, 100));
    pacer.enqueue(tone(4000, 70)); // 170 bytes: one frame plus 10 bytes, padded on mark
    pacer.mark('second');
    // Act
    run(tickAt, pacer, 0, 200);
    // Assert
    expect(shape()).toEqual(['a160', 'a160', 'first', 'a160', 'a160', 'second']);
    const last = audio().at(-1)!.frame;
    expect([...last.subarray(10)].every((byte) => byte === 0xff)).toBe(true);
    expect(pacer.stats().marksSent).toBe(2);
  });

  it('tells mark-sent subscribers each mark as it leaves, before the sink, until they unsubscribe', () => {
    // Arrange
    const { sink, tickAt, shape } = recorder();
    const pacer = new Pacer(sink, { leadMs: 20 });
    const heard: string[] = [];
    const off = pacer.onMarkSent((name) => heard.push(`${name} (sink had ${shape().length})`));
    pacer.enqueue(tone(4000, 160));
    pacer.mark('first');
    pacer.enqueue(tone(4000, 160));
    pacer.mark('second');
    // Act
    tickAt(pacer, 0);
    off();
    tickAt(pacer, 20);
    // Assert
    expect(heard).toEqual(['first (sink had 1)']);
    expect(shape()).toEqual(['a160', 'first', 'a160', 'second']);
  });

  it('sends voice zero-copy at gain 1 and scaled at any other gain', () => {
    // Arrange
    const plain = recorder();
    const quiet = recorder();
    const source = tone(8000, FRAME_BYTES);
    const unity = new Pacer(plain.sink);
    const half = new Pacer(quiet.sink, { gain: 0.5 });
    unity.enqueue(source);
    half.enqueue(tone(8000, FRAME_BYTES));
    // Act
    plain.tickAt(unity, 0);
    quiet.tickAt(half, 0);
    // Assert
    expect(plain.audio()[0]!.frame.buffer).toBe(source.buffer);
    const scaled = decodeSample(quiet.audio()[0]!.frame[0]!);
    expect(Math.abs(scaled - 4000)).toBeLessThanOrEqual(4000 / 16 + 8);
  });

  it('sends background alone between replies with a small lead, and mixes it under voice', () => {
    // Arrange
    const { sink, tickAt, audio } = recorder();
    const pacer = new Pacer(sink, { background: constantBackground(300), backgroundLeadMs: 40 });
    // Act: 200 ms of nothing to say, then a reply
    run(tickAt, pacer, 0, 200);
    const idleFrames = audio().length;
    pacer.enqueue(tone(4000, FRAME_BYTES * 5));
    run(tickAt, pacer, 210, 400);
    // Assert
    expect(idleFrames).toBe(12); // 200 ms + the 40 ms background lead
    expect(pacer.stats().maxLeadMs).toBeGreaterThan(40); // voice may lead further than background
    const expectedVoice = mixInto(tone(4000, FRAME_BYTES), constantBackground(300).nextFrame());
    const voiceFrames = audio().filter((f) => f.frame[0] === expectedVoice[0]);
    expect(voiceFrames).toHaveLength(5);
    expect(pacer.stats()).toMatchObject({ voiceFramesSent: 5 });
    expect(pacer.stats().backgroundFramesSent).toBe(audio().length - 5);
    expect(audio().every((f) => f.frame.length === FRAME_BYTES)).toBe(true);
  });

  it('clear drops unsent audio and marks at once, reports them and forwards clear to the sink', () => {
    // Arrange
    const { sink, tickAt, shape } = recorder();
    const pacer = new Pacer(sink, { leadMs: 20 });
    pacer.enqueue(tone(4000, FRAME_BYTES * 10));
    pacer.mark('m1');
    pacer.enqueue(tone(4000, 80)); // a partial frame not yet padded
    pacer.mark('m2');
    tickAt(pacer, 0);
    // Act
    const dropped = pacer.clear();
    run(tickAt, pacer, 10, 1000);
    // Assert
    expect(dropped).toEqual({ droppedMs: 9 * 20 + 20, droppedMarks: ['m1', 'm2'] });
    expect(shape()).toEqual(['a160', 'clear']);
    expect(pacer.queuedMs).toBe(0);
    expect(pacer.leadAt(0)).toBe(0);
    expect(pacer.stats()).toMatchObject({ clears: 1, droppedMs: 200, marksSent: 0 });
  });

  it('after clear the next reply starts at once instead of waiting for the dropped lead', () => {
    // Arrange
    const { sink, tickAt, audio } = recorder();
    const pacer = new Pacer(sink, { leadMs: 100 });
    pacer.enqueue(tone(4000, FRAME_BYTES * 20));
    run(tickAt, pacer, 0, 100);
    pacer.clear();
    // Act
    pacer.enqueue(tone(1000, FRAME_BYTES));
    tickAt(pacer, 110);
    // Assert
    expect(audio().at(-1)!.atMs).toBe(110);
    expect(pacer.leadAt(110)).toBe(20);
  });

  it('counts an underrun when ticks arrive too late for the audio waiting', () => {
    // Arrange
    const { sink, tickAt } = recorder();
    const pacer = new Pacer(sink, { leadMs: 100 });
    pacer.enqueue(tone(4000, FRAME_BYTES * 50));
    run(tickAt, pacer, 0, 100); // lead full: playback reaches 200 ms
    // Act: the event loop stalls until t = 500
    tickAt(pacer, 500);
    // Assert
    expect(pacer.stats()).toMatchObject({ underruns: 1, underrunMs: 300 });
  });

  it('does not count a pause between replies as an underrun, nor burst after it', () => {
    // Arrange
    const { sink, tickAt, audio } = recorder();
    const pacer = new Pacer(sink, { leadMs: 40 });
    pacer.enqueue(tone(4000, FRAME_BYTES));
    tickAt(pacer, 0);
    // Act
    pacer.enqueue(tone(4000, FRAME_BYTES * 10));
    tickAt(pacer, 5000);
    // Assert
    expect(audio()).toHaveLength(1 + 2);
    expect(pacer.stats().underruns).toBe(0);
  });
});

describe('PacerScheduler', () => {
  /** The fake clock's ticker, counting how many intervals are running. */
  function countingTicker(clock: FakeClock) {
    const counts = { started: 0, stopped: 0 };
    const ticker: Ticker = {
      start: (everyMs, onTick) => {
        counts.started++;
        const stop = clock.ticker.start(everyMs, onTick);
        return () => {
          counts.stopped++;
          stop();
        };
      },
    };
    return { counts, ticker };
  }

  it('drives many pacers from one timer and stops it when the last one leaves', () => {
    // Arrange
    const clock = new FakeClock();
    const { counts, ticker } = countingTicker(clock);
    const scheduler = new PacerScheduler({ now: clock.now, ticker, tickMs: 10 });
    const calls = Array.from({ length: 100 }, () => recorder());
    const pacers = calls.map((call) => new Pacer(call.sink, { leadMs: 40 }));
    for (const pacer of pacers) pacer.enqueue(tone(4000, FRAME_BYTES * 10));
    // Act
    const removers = pacers.map((pacer) => scheduler.add(pacer));
    clock.advance(300);
    for (const remove of removers) remove();
    clock.advance(300);
    // Assert
    expect(counts).toEqual({ started: 1, stopped: 1 });
    expect(calls.every((call) => call.sent.length === 10)).toBe(true);
    expect(scheduler.size).toBe(0);
    expect(scheduler.stats()).toEqual({ ticks: 30, meanLateMs: 0, maxLateMs: 0 });
  });

  it('keeps ticking the others when one member throws, and logs it', () => {
    // Arrange
    const clock = new FakeClock();
    const logged = captureLogger();
    const scheduler = new PacerScheduler({ now: clock.now, ticker: clock.ticker, tickMs: 10, log: logged.log });
    const { sink, sent } = recorder();
    const pacer = new Pacer(sink);
    pacer.enqueue(tone(4000, FRAME_BYTES));
    scheduler.add({
      tick: () => {
        throw new Error('boom');
      },
    });
    scheduler.add(pacer);
    // Act
    clock.advance(10);
    // Assert
    expect(sent).toHaveLength(1);
    expect(logged.messages()).toEqual(['pacer.tick.failed']);
  });

  it('reports how late the shared tick fired', () => {
    // Arrange: a clock that jumps 25 ms past the nominal tick once
    let now = 0;
    let fire: (() => void) | undefined;
    const scheduler = new PacerScheduler({
      now: () => now,
      ticker: { start: (_ms, onTick) => ((fire = onTick), () => undefined) },
      tickMs: 10,
    });
    scheduler.add({ tick: () => undefined });
    // Act
    now = 10;
    fire!();
    now = 45;
    fire!();
    // Assert
    expect(scheduler.stats()).toEqual({ ticks: 2, meanLateMs: 12.5, maxLateMs: 25 });
  });
});
