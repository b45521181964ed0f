import { describe, expect, it } from 'vitest';
import { AMD_WATCH_EVERY_MS, AMD_WATCH_FOR_MS, amdForCall, watchAnsweredBy } from '../../../../media-service/src/call/amd-watch';
import type { CallContext } from '../../../../media-service/src/call/call-context';
import type { CallRecords } from '../../../../media-service/src/ports/call-records';
import type { AnsweredBy } from '../../../../media-service/src/ports/telephony';
import { FakeClock } from '../support/fake-clock';

/** A call record whose stored verdict the test sets; counts the reads. */
function records() {
  const state = { verdict: undefined as string | undefined, reads: 0 };
  const calls: CallRecords = {
    attachStream: () => Promise.reject(new Error('not part of this test')),
    answeredBy: () => {
      state.reads++;
      return Promise.resolve(state.verdict);
    },
  };
  return { state, calls };
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

async function advance(clock: FakeClock, ms: number): Promise<void> {
  for (let at = 0; at < ms; at += AMD_WATCH_EVERY_MS) {
    clock.advance(AMD_WATCH_EVERY_MS);
    await settle();
  }
}

describe('watchAnsweredBy: a verdict stored by another media task', () => {
  it('is delivered once, at the first read after it was stored, and the reads stop', async () => {
    // Arrange
    const clock = new FakeClock();
    const { state, calls } = records();
    const got: AnsweredBy[] = [];
    watchAnsweredBy({ calls, businessId: 1, callId: 7, timers: clock.timers, deliver: (v) => void got.push(v) });
    await advance(clock, 3000);
    // Act
    state.verdict = 'machine_end_beep';
    await advance(clock, 5000);
    // Assert
    expect(got).toEqual(['machine_end_beep']);
    expect(state.reads).toBe(4);
  });

  it('gives up after the carrier’s detection window, and reads nothing once stopped', async () => {
    // Arrange
    const clock = new FakeClock();
    const first = records();
    const second = records();
    watchAnsweredBy({ calls: first.calls, businessId: 1, callId: 7, timers: clock.timers, deliver: () => undefined });
    const stop = watchAnsweredBy({ calls: second.calls, businessId: 1, callId: 8, timers: clock.timers, deliver: () => undefined });
    // Act
    stop();
    await advance(clock, AMD_WATCH_FOR_MS + 10_000);
    // Assert
    expect(first.state.reads).toBe(AMD_WATCH_FOR_MS / AMD_WATCH_EVERY_MS);
    expect(second.state.reads).toBe(0);
  });

  it('ignores a stored value that is not a verdict', async () => {
    // Arrange
    const clock = new FakeClock();
    const { state, calls } = records();
    const got: AnsweredBy[] = [];
    state.verdict = 'robot';
    watchAnsweredBy({ calls, businessId: 1, callId: 7, timers: clock.timers, deliver: (v) => void got.push(v) });
    // Act
    await advance(clock, 3000);
    // Assert
    expect(got).toEqual([]);
  });
});

describe('amdForCall: the verdict when the conversation starts', () => {
  const context = (direction: 'inbound' | 'outbound', answered_by?: string, voicemail_detection = true) =>
    ({ call: { id: 7, business_id: 1, direction, answered_by }, config: { advanced: { voicemail_detection } } }) as unknown as CallContext;

  it.each([
    {
      name: 'a verdict that came before the conversation is replayed to it',
      ctx: context('outbound'),
      known: 'human',
      expected: ['replay human'],
      watching: false,
    },
    {
      name: 'one already on the record is delivered',
      ctx: context('outbound', 'machine_start'),
      known: undefined,
      expected: ['deliver machine_start'],
      watching: false,
    },
    { name: 'none yet: the record is watched', ctx: context('outbound'), known: undefined, expected: [], watching: true },
    { name: 'an inbound call is never screened', ctx: context('inbound'), known: undefined, expected: [], watching: false },
    {
      name: 'nor an outbound call without voicemail_detection',
      ctx: context('outbound', undefined, false),
      known: undefined,
      expected: [],
      watching: false,
    },
  ] as const)('$name', ({ ctx, known, expected, watching }) => {
    // Arrange
    const clock = new FakeClock();
    const { calls } = records();
    const seen: string[] = [];
    // Act
    const stop = amdForCall(ctx, {
      known,
      calls,
      timers: clock.timers,
      replay: (v) => void seen.push(`replay ${v}`),
      deliver: (v) => void seen.push(`deliver ${v}`),
    });
    stop?.();
    // Assert
    expect(seen).toEqual(expected);
    expect(stop !== undefined).toBe(watching);
  });
});
