/**
 * The web-call wire protocol's text messages (docs/protocols.md "Web calls"): the server's, parsed
 * and checked field by field, and the client's, built here so their bounds are checked before they
 * leave the page. Pure: no DOM, so the unit tests run it as the browser does.
 */

/** What the assistant is doing, as the server reports it. */
export type CallState = 'listening' | 'thinking' | 'speaking';

/** The token was accepted: the call is live and audio flows both ways. */
export interface StartedMessage {
  type: 'started';
  call_id: number;
  sample_rate: number;
  encoding: string;
}
/** The assistant's turn-taking state changed. */
export interface StateMessage {
  type: 'state';
  state: CallState;
}
/** A line of the live transcript; `final: false` lines are replaced by the next one from the same role. */
export interface TranscriptMessage {
  type: 'transcript';
  role: 'assistant' | 'caller';
  text: string;
  final: boolean;
  interrupted?: boolean;
}
/** One turn's latency: the caller's end of turn to the assistant's first audio. */
export interface LatencyMessage {
  type: 'latency';
  turn: number;
  ms: number;
}
/** A tool the assistant called, with its outcome. */
export interface ToolMessage {
  type: 'tool';
  name: string;
  arguments: Record<string, unknown>;
  status: 'ok' | 'error';
  result?: unknown;
}
/** The call is over; `reason` is the call record's `ended_reason`. */
export interface EndedMessage {
  type: 'ended';
  reason: string;
}
/** A refusal or a fault; the server closes the socket after it. */
export interface ErrorMessage {
  type: 'error';
  code: string;
  message: string;
}
/** Echo `name` once everything sent before it has played. */
export interface MarkMessage {
  type: 'mark';
  name: string;
}
/** Barge-in: drop the buffered audio at once. */
export interface ClearMessage {
  type: 'clear';
}

/** Every text message the server sends. */
export type ServerMessage =
  | StartedMessage
  | StateMessage
  | TranscriptMessage
  | LatencyMessage
  | ToolMessage
  | EndedMessage
  | ErrorMessage
  | MarkMessage
  | ClearMessage;

/** The only audio format the protocol has: PCM signed 16-bit little-endian, mono, 16 kHz. */
export const SAMPLE_RATE = 16_000;
export const ENCODING = 'pcm_s16le';
/** Typed speech: 1 to 500 characters (UTF-16 units, as the server counts them). */
export const SAY_MAX_CHARS = 500;
/** Keypad digits: 1 to 32 of 0-9, * and #. */
export const DIGITS_PATTERN = /^[0-9*#]{1,32}$/;

type Fields = Record<string, unknown>;
const isString = (value: unknown): value is string => typeof value === 'string';
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const oneOf =
  <T extends string>(...values: T[]) =>
  (value: unknown): value is T =>
    values.includes(value as T);

/** Each message type's check of its fields; a message that fails it is dropped as unknown. */
const CHECKS: Record<ServerMessage['type'], (m: Fields) => boolean> = {
  started: (m) => Number.isSafeInteger(m.call_id) && isNumber(m.sample_rate) && isString(m.encoding),
  state: (m) => oneOf('listening', 'thinking', 'speaking')(m.state),
  transcript: (m) =>
    oneOf('assistant', 'caller')(m.role) &&
    isString(m.text) &&
    typeof m.final === 'boolean' &&
    (m.interrupted === undefined || typeof m.interrupted === 'boolean'),
  latency: (m) => Number.isSafeInteger(m.turn) && isNumber(m.ms),
  tool: (m) => isString(m.name) && isObject(m.arguments) && oneOf('ok', 'error')(m.status),
  ended: (m) => isString(m.reason),
  error: (m) => isString(m.code) && isString(m.message),
  mark: (m) => isString(m.name),
  clear: () => true,
};

/**
 * One text frame from the server, checked; undefined for anything else (not JSON, an unknown
 * type, a missing or mistyped field). Unknown messages are dropped, not fatal, so a newer server
 * can add a message without breaking pages that embed an older client.
 */
export function parseServerMessage(text: string): ServerMessage | undefined {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(message) || !isString(message.type) || !Object.hasOwn(CHECKS, message.type)) return undefined;
  const check = CHECKS[message.type as ServerMessage['type']];
  return check(message) ? (message as unknown as ServerMessage) : undefined;
}

/** The first message on the socket: the single-use token the business's server obtained. */
export function startMessage(token: string): string {
  return JSON.stringify({ type: 'start', token });
}

/**
 * Typed speech, spoken into the call as the caller's words.
 * @throws RangeError when `text` is not 1 to 500 characters.
 */
export function sayMessage(text: string): string {
  if (typeof text !== 'string' || text.length < 1 || text.length > SAY_MAX_CHARS) {
    throw new RangeError(`say: text must be 1 to ${SAY_MAX_CHARS} characters`);
  }
  return JSON.stringify({ type: 'say', text });
}

/**
 * Keypad presses, as a phone caller's.
 * @throws RangeError when `digits` is not 1 to 32 of 0-9, * and #.
 */
export function dtmfMessage(digits: string): string {
  if (typeof digits !== 'string' || !DIGITS_PATTERN.test(digits)) {
    throw new RangeError('sendDigits: digits must be 1 to 32 of 0-9, * and #');
  }
  return JSON.stringify({ type: 'dtmf', digits });
}

/** The echo of a server mark: the audio sent before it has played (or was dropped by `clear`). */
export function markMessage(name: string): string {
  return JSON.stringify({ type: 'mark', name });
}

/** The caller hangs up. */
export function hangupMessage(): string {
  return JSON.stringify({ type: 'hangup' });
}
