import { describe, expect, it } from 'vitest';
import type { components } from '../../../console/src/api/schema';
import { duration, offset } from '../../../console/src/pages/parts/format';
import { ANALYSIS_WAIT_MS, noRecordingReason, refreshEvery } from '../../../console/src/pages/parts/recording';
import { transcriptRows } from '../../../console/src/pages/parts/transcript';

type Entry = components['schemas']['TranscriptEntry'];
type CallDetail = components['schemas']['CallDetail'];

const line = (role: Entry['role'], start_ms: number, end_ms: number, interrupted = false): Entry => ({
  role,
  text: `${role} ${start_ms}`,
  start_ms,
  end_ms,
  interrupted,
});

describe("a call's transcript", () => {
  it('puts each turn’s latency on the first reply after the caller’s last words before its end of turn', () => {
    // Arrange: call 42 of a local run (greeting in two lines, a tool line between two replies)
    const transcript = [
      line('assistant', 385, 5830),
      line('assistant', 5842, 6805),
      line('user', 7585, 12700),
      line('assistant', 13581, 16646),
      line('tool', 16678, 16678),
      line('assistant', 16863, 23941),
      line('user', 25729, 27040),
      line('assistant', 27929, 31049),
    ];
    const turns = [
      { at_ms: 13423, latency_ms: 881 },
      { at_ms: 27747, latency_ms: 889, held: true },
    ];
    // Act
    const rows = transcriptRows(transcript, turns);
    // Assert
    expect(rows.map((row) => [row.start_ms, row.turn, row.latencyMs, row.held])).toEqual([
      [385, undefined, undefined, undefined],
      [5842, undefined, undefined, undefined],
      [7585, undefined, undefined, undefined],
      [13581, 1, 881, undefined],
      [16678, undefined, undefined, undefined],
      [16863, undefined, undefined, undefined],
      [25729, undefined, undefined, undefined],
      [27929, 2, 889, true],
    ]);
  });

  it('keeps interruption marks and leaves off turns it cannot place', () => {
    const transcript = [line('assistant', 0, 2000, true), line('user', 1500, 3000)];
    const rows = transcriptRows(transcript, [
      { at_ms: null, latency_ms: 700 },
      { at_ms: 3200, latency_ms: 650 },
    ]);
    expect(rows[0]?.interrupted).toBe(true);
    expect(rows.some((row) => row.turn !== undefined)).toBe(false);
  });

  it('does not change the transcript it was given', () => {
    const transcript = [line('user', 0, 1000), line('assistant', 1500, 2000)];
    transcriptRows(transcript, [{ at_ms: 1100, latency_ms: 500 }]);
    expect(transcript[1]).not.toHaveProperty('turn');
  });
});

describe('a call without a recording', () => {
  const ended = {
    status: 'ended',
    started_at: '2026-11-29T14:00:00.000Z',
    expires_at: null,
    recording_url: null,
  } as unknown as CallDetail;
  const now = Date.parse('2026-11-29T15:00:00.000Z');

  it.each([
    ['under way', { status: 'in_progress' }, undefined, /once the call ends/],
    ['never connected', { started_at: null }, undefined, /never connected/],
    ['expired', { expires_at: '2026-11-29T14:30:00.000Z' }, undefined, /deleted when the call expired/],
    ['in HIPAA mode', {}, { recording: true, hipaa: true }, /HIPAA/],
    ['with recording off', {}, { recording: false, hipaa: false }, /advanced.recording\) is off/],
    ['with recording on', {}, { recording: true, hipaa: false }, /No recording was stored/],
  ])('says why when %s', (_case, change, advanced, reason) => {
    expect(noRecordingReason({ ...ended, ...change } as CallDetail, advanced, now)).toMatch(reason);
  });
});

describe("a call's page", () => {
  const endedAt = '2026-11-29T14:00:00.000Z';
  const at = (ms: number) => Date.parse(endedAt) + ms;
  const connected = { status: 'ended', started_at: '2026-11-29T13:59:00.000Z', ended_at: endedAt, analysis: {} } as const;

  it.each(['queued', 'ringing', 'in_progress'] as const)('re-reads a call that is %s', (status) => {
    expect(refreshEvery({ ...connected, status, ended_at: null }, at(0), 2000)).toBe(2000);
  });

  it('keeps re-reading an ended call until its analysis is in, for at most two minutes', () => {
    expect(refreshEvery(connected, at(5_000), 2000)).toBe(2000);
    expect(refreshEvery(connected, at(ANALYSIS_WAIT_MS), 2000)).toBeUndefined();
    expect(refreshEvery({ ...connected, analysis: { summary: 'Booked.' } }, at(5_000), 2000)).toBeUndefined();
    expect(refreshEvery({ ...connected, analysis: { error: 'model down' } }, at(5_000), 2000)).toBeUndefined();
  });

  it('does not wait for an analysis a call that never connected will not get', () => {
    expect(refreshEvery({ ...connected, started_at: null }, at(1_000), 2000)).toBeUndefined();
  });
});

describe('call times', () => {
  it.each([
    [0, '0:00'],
    [46, '0:46'],
    [61.4, '1:01'],
    [3725, '1:02:05'],
  ])('write %d s as %s', (seconds, text) => {
    expect(duration(seconds)).toBe(text);
  });

  it.each([
    [385, '0:00.4'],
    [13581, '0:13.6'],
    [59_960, '1:00.0'],
    [125_000, '2:05.0'],
  ])('write %d ms from the start as %s', (ms, text) => {
    expect(offset(ms)).toBe(text);
  });
});
