import { describe, expect, it } from 'vitest';
import { Notice } from '../../../../media-service/src/call/notice';
import { utterance as spoken } from '../support/utterance';

const utterance = (fields: Parameters<typeof spoken>[0] = {}) =>
  spoken({ kind: 'notice', text: 'Just so you know, this call is recorded.', ...fields });

const BOTH = { recording: true, disclosure: true };

describe('Notice', () => {
  it('is due until some saying of it is heard to the end, and protects the assistant while it plays', () => {
    // Arrange
    const notice = new Notice('Just so you know, this call is recorded.', BOTH);
    const first = utterance();
    // Act + Assert
    expect([notice.due, notice.playing]).toEqual([true, false]);
    notice.saying(first);
    expect([notice.due, notice.playing]).toEqual([false, true]);
    Object.assign(first, { bytesReceived: 8000, bytesPlayed: 4000, flushed: true, finished: true, interrupted: true });
    expect([notice.due, notice.playing, notice.heard]).toEqual([true, false, false]);
    const second = utterance({ id: 2 });
    notice.saying(second);
    Object.assign(second, { bytesReceived: 8000, bytesPlayed: 8000, flushed: true, finished: true, playedAt: 1000 });
    expect([notice.due, notice.playing, notice.heard]).toEqual([false, false, true]);
    expect(notice.outcome()).toEqual({ recording_notice_heard: true, ai_disclosure_heard: true });
  });

  it('a request not yet answered protects too; dropped, it is due again', () => {
    // Arrange
    const notice = new Notice('Just so you know, this call is recorded.', BOTH);
    // Act + Assert
    notice.requested();
    expect([notice.due, notice.playing]).toEqual([false, true]);
    notice.dropped();
    expect([notice.due, notice.playing]).toEqual([true, false]);
  });

  it.each([
    { name: 'no notice at all', text: '', due: BOTH, outcome: { recording_notice_heard: null, ai_disclosure_heard: null } },
    {
      name: 'the disclosure only',
      text: 'Just so you know, I am an AI.',
      due: { recording: false, disclosure: true },
      outcome: { recording_notice_heard: null, ai_disclosure_heard: false },
    },
    {
      name: 'the recording notice only',
      text: 'Just so you know, this call is recorded.',
      due: { recording: true, disclosure: false },
      outcome: { recording_notice_heard: false, ai_disclosure_heard: null },
    },
  ])('outcome with $name, never said', ({ text, due, outcome }) => {
    // Arrange
    const notice = new Notice(text, due);
    // Act + Assert
    expect(notice.outcome()).toEqual(outcome);
    expect(notice.due).toBe(text !== '');
  });
});
