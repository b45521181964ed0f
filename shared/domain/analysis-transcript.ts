import { REDACT_KINDS } from './assistant-config-advanced';
import type { AssistantConfig } from './assistant-config';
import { redactText, type RedactKind } from './redact';

/**
 * How a HIPAA call's transcript reaches the post-call analysis without being stored
 * (docs/decisions.md "HIPAA calls are analysed from the call.ended event"): the call engine puts
 * the redacted transcript in the `call.ended` event itself, bounded to fit EventBridge's 256 KB
 * entry limit with room for the envelope, and the analysis reads it from there. The table never
 * holds it.
 */

/** One transcript line as the event carries it: who spoke and what (no timings). */
export interface AnalysisTranscriptLine {
  role: 'assistant' | 'user' | 'tool';
  text: string;
}

/** The transcript's share of a `call.ended` event, in UTF-8 bytes of JSON (EventBridge allows 256 KB per entry). */
export const EVENT_TRANSCRIPT_MAX_BYTES = 192 * 1024;

/** One line is cut here: no single turn may crowd out the rest. */
export const EVENT_LINE_MAX_CHARS = 4_000;

/** Most lines an event carries (an hour of fast turn-taking is well under it). */
export const EVENT_TRANSCRIPT_MAX_LINES = 2_000;

/**
 * What a HIPAA call masks in everything derived from its transcript: every kind `advanced.redact`
 * knows, whatever the assistant chose, since none of it may leave the call in clear.
 */
export function hipaaRedaction(): readonly RedactKind[] {
  return REDACT_KINDS;
}

/** The redaction a call's analysis applies: the assistant's choice, or every kind under `advanced.hipaa`. */
export function analysisRedaction(config: AssistantConfig): readonly RedactKind[] {
  return config.advanced.hipaa ? hipaaRedaction() : config.advanced.redact;
}

function bytesOf(lines: readonly AnalysisTranscriptLine[]): number {
  return new TextEncoder().encode(JSON.stringify(lines)).length;
}

function clip(text: string): string {
  return text.length <= EVENT_LINE_MAX_CHARS ? text : `${text.slice(0, EVENT_LINE_MAX_CHARS - 1)}…`;
}

/**
 * The transcript a HIPAA call's `call.ended` event carries: every line redacted with
 * {@link hipaaRedaction}, each cut at {@link EVENT_LINE_MAX_CHARS}; when the whole is over
 * {@link EVENT_TRANSCRIPT_MAX_BYTES} or {@link EVENT_TRANSCRIPT_MAX_LINES}, lines are dropped from
 * the middle (the opening, where the caller says why they call, and the end, where the call is
 * settled, matter most) and one `tool` line says how many were left out. Lines are fitted before
 * they are redacted, so the redaction's work is bounded too, and once more after it (a masked
 * card can be a few characters longer than its digits).
 *
 * @example
 * transcriptForAnalysisEvent([{ role: 'user', text: 'Call me on 415 555 0100' }]);
 * // → [{ role: 'user', text: 'Call me on [phone]' }]
 */
export function transcriptForAnalysisEvent(transcript: readonly AnalysisTranscriptLine[]): AnalysisTranscriptLine[] {
  const fitted = withinBounds(transcript.map((line) => ({ role: line.role, text: clip(line.text) })));
  return withinBounds(fitted.map((line) => ({ role: line.role, text: clip(redactText(line.text, hipaaRedaction())) })));
}

/** The lines within the bounds: all of them, or a head and a tail of equal size around one marker line. */
function withinBounds(lines: AnalysisTranscriptLine[]): AnalysisTranscriptLine[] {
  if (lines.length <= EVENT_TRANSCRIPT_MAX_LINES && bytesOf(lines) <= EVENT_TRANSCRIPT_MAX_BYTES) return lines;
  let keep = Math.min(lines.length, EVENT_TRANSCRIPT_MAX_LINES - 1);
  for (;;) {
    const head = lines.slice(0, Math.ceil(keep / 2));
    const tail = keep > 1 ? lines.slice(lines.length - Math.floor(keep / 2)) : [];
    const marker: AnalysisTranscriptLine = { role: 'tool', text: `[${lines.length - keep} lines left out of the analysis: too long]` };
    const kept = [...head, marker, ...tail];
    if (bytesOf(kept) <= EVENT_TRANSCRIPT_MAX_BYTES || keep === 0) return kept;
    keep = Math.floor(keep * 0.9);
  }
}
