import { describe, expect, it, vi } from 'vitest';
import type { SessionHandle } from '../../../../media-service/src/call/session-types';
import { SessionRegistry } from '../../../../media-service/src/server/session-registry';

/** A session handle whose end the test decides. */
function handle(callId: number) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const session: SessionHandle = { callId, businessId: 1, onAmd: vi.fn(), stop: vi.fn(), done };
  return { session, finish };
}

describe('SessionRegistry', () => {
  it('keeps the first session of a call in the index when a second stream for it starts and is refused', async () => {
    // Arrange
    const registry = new SessionRegistry();
    const first = handle(7);
    const second = handle(7);
    registry.add(first.session);
    // Act
    registry.add(second.session);
    const duringSecond = registry.get(7);
    second.finish();
    await second.session.done;
    // Assert
    expect(duringSecond).toBe(first.session);
    expect(registry.get(7)).toBe(first.session);
    expect(registry.size).toBe(1);
  });

  it('drains every running session, a refused latecomer included', async () => {
    // Arrange
    const registry = new SessionRegistry({ timer: () => () => undefined });
    const first = handle(8);
    const second = handle(8);
    registry.add(first.session);
    registry.add(second.session);
    let drained = false;
    // Act
    const drain = registry.drain(1000).then(() => (drained = true));
    first.finish();
    await first.session.done;
    await Promise.resolve();
    const afterFirst = drained;
    second.finish();
    await drain;
    // Assert
    expect(afterFirst).toBe(false);
    expect(registry.size).toBe(0);
    expect(registry.get(8)).toBeUndefined();
  });
});
