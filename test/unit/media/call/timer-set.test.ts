import { describe, expect, it } from 'vitest';
import { TimerSet } from '../../../../media-service/src/call/timer-set';
import { FakeClock } from '../support/fake-clock';

describe('TimerSet', () => {
  it('replaces a timer by name, clears all but the kept ones, and bounds a wait', async () => {
    // Arrange
    const clock = new FakeClock();
    const timers = new TimerSet(clock.timers);
    const fired: string[] = [];
    // Act
    timers.set('a', 100, () => fired.push('a1'));
    timers.set('a', 200, () => fired.push('a2'));
    timers.set('keep', 50, () => fired.push('keep'));
    timers.set('drop', 50, () => fired.push('drop'));
    timers.clear(['keep', 'a']);
    clock.advance(300);
    const waited = timers.waitAtMost(new Promise<void>(() => undefined), 1000);
    clock.advance(1000);
    await waited;
    // Assert
    expect(fired).toEqual(['keep', 'a2']);
  });

  it('cancel stops one timer; a wait ends early when its promise settles', async () => {
    // Arrange
    const clock = new FakeClock();
    const timers = new TimerSet(clock.timers);
    const fired: string[] = [];
    let settled = false;
    // Act
    timers.set('a', 100, () => fired.push('a'));
    timers.set('b', 100, () => fired.push('b'));
    timers.cancel('a');
    timers.cancel('missing');
    clock.advance(100);
    await timers.waitAtMost(Promise.resolve(), 10_000).then(() => (settled = true));
    // Assert
    expect(fired).toEqual(['b']);
    expect(settled).toBe(true);
  });
});
