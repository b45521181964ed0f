import * as v from 'valibot';
import { pageSchema } from './call';
import { MAX_LIST_OFFSET, parseListQuery } from './paging';
import { E164_PATTERN } from './phone-number';
import { idField, intField, strictDict, stringField, timestampField } from './validation';

/** The longest message body a caller may leave (about two minutes of speech). */
export const MESSAGE_BODY_MAX_CHARS = 2000;

/** The longest caller name a message keeps. */
export const MESSAGE_NAME_MAX_CHARS = 200;

/** Which tool left the message: the caller's own (`take_message`) or the assistant's alert (`notify_team`). */
export const MESSAGE_SOURCES = ['take_message', 'notify_team'] as const;

/**
 * A message a caller left with the assistant (docs/design.md §4 "Messages"): stored as the
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

/** GET /messages: one page, newest first (docs/design.md §4). */
export const MessagesPageSchema = pageSchema(MessageSchema);

/** ISO 8601 date (`2026-11-26`) or UTC date-time with `Z` or an offset. */
const INSTANT_PATTERN = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

// The pattern is the documented form; a real calendar date is checked after it (parseListMessagesQuery).
const instantField = () =>
  v.pipe(stringField({ max: 40, pattern: INSTANT_PATTERN }), v.metadata({ examples: ['2026-11-26', '2026-11-26T09:00:00Z'] }));

/** GET /messages query parameters: a page, a created_at window (`from` inclusive, `to` exclusive), a call, urgency. */
export const ListMessagesQuerySchema = v.object({
  limit: v.optional(intField({ ge: 1, le: 200 }), 50),
  offset: v.optional(intField({ ge: 0, le: MAX_LIST_OFFSET }), 0),
  from: v.optional(instantField()),
  to: v.optional(instantField()),
  call_id: v.optional(idField()),
  urgent: v.optional(v.picklist(['true', 'false'])),
});

/** A validated GET /messages query, times as UTC ISO timestamps. */
export interface ListMessagesOptions {
  limit: number;
  offset: number;
  from?: string;
  to?: string;
  callId?: number;
  urgent?: boolean;
}

const INT_NAMES: ReadonlySet<string> = new Set(['limit', 'offset', 'call_id']);

/**
 * Parses GET /messages query strings (as GET /calls does: every problem at once, loc
 * `['query', name]`); a date means its midnight UTC.
 */
export function parseListMessagesQuery(query: Record<string, string | undefined>): ListMessagesOptions {
  const parsed = parseListQuery(ListMessagesQuerySchema, INT_NAMES, query, (values) =>
    (['from', 'to'] as const)
      .filter((name) => values[name] !== undefined && !isRealInstant(values[name]))
      .map((name) => ({
        loc: ['query', name],
        msg: 'Input should be a valid date or datetime',
        type: 'datetime_parsing',
        input: values[name],
      })),
  );
  const { limit, offset, from, to, call_id: callId, urgent } = parsed;
  return {
    limit,
    offset,
    ...(from !== undefined && { from: new Date(from).toISOString() }),
    ...(to !== undefined && { to: new Date(to).toISOString() }),
    ...(callId !== undefined && { callId }),
    ...(urgent !== undefined && { urgent: urgent === 'true' }),
  };
}

/** A date or date-time that names a real instant (`2026-02-30` does not: JavaScript would roll it into March). */
function isRealInstant(value: string): boolean {
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  const sameDay = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return sameDay && !Number.isNaN(Date.parse(value));
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
