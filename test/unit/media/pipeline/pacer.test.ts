import { describe, expect, it } from 'vitest';
import { Pacer, PacerScheduler } from '../../../../media-service/src/pipeline/pacer';

function recorder() {
  const sent: string[] = [];
  return { sent, output: { media: (frame: Uint8Array) => void sent.push(`m${frame.length}`), mark: (name: string) => void sent.push(name) } };
}

describe('Pacer', () => {
  it('releases 20 ms frames in real time, at most the lead ahead', () => {
    // Arrange
    const { sent, output } = recorder();
    const pacer = new Pacer(output, 100);
    pacer.enqueue(new Uint8Array(160 * 20)); // 400 ms
    // Act
    pacer.tick(0);
    const atStart = sent.length;
    for (let t = 10; t <= 200; t += 10) pacer.tick(t);
    const after200 = sent.length;
    for (let t = 210; t <= 1000; t += 10) pacer.tick(t);
    // Assert
    expect(atStart).toBe(5); // 100 ms lead
    expect(after200).toBe(15); // 300 ms sent by t=200
    expect(sent).toHaveLength(20);
  });

  it('keeps marks in order after the audio before them', () => {
    // Arrange
    const { sent, output } = recorder();
    const pacer = new Pacer(output, 40);
    pacer.enqueue(new Uint8Array(320));
    pacer.mark('first');
    pacer.enqueue(new Uint8Array(170)); // padded to 2 frames
    pacer.mark('second');
    // Act
    pacer.tick(0);
    pacer.tick(100);
    // Assert
    expect(sent).toEqual(['m160', 'm160', 'first', 'm160', 'm160', 'second']);
  });

  it('clear drops queued audio and marks at once and reports what was dropped', () => {
    // Arrange
    const { sent, output } = recorder();
    const pacer = new Pacer(output, 20);
    pacer.enqueue(new Uint8Array(160 * 10));
    pacer.mark('end');
    pacer.tick(0);
    // Act
    const dropped = pacer.clear();
    pacer.tick(1000);
    // Assert
    expect(dropped).toBe(180);
    expect(sent).toEqual(['m160']);
    expect(pacer.queuedMs).toBe(0);
  });

  it('does not burst after a pause: the clock restarts at now', () => {
    // Arrange
    const { sent, output } = recorder();
    const pacer = new Pacer(output, 40);
    pacer.enqueue(new Uint8Array(160));
    pacer.tick(0);
    // Act
    pacer.enqueue(new Uint8Array(160 * 10));
    pacer.tick(5000);
    // Assert
    expect(sent).toHaveLength(1 + 2);
  });
});

describe('PacerScheduler', () => {
  it('drives every pacer from one timer and stops it when the last call leaves', () => {
    // Arrange
    let now = 0;
    let onTick: (() => void) | undefined;
    let stopped = 0;
    const scheduler = new PacerScheduler(() => now, { start: (_ms, fn) => { onTick = fn; return () => void stopped++; } });
    const a = recorder();
    const b = recorder();
    const pacerA = new Pacer(a.output, 20);
    const pacerB = new Pacer(b.output, 20);
    pacerA.enqueue(new Uint8Array(160 * 3));
    pacerB.enqueue(new Uint8Array(160 * 3));
    // Act
    const removeA = scheduler.add(pacerA);
    const removeB = scheduler.add(pacerB);
    onTick!();
    now = 20;
    onTick!();
    removeA();
    removeB();
    // Assert
    expect(a.sent).toHaveLength(2);
    expect(b.sent).toHaveLength(2);
    expect(stopped).toBe(1);
  });
});
