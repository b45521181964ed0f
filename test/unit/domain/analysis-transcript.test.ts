import { describe, expect, it } from 'vitest';
import {
  EVENT_LINE_MAX_CHARS,
  EVENT_TRANSCRIPT_MAX_BYTES,
  EVENT_TRANSCRIPT_MAX_LINES,
  transcriptForAnalysisEvent,
  type AnalysisTranscriptLine,
} from '../../../shared/domain/analysis-transcript';
import * as v from 'valibot';
import { CallEventDetailSchema } from '../../../shared/events/catalog';

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

describe('transcriptForAnalysisEvent (what a HIPAA call.ended carries)', () => {
  it('redacts every kind, whatever the assistant chose, and keeps only role and text', () => {
    // Arrange
    const said = 'I am Ana, born 03/04/1985, card 4111 1111 1111 1111, ssn 123-45-6789, ana@example.com, call 415 555 0100';
    // Act
    const lines = transcriptForAnalysisEvent([{ role: 'user', text: said, start_ms: 0 } as AnalysisTranscriptLine]);
    // Assert
    expect(lines).toEqual([{ role: 'user', text: 'I am Ana, born [dob], card [card ending 1111], ssn [ssn], [email], call [phone]' }]);
  });

  it('cuts a very long line', () => {
    const [line] = transcriptForAnalysisEvent([{ role: 'user', text: 'a'.repeat(10_000) }]);
    expect(line!.text).toHaveLength(EVENT_LINE_MAX_CHARS);
    expect(line!.text.endsWith('…')).toBe(true);
  });

  it.each([
    ['too many bytes', 400, 3_000],
    ['too many lines', 5_000, 20],
  ])('drops lines from the middle when there are %s, keeping the opening and the end', (_case, count, size) => {
    // Arrange
    const transcript = Array.from({ length: count }, (_, i) => ({ role: 'user' as const, text: `line ${i} ${'x'.repeat(size)}` }));
    // Act
    const lines = transcriptForAnalysisEvent(transcript);
    // Assert: within every bound, the event schema accepts it, first and last lines kept, one marker
    expect(bytes(lines)).toBeLessThanOrEqual(EVENT_TRANSCRIPT_MAX_BYTES);
    expect(lines.length).toBeLessThanOrEqual(EVENT_TRANSCRIPT_MAX_LINES);
    expect(lines[0]!.text.startsWith('line 0 ')).toBe(true);
    expect(lines.at(-1)!.text.startsWith(`line ${count - 1} `)).toBe(true);
    const markers = lines.filter((line) => line.role === 'tool');
    expect(markers).toEqual([{ role: 'tool', text: `[${count - (lines.length - 1)} lines left out of the analysis: too long]` }]);
    const detail = { event_id: 'e', business_id: 1, call_id: 1, assistant_id: 1, occurred_at: 'now', transcript: lines };
    expect(v.safeParse(CallEventDetailSchema, detail).success).toBe(true);
    // The whole EventBridge entry (detail + type + source + time) stays under 256 KB.
    expect(bytes(detail) + 100).toBeLessThan(256 * 1024);
  });

  it('a short transcript is carried whole', () => {
    const transcript: AnalysisTranscriptLine[] = [
      { role: 'assistant', text: 'Hello.' },
      { role: 'user', text: 'Hi.' },
      { role: 'tool', text: 'end_call' },
    ];
    expect(transcriptForAnalysisEvent(transcript)).toEqual(transcript);
  });
});
