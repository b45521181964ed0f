import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { TranscriptEntrySchema } from '../../../../shared/domain/call';
import type { Utterance } from '../../../../media-service/src/call/speaker';
import { heardText, TranscriptLog } from '../../../../media-service/src/call/transcript-log';
import { utterance } from '../support/utterance';

const T0 = 10_000;

describe('heardText', () => {
  // 'Hello there friend' is 18 characters: estimated at 18 × 70 ms × 8 = 10080 bytes before it is flushed.
  describe.each<{ name: string; fields: Partial<Utterance>; expected: string }>([
    { name: 'nothing played', fields: { bytesReceived: 8000, flushed: true }, expected: '' },
    { name: 'all played', fields: { bytesReceived: 8000, bytesPlayed: 8000, flushed: true }, expected: 'Hello there friend' },
    { name: 'half of the flushed audio', fields: { bytesReceived: 8000, bytesPlayed: 4000, flushed: true }, expected: 'Hello' },
    { name: 'most of the flushed audio', fields: { bytesReceived: 8000, bytesPlayed: 7000, flushed: true }, expected: 'Hello there' },
    { name: 'inside the first word', fields: { bytesReceived: 8000, bytesPlayed: 800, flushed: true }, expected: '' },
    { name: 'not flushed: against the estimate', fields: { bytesReceived: 6000, bytesPlayed: 5040, flushed: false }, expected: 'Hello' },
    {
      name: 'not flushed: against more audio than estimated',
      fields: { bytesReceived: 20_160, bytesPlayed: 10_080, flushed: false },
      expected: 'Hello',
    },
  ])('$name', ({ fields, expected }) => {
    it(`is ${JSON.stringify(expected)}`, () => {
      // Arrange
      const u = utterance(fields);
      // Act
      const text = heardText(u);
      // Assert
      expect(text).toBe(expected);
    });
  });
});

describe('TranscriptLog.entries', () => {
  it('lists caller, tool and assistant lines in start order, in ms from the stream start, all schema-valid', () => {
    // Arrange
    const log = new TranscriptLog(T0);
    const greeting = utterance({
      kind: 'greeting',
      text: 'Hi, Acme Dental.',
      bytesReceived: 8000,
      bytesPlayed: 8000,
      flushed: true,
      finished: true,
      firstSentAt: T0 + 180,
      firstPlayedAt: T0 + 200,
      playedAt: T0 + 1200,
    });
    const reply = utterance({
      text: 'Booked for Monday.',
      bytesReceived: 8000,
      bytesPlayed: 8000,
      flushed: true,
      finished: true,
      firstSentAt: T0 + 4100,
      firstPlayedAt: T0 + 4150.4,
      playedAt: T0 + 5150.6,
    });
    log.utterance(greeting);
    log.user('Book me in for Monday', T0 + 1500, T0 + 3000);
    log.utterance(reply);
    log.tool('book_appointment({"day":"Monday"})', T0 + 3600);
    // Act
    const entries = log.entries(T0 + 6000);
    // Assert
    expect(entries).toEqual([
      { role: 'assistant', text: 'Hi, Acme Dental.', start_ms: 200, end_ms: 1200, interrupted: false },
      { role: 'user', text: 'Book me in for Monday', start_ms: 1500, end_ms: 3000, interrupted: false },
      { role: 'tool', text: 'book_appointment({"day":"Monday"})', start_ms: 3600, end_ms: 3600, interrupted: false },
      { role: 'assistant', text: 'Booked for Monday.', start_ms: 4150, end_ms: 5151, interrupted: false },
    ]);
    for (const entry of entries) expect(v.parse(TranscriptEntrySchema, entry)).toEqual(entry);
    expect(log.userTurns).toBe(1);
  });

  describe.each<{ name: string; fields: Partial<Utterance>; expected: object | undefined }>([
    {
      name: 'interrupted: cut to what was heard, ends where playback stopped',
      fields: {
        text: 'Hello there friend',
        bytesReceived: 8000,
        bytesPlayed: 4000,
        flushed: true,
        finished: true,
        interrupted: true,
        firstPlayedAt: T0 + 1000,
      },
      expected: { role: 'assistant', text: 'Hello', start_ms: 1000, end_ms: 1500, interrupted: true },
    },
    {
      name: 'still playing when the call ended: cut, flagged, ends at the call end',
      fields: { text: 'Hello there friend', bytesReceived: 8000, bytesPlayed: 7200, flushed: true, firstPlayedAt: T0 + 1000 },
      expected: { role: 'assistant', text: 'Hello there', start_ms: 1000, end_ms: 1800, interrupted: true },
    },
    {
      name: 'all audio heard, cut before its :end mark echoed: complete',
      fields: {
        text: 'Hello there friend',
        bytesReceived: 8000,
        bytesPlayed: 8000,
        flushed: true,
        finished: true,
        interrupted: false,
        firstPlayedAt: T0 + 500,
      },
      expected: { role: 'assistant', text: 'Hello there friend', start_ms: 500, end_ms: 1500, interrupted: false },
    },
    {
      name: 'sent but never heard: left out',
      fields: { bytesReceived: 8000, flushed: true, finished: true, interrupted: true, firstSentAt: T0 + 1000 },
      expected: undefined,
    },
    {
      name: 'heard only inside its first word: left out',
      fields: { bytesReceived: 8000, bytesPlayed: 800, flushed: true, finished: true, interrupted: true, firstPlayedAt: T0 + 1000 },
      expected: undefined,
    },
    {
      name: 'no text (audio without words): left out',
      fields: {
        text: '',
        bytesReceived: 800,
        bytesPlayed: 800,
        flushed: true,
        finished: true,
        firstPlayedAt: T0 + 1000,
        playedAt: T0 + 1100,
      },
      expected: undefined,
    },
    {
      name: 'never even sent: left out',
      fields: { finished: true, interrupted: true },
      expected: undefined,
    },
  ])('$name', ({ fields, expected }) => {
    it('is entered as expected', () => {
      // Arrange
      const log = new TranscriptLog(T0);
      log.utterance(utterance(fields));
      // Act
      const entries = log.entries(T0 + 1800);
      // Assert
      expect(entries).toEqual(expected === undefined ? [] : [expected]);
      for (const entry of entries) expect(v.parse(TranscriptEntrySchema, entry)).toEqual(entry);
    });
  });

  it('reads utterances by reference, so marks echoed after logging still count', () => {
    // Arrange
    const log = new TranscriptLog(T0);
    const u = utterance({ text: 'One moment.', bytesReceived: 1600, flushed: true });
    log.utterance(u);
    const before = log.entries(T0 + 100);
    // Act
    Object.assign(u, { bytesPlayed: 1600, firstPlayedAt: T0 + 300, playedAt: T0 + 500, finished: true });
    const after = log.entries(T0 + 600);
    // Assert
    expect(before).toEqual([]);
    expect(after).toEqual([{ role: 'assistant', text: 'One moment.', start_ms: 300, end_ms: 500, interrupted: false }]);
  });

  it('clamps times before the stream start to 0 and an end before its start to the start', () => {
    // Arrange
    const log = new TranscriptLog(T0);
    log.user('hello?', T0 - 50, T0 - 80);
    log.user('anyone?', T0 + 900, T0 + 400);
    // Act
    const entries = log.entries(T0 + 1000);
    // Assert
    expect(entries.map(({ start_ms, end_ms }) => [start_ms, end_ms])).toEqual([
      [0, 0],
      [900, 900],
    ]);
    expect(log.userTurns).toBe(2);
  });

  it('orders by start, then end, keeping insertion order for exact ties', () => {
    // Arrange
    const log = new TranscriptLog(T0);
    log.user('second', T0 + 100, T0 + 900);
    log.tool('first', T0 + 100);
    log.user('third', T0 + 100, T0 + 900);
    // Act
    const entries = log.entries(T0 + 1000);
    // Assert
    expect(entries.map((entry) => entry.text)).toEqual(['first', 'second', 'third']);
    expect(log.userTurns).toBe(2);
  });
});
