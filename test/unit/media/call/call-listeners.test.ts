import { describe, expect, it, vi } from 'vitest';
import { encodeMulaw, MULAW_SILENCE } from '../../../../media-service/src/audio/mulaw';
import { CallListeners, type CallListener } from '../../../../media-service/src/call/call-listeners';

function listener() {
  return {
    observe: vi.fn<CallListener['observe']>(),
    audio: vi.fn<CallListener['audio']>(),
    ended: vi.fn<CallListener['ended']>(),
  };
}

const frame = () => new Uint8Array(160).fill(MULAW_SILENCE);

describe('CallListeners', () => {
  it('does nothing with audio while nobody listens', () => {
    const listeners = new CallListeners();
    listeners.assistant(encodeMulaw(new Int16Array(160).fill(2000)));
    listeners.caller(frame());
    // A listener who joins later hears nothing of what was queued before.
    const late = listener();
    listeners.add(late);
    listeners.caller(frame());
    expect(late.audio).toHaveBeenCalledTimes(1);
    expect([...(late.audio.mock.calls[0]![0] as Uint8Array)].every((b) => b === MULAW_SILENCE)).toBe(true);
  });

  it('fans the mixed audio and the observations out to every listener, until removed', () => {
    // Arrange
    const listeners = new CallListeners();
    const [a, b] = [listener(), listener()];
    const removeA = listeners.add(a);
    listeners.add(b);
    // Act
    listeners.caller(frame());
    listeners.observe({ type: 'state', state: 'thinking' });
    removeA();
    listeners.caller(frame());
    // Assert
    expect(a.audio).toHaveBeenCalledTimes(1);
    expect(b.audio).toHaveBeenCalledTimes(2);
    expect(a.observe).toHaveBeenCalledWith({ type: 'state', state: 'thinking' });
    expect(listeners.size).toBe(1);
  });

  it('tells every listener the end once, and one who joins after the end at once', () => {
    const listeners = new CallListeners();
    const a = listener();
    listeners.add(a);
    listeners.end('canceled');
    listeners.end('error');
    const late = listener();
    listeners.add(late);
    expect(a.ended.mock.calls).toEqual([['canceled']]);
    expect(late.ended.mock.calls).toEqual([['canceled']]);
    expect(listeners.size).toBe(0);
  });

  it("keeps a listener's failure from the call and from the other listeners", () => {
    const listeners = new CallListeners();
    const broken: CallListener = {
      observe: () => {
        throw new Error('gone');
      },
      audio: () => {
        throw new Error('gone');
      },
      ended: () => undefined,
    };
    const fine = listener();
    listeners.add(broken);
    listeners.add(fine);
    expect(() => listeners.observe({ type: 'state', state: 'listening' })).not.toThrow();
    expect(() => listeners.caller(frame())).not.toThrow();
    expect(fine.observe).toHaveBeenCalledTimes(1);
    expect(fine.audio).toHaveBeenCalledTimes(1);
  });
});
