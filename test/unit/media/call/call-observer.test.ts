import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallTap, LISTENING_AFTER_MS, type CallObservation } from '../../../../media-service/src/call/call-observer';
import { newCounters } from '../../../../media-service/src/call/call-metrics';
import type { Utterance } from '../../../../media-service/src/call/speaker';

/** An utterance played to the end, finished when `finish()` is called. */
function utterance(text: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const played = {
    id: 1,
    kind: 'fixed',
    text,
    bytesReceived: 800,
    bytesPlayed: 800,
    flushed: true,
    finished: true,
    interrupted: false,
    playedAt: 1,
    done,
  };
  return { utterance: played as unknown as Utterance, finish };
}

afterEach(() => vi.useRealTimers());

describe('CallTap: the state a browser is told', () => {
  it('says listening once, after the last of a greeting and its notice, when the assistant stays quiet', async () => {
    // Arrange
    vi.useFakeTimers();
    const seen: CallObservation[] = [];
    const tap = new CallTap((o) => seen.push(o), newCounters());
    const greeting = utterance('Thanks for calling Acme.');
    const notice = utterance('This call is recorded.');
    // Act: the greeting ends and the notice begins at once
    tap.utterance(greeting.utterance);
    greeting.finish();
    await vi.advanceTimersByTimeAsync(0);
    tap.utterance(notice.utterance);
    await vi.advanceTimersByTimeAsync(LISTENING_AFTER_MS);
    const midway = seen.filter((o) => o.type === 'state').length;
    notice.finish();
    await vi.advanceTimersByTimeAsync(LISTENING_AFTER_MS);
    // Assert
    expect(midway).toBe(0);
    expect(seen.filter((o) => o.type === 'transcript').map((o) => (o as { text: string }).text)).toEqual([
      'Thanks for calling Acme.',
      'This call is recorded.',
    ]);
    expect(seen.filter((o) => o.type === 'state')).toEqual([{ type: 'state', state: 'listening' }]);
  });
});
