/**
 * When a call at its time limit says its goodbye and hangs up, so that its `duration_s` (answer to
 * hang-up, rounded to the second) never passes the limit (`max_duration_s`, or the minutes
 * reserved). The goodbye starts early enough to be heard whole at a speaking pace slower than the
 * voice's; the hang-up is a hard stop whatever is still playing.
 */

/** The hang-up lands this much before the limit: the carrier's hang-up round trip plus the rounding to whole seconds (500 ms). */
export const HANG_UP_MARGIN_MS = 800;
/** Aura speaks at ~65 ms a character (measured on the sandbox's model of it, 60–70 ms on real voices); 80 leaves room. */
const GOODBYE_MS_PER_CHAR = 80;
/** The voice's first byte after its text (Aura p95 well under 500 ms). */
const GOODBYE_FIRST_AUDIO_MS = 500;

/** The two timers of a call's time limit, in ms from now. */
export interface TimeLimitSchedule {
  goodbyeInMs: number;
  hangUpInMs: number;
}

/**
 * The schedule for a call `sinceAnswerMs` after its answer, limited to `limitMs`, whose goodbye
 * is `goodbye` ('' for none) said at `speed`.
 *
 * @example timeLimitSchedule({ limitMs: 30_000, sinceAnswerMs: 200, goodbye: 'Goodbye.', speed: 1 }) // { goodbyeInMs: 28_360, hangUpInMs: 29_000 }
 */
export function timeLimitSchedule(input: { limitMs: number; sinceAnswerMs: number; goodbye: string; speed: number }): TimeLimitSchedule {
  const hangUpInMs = Math.max(0, input.limitMs - HANG_UP_MARGIN_MS - input.sinceAnswerMs);
  const goodbyeMs = input.goodbye === '' ? 0 : GOODBYE_FIRST_AUDIO_MS + (input.goodbye.length * GOODBYE_MS_PER_CHAR) / input.speed;
  return { goodbyeInMs: Math.max(0, Math.round(hangUpInMs - goodbyeMs)), hangUpInMs };
}
