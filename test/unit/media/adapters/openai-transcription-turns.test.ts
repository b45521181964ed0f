import { describe, expect, it } from 'vitest';
import { TranscriptionTurns, type TranscriptionServerEvent } from '../../../../media-service/src/adapters/openai-transcription-turns';

const started = (item: string): TranscriptionServerEvent => ({
  type: 'input_audio_buffer.speech_started',
  item_id: item,
  audio_start_ms: 0,
});
const stopped = (item: string, ms: number): TranscriptionServerEvent => ({
  type: 'input_audio_buffer.speech_stopped',
  item_id: item,
  audio_end_ms: ms,
});
const delta = (item: string, text: string): TranscriptionServerEvent => ({
  type: 'conversation.item.input_audio_transcription.delta',
  item_id: item,
  delta: text,
});
const completed = (item: string, text: string): TranscriptionServerEvent => ({
  type: 'conversation.item.input_audio_transcription.completed',
  item_id: item,
  transcript: text,
});

describe('TranscriptionTurns', () => {
  it('maps one item to start, growing updates and an end timed by speech_stopped', () => {
    // Arrange
    const turns = new TranscriptionTurns();

    // Act
    const out = [started('a'), stopped('a', 1200), delta('a', 'Hello '), delta('a', 'there'), completed('a', 'Hello there.')].flatMap((e) =>
      turns.push(e),
    );

    // Assert
    expect(out).toEqual([
      { type: 'start_of_turn', turnIndex: 0 },
      { type: 'update', turnIndex: 0, transcript: 'Hello' },
      { type: 'update', turnIndex: 0, transcript: 'Hello there' },
      { type: 'end_of_turn', turnIndex: 0, transcript: 'Hello there.', endOfSpeechMs: 1200 },
    ]);
    expect(turns.pending).toBe(false);
  });

  it('holds the next turn while the previous one is still being transcribed, then releases it in order', () => {
    // Arrange
    const turns = new TranscriptionTurns();

    // Act
    const early = [started('a'), stopped('a', 900), started('b'), delta('b', 'Friday'), delta('a', 'Monday')].flatMap((e) => turns.push(e));
    const release = turns.push(completed('a', 'Monday'));
    const rest = [stopped('b', 2000), completed('b', 'Friday')].flatMap((e) => turns.push(e));

    // Assert
    expect(early).toEqual([
      { type: 'start_of_turn', turnIndex: 0 },
      { type: 'update', turnIndex: 0, transcript: 'Monday' },
    ]);
    expect(release).toEqual([
      { type: 'end_of_turn', turnIndex: 0, transcript: 'Monday', endOfSpeechMs: 900 },
      { type: 'start_of_turn', turnIndex: 1 },
      { type: 'update', turnIndex: 1, transcript: 'Friday' },
    ]);
    expect(rest).toEqual([{ type: 'end_of_turn', turnIndex: 1, transcript: 'Friday', endOfSpeechMs: 2000 }]);
  });

  it('ends a failed item with the text heard so far, and ignores events of unknown items', () => {
    // Arrange
    const turns = new TranscriptionTurns();

    // Act
    const out = [
      delta('x', 'ghost'),
      started('a'),
      delta('a', 'half'),
      { type: 'conversation.item.input_audio_transcription.failed', item_id: 'a' } as const,
    ].flatMap((e) => turns.push(e));

    // Assert
    expect(out.at(-1)).toEqual({ type: 'end_of_turn', turnIndex: 0, transcript: 'half' });
    expect(out.some((e) => 'transcript' in e && e.transcript === 'ghost')).toBe(false);
  });
});

describe('TranscriptionTurns.resume (a new socket hears the audio since the last ended turn again)', () => {
  it('forgets the turn not ended and the ones held behind it; the replay starts them again with the same indices', () => {
    // Arrange
    const turns = new TranscriptionTurns();
    [started('a'), stopped('a', 900), completed('a', 'One.'), started('b'), delta('b', 'Two'), stopped('b', 2000)].forEach((e) =>
      turns.push(e),
    );
    turns.push(started('c'));
    turns.push(completed('c', 'Held.'));

    // Act
    turns.resume();
    const out = [started('b2'), stopped('b2', 700), completed('b2', 'Two words.')].flatMap((e) => turns.push(e));

    // Assert
    expect(out).toEqual([
      { type: 'start_of_turn', turnIndex: 1 },
      { type: 'end_of_turn', turnIndex: 1, transcript: 'Two words.', endOfSpeechMs: 700 },
    ]);
    expect(turns.pending).toBe(false);
  });

  it('with every turn ended, numbering goes on from the last one', () => {
    // Arrange
    const turns = new TranscriptionTurns();
    [started('a'), stopped('a', 900), completed('a', 'One.')].forEach((e) => turns.push(e));

    // Act
    turns.resume();
    const out = turns.push(started('b'));

    // Assert
    expect(out).toEqual([{ type: 'start_of_turn', turnIndex: 1 }]);
  });
});
