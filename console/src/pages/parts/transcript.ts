import type { components } from '../../api/schema';

type Entry = components['schemas']['TranscriptEntry'];
type Turn = components['schemas']['TurnMetrics'];

/** A transcript line as the call page shows it: the entry, and for a reply the latency of the turn it answered. */
export interface TranscriptRow extends Entry {
  /** 1-based number of the caller turn this line answers (`metrics.turns`), when it is the first reply to one. */
  turn?: number;
  latencyMs?: number | null;
  /** The reply waited for the assistant to finish (`interruptions: never`, or the notice): the latency includes that wait. */
  held?: boolean;
}

/**
 * Puts each turn's latency on the reply it measured. A turn's `at_ms` is the recogniser's end of the
 * caller's turn, which comes after the caller's last word (its transcript line's `end_ms`); the latency
 * runs from that last word to the first reply audio. So a turn belongs to the first assistant line
 * starting after the last caller line that ended by `at_ms`. Turns with no `at_ms`, or no such line,
 * are left off the transcript (the per-turn table still lists them).
 */
export function transcriptRows(transcript: readonly Entry[], turns: readonly Turn[]): TranscriptRow[] {
  const rows: TranscriptRow[] = transcript.map((entry) => ({ ...entry }));
  turns.forEach((turn, index) => {
    if (turn.at_ms === null || turn.at_ms === undefined) return;
    const at = turn.at_ms;
    let callerEnd: number | undefined;
    for (const row of rows) if (row.role === 'user' && row.end_ms <= at) callerEnd = row.end_ms;
    if (callerEnd === undefined) return;
    const end = callerEnd;
    const reply = rows.find((row) => row.role === 'assistant' && row.start_ms > end && row.turn === undefined);
    if (!reply) return;
    reply.turn = index + 1;
    reply.latencyMs = turn.latency_ms ?? null;
    if (turn.held) reply.held = true;
  });
  return rows;
}

/** Who said a line, in the page's words. */
export function speaker(role: Entry['role']): string {
  return role === 'user' ? 'Caller' : role === 'assistant' ? 'Assistant' : 'Tool';
}
