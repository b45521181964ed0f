import { describe, expect, it } from 'vitest';
import { describeCallError, IDLE, reduceCall, seconds, type CallEvent, type CallView } from '../../../console/src/talk/call-log';

function run(events: CallEvent[], from: CallView = IDLE): CallView {
  return events.reduce(reduceCall, from);
}

describe('reduceCall', () => {
  it('replaces a partial line by the next line of the same speaker, until one is final', () => {
    // Act
    const view = run([
      { type: 'clicked', at: 0 },
      { type: 'started', callId: 41 },
      { type: 'transcript', payload: { role: 'caller', text: 'I would', final: false }, at: 10 },
      { type: 'transcript', payload: { role: 'caller', text: 'I would like', final: false }, at: 20 },
      { type: 'transcript', payload: { role: 'caller', text: 'I would like a table.', final: true }, at: 30 },
      { type: 'transcript', payload: { role: 'caller', text: 'For two.', final: true }, at: 40 },
    ]);

    // Assert
    expect(view.phase).toBe('live');
    expect(view.callId).toBe(41);
    expect(view.lines.map((line) => [line.text, line.final])).toEqual([
      ['I would like a table.', true],
      ['For two.', true],
    ]);
    expect(new Set(view.lines.map((line) => line.key)).size).toBe(2);
  });

  it("keeps one speaker's partial line open while the other speaks, and marks an interrupted line", () => {
    const view = run([
      { type: 'clicked', at: 0 },
      { type: 'transcript', payload: { role: 'assistant', text: 'We open at', final: false }, at: 5 },
      { type: 'transcript', payload: { role: 'caller', text: 'Sorry', final: true }, at: 6 },
      { type: 'transcript', payload: { role: 'assistant', text: 'We open at nine', final: true, interrupted: true }, at: 7 },
    ]);
    expect(view.lines).toEqual([
      { key: 0, role: 'assistant', text: 'We open at nine', final: true, interrupted: true },
      { key: 1, role: 'caller', text: 'Sorry', final: true, interrupted: false },
    ]);
  });

  it.each([
    ['the first assistant line', { type: 'transcript', payload: { role: 'assistant', text: 'Hello', final: true }, at: 1840 }, 1840],
    ['the speaking state', { type: 'state', payload: { state: 'speaking' }, at: 912.4 }, 912],
    ['the speaking state, as a bare string', { type: 'state', payload: 'speaking', at: 700 }, 700],
  ] as const)('times the first words from the click by %s, once', (_name, first, ms) => {
    // Act
    const view = run([
      { type: 'clicked', at: 0 },
      { type: 'transcript', payload: { role: 'caller', text: 'hi', final: true }, at: 300 },
      { type: 'state', payload: { state: 'listening' }, at: 400 },
      first as CallEvent,
      { type: 'state', payload: { state: 'speaking' }, at: 5000 },
    ]);

    // Assert
    expect(view.firstWordsMs).toBe(ms);
  });

  it('lists tool calls and per-turn latency, and keeps the reason the call ended', () => {
    const view = run([
      { type: 'clicked', at: 0 },
      { type: 'started', callId: 7 },
      { type: 'tool', payload: { name: 'check_availability', arguments: { date: '2026-12-01' }, status: 'ok', result: { slots: [] } } },
      { type: 'latency', payload: { turn: 1, ms: 640 } },
      { type: 'latency', payload: { turn: 'x' } },
      { type: 'ended', payload: { reason: 'customer_ended_call' } },
    ]);
    expect(view.tools).toEqual([{ name: 'check_availability', status: 'ok', arguments: { date: '2026-12-01' }, result: { slots: [] } }]);
    expect(view.latencies).toEqual([{ turn: 1, ms: 640 }]);
    expect(view).toMatchObject({ phase: 'ended', endedReason: 'customer_ended_call', state: undefined });
  });

  it('keeps a failure when the end follows it, and a new click starts afresh', () => {
    const failed = run([
      { type: 'clicked', at: 0 },
      { type: 'started', callId: 7 },
      { type: 'error', payload: { code: 'at_capacity', message: 'busy' } },
      { type: 'ended', payload: { reason: 'error' } },
    ]);
    expect(failed.phase).toBe('failed');
    expect(failed.error).toMatch(/at capacity/);
    expect(reduceCall(failed, { type: 'clicked', at: 99 })).toEqual({ ...IDLE, phase: 'connecting', clickedAt: 99 });
  });
});

describe('describeCallError', () => {
  it.each([
    [{ status: 402, code: 'insufficient_minutes', message: 'No minutes', details: [] }, /No minutes are left/],
    [{ code: 'no_minutes', message: '' }, /No minutes are left/],
    [{ name: 'NotAllowedError', message: 'Permission denied' }, /refused the microphone/],
    [new Error('socket closed'), /^socket closed$/],
    ['origin_not_allowed', /not allowed to start web calls/],
    [undefined, /^The call failed\.$/],
  ])('%o', (payload, expected) => {
    expect(describeCallError(payload)).toMatch(expected);
  });
});

describe('seconds', () => {
  it('shows two decimals', () => {
    expect(seconds(843)).toBe('0.84 s');
    expect(seconds(2000)).toBe('2.00 s');
  });
});
