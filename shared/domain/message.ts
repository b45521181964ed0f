import * as v from 'valibot';
import {
  instantItems,
  instantQueryField,
  offsetWithCursorItems,
  pageQueryFields,
  pageSchema,
  parseListQuery,
  utcIso,
  windowItems,
} from './paging';
import { E164_PATTERN } from './phone-number';
import { idField, strictDict, stringField, timestampField } from './validation';

/** The longest message body a caller may leave (about two minutes of speech). */
export const MESSAGE_BODY_MAX_CHARS = 2000;

/** The longest caller name a message keeps. */
export const MESSAGE_NAME_MAX_CHARS = 200;

/** Which tool left the message: the caller's own (`take_message`) or the assistant's alert (`notify_team`). */
export const MESSAGE_SOURCES = ['take_message', 'notify_team'] as const;

/**
 * A message a caller left with the assistant (docs/design.md "Messages"): stored as the
 * business's data and linked to the call it came from.
 */
export const MessageSchema = strictDict({
  id: idField(),
  call_id: idField(),
  assistant_id: idField(),
  caller_name: v.pipe(v.string(), v.description("The caller's name as they gave it ('' when not given).")),
  caller_number: v.pipe(v.string(), v.description('The number to call back: the one the caller gave, else the line they called from.')),
  body: v.string(),
  urgent: v.boolean(),
  source: v.pipe(
    v.picklist(MESSAGE_SOURCES),
    v.description('`take_message`: a message for the team; `notify_team`: an alert the assistant raised.'),
  ),
  created_at: timestampField(),
});

/** A stored message. */
export type Message = v.InferOutput<typeof MessageSchema>;

/** GET /messages: one page, newest first (docs/design.md "Messages"). */
export const MessagesPageSchema = pageSchema(MessageSchema);

/**
 * GET /messages query parameters: a page (`limit`, `offset` or `cursor`), a created_at window
 * (`from` inclusive, `to` exclusive), a call, urgency.
 */
export const ListMessagesQuerySchema = v.object({
  ...pageQueryFields(200, 50),
  from: v.optional(instantQueryField()),
  to: v.optional(instantQueryField()),
  call_id: v.optional(idField()),
  urgent: v.optional(v.picklist(['true', 'false'])),
});

/** A validated GET /messages query, times as UTC ISO timestamps. */
export interface ListMessagesOptions {
  limit: number;
  offset: number;
  cursor?: string;
  from?: string;
  to?: string;
  callId?: number;
  urgent?: boolean;
}

const INT_NAMES: ReadonlySet<string> = new Set(['limit', 'offset', 'call_id']);

/**
 * Parses GET /messages query strings (as GET /calls does: every problem at once, loc
 * `['query', name]`); a date means its midnight UTC, and `from` after `to` is a 422.
 */
export function parseListMessagesQuery(query: Record<string, string | undefined>): ListMessagesOptions {
  const parsed = parseListQuery(ListMessagesQuerySchema, INT_NAMES, query, (values) => {
    const bad = instantItems(values, ['from', 'to']);
    if (bad.length > 0) return bad;
    const [from, to] = [utcIso(values.from), utcIso(values.to)];
    return [...offsetWithCursorItems(values, query), ...windowItems({ name: 'from', iso: from }, { name: 'to', iso: to })];
  });
  const { limit, offset, cursor, from, to, call_id: callId, urgent } = parsed;
  return {
    limit,
    offset,
    ...(cursor !== undefined && { cursor }),
    ...(from !== undefined && { from: utcIso(from) }),
    ...(to !== undefined && { to: utcIso(to) }),
    ...(callId !== undefined && { callId }),
    ...(urgent !== undefined && { urgent: urgent === 'true' }),
  };
}

/** What the `take_message` and `notify_team` tools accept from the model (bounded like every input). */
export const TakeMessageArgsSchema = strictDict({
  name: stringField({ min: 1, max: MESSAGE_NAME_MAX_CHARS }),
  message: stringField({ min: 1, max: MESSAGE_BODY_MAX_CHARS, lines: true }),
  phone: v.optional(stringField({ max: 40 })),
  urgent: v.optional(v.boolean(), false),
});

/** `notify_team` arguments. */
export const NotifyTeamArgsSchema = strictDict({
  message: stringField({ min: 1, max: MESSAGE_BODY_MAX_CHARS, lines: true }),
  urgent: v.optional(v.boolean(), false),
});

/**
 * The callback number a message keeps: the one the caller gave when it reads as a phone number
 * (spaces, dashes, dots and brackets dropped), else the line they called from.
 *
 * @example callbackNumber('(415) 555-0199', '+15550100002') // '4155550199'
 */
export function callbackNumber(given: string | undefined, line: string): string {
  const compact = (given ?? '').replace(/[\s().-]/g, '');
  if (E164_PATTERN.test(compact) || /^\d{7,15}$/.test(compact)) return compact;
  return line;
}
