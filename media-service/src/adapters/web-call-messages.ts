import * as v from 'valibot';
import type { CallObservation } from '../call/call-observer';
import { MULTI_LINE_TEXT_PATTERN } from '../../../shared/domain/validation';

/**
 * The JSON messages of a web call's socket (docs/protocols.md "Web calls"), both ways. Text frames
 * are these; binary frames are 16 kHz PCM audio and never pass through here.
 */

/** The longest text frame read: the longest valid message (`say` with 500 characters) is far shorter. */
export const MAX_TEXT_MESSAGE_CHARS = 4096;

/** Typed speech: 1 to 500 characters once trimmed. */
export const SAY_MAX_CHARS = 500;

/** What a browser may send, checked at the boundary (valibot). */
export const WebClientMessageSchema = v.variant('type', [
  v.object({ type: v.literal('start'), token: v.pipe(v.string(), v.maxLength(200)) }),
  v.object({
    type: v.literal('say'),
    text: v.pipe(
      v.string(),
      v.trim(),
      v.minLength(1),
      v.maxLength(SAY_MAX_CHARS),
      // As the API's free text: no control characters but tabs and line breaks.
      v.regex(MULTI_LINE_TEXT_PATTERN, 'Typed speech may not hold control characters.'),
    ),
  }),
  v.object({ type: v.literal('dtmf'), digits: v.pipe(v.string(), v.regex(/^[0-9*#]{1,32}$/)) }),
  v.object({ type: v.literal('mark'), name: v.pipe(v.string(), v.minLength(1), v.maxLength(200)) }),
  v.object({ type: v.literal('hangup') }),
]);

export type WebClientMessage = v.InferOutput<typeof WebClientMessageSchema>;

/** Why the server refuses or complains (the `error` message's `code`). */
export type WebCallErrorCode = 'bad_token' | 'origin_not_allowed' | 'bad_message' | 'at_capacity' | 'no_minutes' | 'not_here';

/** A text frame parsed, or why not (in words, for the `error` message). */
export function parseClientMessage(text: string): WebClientMessage | { invalid: string } {
  if (text.length > MAX_TEXT_MESSAGE_CHARS) return { invalid: `A text message may be at most ${MAX_TEXT_MESSAGE_CHARS} characters.` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { invalid: 'A text message must be a JSON object.' };
  }
  const parsed = v.safeParse(WebClientMessageSchema, json);
  if (parsed.success) return parsed.output;
  const type = (json as { type?: unknown } | null)?.type;
  const known = ['start', 'say', 'dtmf', 'mark', 'hangup'];
  if (typeof type !== 'string' || !known.includes(type)) return { invalid: `Unknown message type; expected one of ${known.join(', ')}.` };
  return { invalid: `Invalid ${type} message: ${parsed.issues[0].message}` };
}

/** `started`: the token was accepted and the call is live. */
export function startedMessage(callId: number): string {
  return JSON.stringify({ type: 'started', call_id: callId, sample_rate: 16_000, encoding: 'pcm_s16le' });
}

export function markMessage(name: string): string {
  return JSON.stringify({ type: 'mark', name });
}

export const CLEAR_MESSAGE = JSON.stringify({ type: 'clear' });

export function endedMessage(reason: string): string {
  return JSON.stringify({ type: 'ended', reason });
}

export function errorMessage(code: WebCallErrorCode, message: string): string {
  return JSON.stringify({ type: 'error', code, message });
}

/** `state`, `transcript`, `latency` and `tool`: the observation as it is. */
export function observationMessage(observation: CallObservation): string {
  return JSON.stringify(observation);
}
