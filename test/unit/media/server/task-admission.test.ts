import { describe, expect, it } from 'vitest';
import { SessionRegistry } from '../../../../media-service/src/server/session-registry';
import { TaskAdmission } from '../../../../media-service/src/server/task-admission';
import { holdSeat } from '../../../support/session-seat';

/** An admission of `maxCalls` over a fresh registry, with the pending-dial timers in the test's hand. */
function admissionOf(maxCalls: number) {
  const registry = new SessionRegistry();
  const lapses: Array<() => void> = [];
  const admission = new TaskAdmission({ maxCalls, registry, timer: (run) => (lapses.push(run), () => undefined) });
  return { registry, admission, lapses };
}

describe('TaskAdmission', () => {
  it('counts live sessions against the cap and frees room when one ends', async () => {
    // Arrange
    const { registry, admission } = admissionOf(2);
    const first = holdSeat(registry, 1);
    holdSeat(registry, 2);
    // Act
    const full = { room: admission.room(), hasRoom: admission.hasRoom() };
    first.end();
    await admission.whenRoom();
    // Assert
    expect(full).toEqual({ room: 0, hasRoom: false });
    expect(admission.room()).toBe(1);
  });

  it('counts a placed dial until its pending window lapses, and a dial that placed nothing not at all', () => {
    // Arrange
    const { admission, lapses } = admissionOf(3);
    // Act
    const placed = admission.beginDial();
    const deferred = admission.beginDial();
    const during = admission.load;
    placed(true);
    deferred(false);
    deferred(false);
    const afterSettling = admission.load;
    lapses.forEach((lapse) => lapse());
    // Assert
    expect([during, afterSettling, admission.load]).toEqual([2, 1, 0]);
    expect(lapses).toHaveLength(1);
  });

  it('wakes a waiter when a pending dial lapses, and at once when its signal aborts', async () => {
    // Arrange
    const { admission, lapses } = admissionOf(1);
    admission.beginDial()(true);
    const aborted = new AbortController();
    const woken: string[] = [];
    const waits = [
      admission.whenRoom().then(() => woken.push('room')),
      admission.whenRoom(aborted.signal).then(() => woken.push('aborted')),
    ];
    // Act
    aborted.abort();
    await waits[1];
    lapses[0]!();
    await waits[0];
    // Assert
    expect(woken).toEqual(['aborted', 'room']);
  });
});
