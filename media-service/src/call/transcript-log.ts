import type { TranscriptEntry } from '../../../shared/domain/call';
import type { Utterance } from './speaker';
import { truncateToFraction } from './turn-taking';
import type { CallTap } from './call-observer';

/** Speaking pace used to estimate an utterance's audio before the TTS has delivered all of it. */
const MS_PER_CHAR = 70;

/**
 * What the caller heard of an utterance: its text cut in proportion to the audio played (echoed
 * marks) over the audio it has or will have (vocode's `get_message_up_to`), at a word boundary.
 */
export function heardText(utterance: Utterance): string {
  if (utterance.bytesPlayed <= 0) return '';
  const estimated = utterance.text.length * MS_PER_CHAR * 8;
  const total = utterance.flushed ? utterance.bytesReceived : Math.max(utterance.bytesReceived, estimated);
  return truncateToFraction(utterance.text, total === 0 ? 1 : utterance.bytesPlayed / total);
}

/**
 * The caller heard all of `utterance`: its end mark came back, or every byte it had was played
 * once it was complete (a barge-in can land before the `:end` echo; Speaker judges it the same way).
 */
export function playedInFull(utterance: Utterance): boolean {
  if (utterance.interrupted) return false;
  return (
    utterance.playedAt !== undefined ||
    (utterance.flushed && utterance.bytesReceived > 0 && utterance.bytesPlayed >= utterance.bytesReceived)
  );
}

interface UserLine {
  role: 'user' | 'tool';
  text: string;
  startAt: number;
  endAt: number;
}

/**
 * The call's transcript as it happens: caller turns and tool actions as they end, assistant
 * utterances by reference (their heard text and timing settle as marks echo), assembled in time
 * order at the end. Times are ms from the stream start.
 */
export class TranscriptLog {
  readonly #t0: number;
  readonly #lines: UserLine[] = [];
  readonly #utterances: Utterance[] = [];
  readonly #tap: CallTap | undefined;

  /** `tap`: told each line as it is recorded (a watched call); absent, nothing more is done. */
  constructor(t0: number, tap?: CallTap) {
    this.#t0 = t0;
    this.#tap = tap;
  }

  /** How many caller turns have ended so far. */
  get userTurns(): number {
    return this.#lines.filter((line) => line.role === 'user').length;
  }

  user(text: string, startAt: number, endAt: number): void {
    this.#lines.push({ role: 'user', text, startAt, endAt: Math.max(startAt, endAt) });
    this.#tap?.user(text);
  }

  tool(text: string, at: number): void {
    this.#lines.push({ role: 'tool', text, startAt: at, endAt: at });
  }

  utterance(utterance: Utterance): void {
    this.#utterances.push(utterance);
    this.#tap?.utterance(utterance);
  }

  /** Every entry in start order; assistant text the caller never heard is left out. */
  entries(now: number): TranscriptEntry[] {
    const ms = (at: number) => Math.max(0, Math.round(at - this.#t0));
    const said = this.#utterances.flatMap((u): TranscriptEntry[] => {
      const start = u.firstPlayedAt ?? u.firstSentAt;
      if (start === undefined || u.bytesPlayed === 0 || u.text === '') return [];
      const complete = playedInFull(u);
      const text = complete ? u.text : heardText(u);
      if (text === '') return [];
      const end = u.playedAt ?? Math.min(now, start + u.bytesPlayed / 8);
      return [{ role: 'assistant', text, start_ms: ms(start), end_ms: ms(Math.max(start, end)), interrupted: !complete }];
    });
    const lines = this.#lines.map((line): TranscriptEntry => ({
      role: line.role,
      text: line.text,
      start_ms: ms(line.startAt),
      end_ms: ms(line.endAt),
      interrupted: false,
    }));
    return [...said, ...lines].sort((a, b) => a.start_ms - b.start_ms || a.end_ms - b.end_ms);
  }
}
