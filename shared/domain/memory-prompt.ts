/** One remembered call of a caller (advanced.memory): what the next call's assistant may recall. */
export interface CallerMemoryEntry {
  call_id: number;
  /** ISO time the call ended. */
  ended_at: string;
  /** The stored (already redacted) summary of that call. */
  summary: string;
  outcome: string | null;
}

/** A remembered summary longer than this is cut: the section must stay a small part of the prompt. */
export const MEMORY_SUMMARY_MAX_CHARS = 400;

/** E.164 (ITU-T E.164: "+", a non-zero digit, at most 15 digits). */
const E164 = /^\+[1-9]\d{1,14}$/;

/**
 * True for a number a caller can be remembered by. A withheld or non-phone caller id
 * ("anonymous", "client:…", "") is never remembered: every such caller would share one memory.
 */
export function isRememberableNumber(number: string): boolean {
  return E164.test(number);
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= MEMORY_SUMMARY_MAX_CHARS ? flat : `${flat.slice(0, MEMORY_SUMMARY_MAX_CHARS - 1).trimEnd()}…`;
}

/**
 * Renders a caller's earlier calls (newest first, as recalled) as a short system-prompt section,
 * so the assistant can pick up where the last call left off; '' when there is nothing to recall.
 *
 * @example
 * memoryContext([{ call_id: 7, ended_at: '2026-03-02T10:00:00Z', summary: 'Booked a cleaning.', outcome: 'appointment_booked' }]);
 * // → 'Earlier calls with this caller (newest first):\n- 2026-03-02: Booked a cleaning. (outcome: appointment_booked)\n…'
 */
export function memoryContext(entries: readonly CallerMemoryEntry[]): string {
  const lines = entries
    .filter((entry) => entry.summary.trim() !== '')
    .map((entry) => {
      const outcome = entry.outcome ? ` (outcome: ${entry.outcome})` : '';
      return `- ${entry.ended_at.slice(0, 10)}: ${clip(entry.summary)}${outcome}`;
    });
  if (lines.length === 0) return '';
  return [
    'Earlier calls with this caller (newest first):',
    ...lines,
    'Use these only for continuity; do not read them out, and confirm details before relying on them.',
  ].join('\n');
}
