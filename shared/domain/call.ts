import { CallWorkflowSchema, type CallWorkflow } from './workflow';
import * as v from 'valibot';
import { SERVER_EVENT_KINDS, variablesField } from './assistant-config';
import {
  cursorPageFields,
  instantItems,
  instantQueryField,
  offsetWithCursorItems,
  pageSchema,
  parseListQuery,
  uncappedOffsetField,
  utcIso,
  windowItems,
} from './paging';
import { CallMetricsSchema, type CallMetrics } from './call-metrics';
import { E164_PATTERN } from './phone-number';
import { ToolActionSchema, type ToolAction } from './tool-action';
import { idField, intField, looseDict, numberField, strictDict, stringField, timestampField } from './validation';
import { parseWith } from './validation-errors';

/** Call `status` (docs/design.md "Resources"): queued → ringing → in_progress → ended; a call that never starts also ends. */
export const CALL_STATUSES = ['queued', 'ringing', 'in_progress', 'ended'] as const;

/** Why a call ended (docs/design.md "Resources"); `failed` is the carrier's refusal, `error` is ours. */
export const ENDED_REASONS = [
  'caller_hung_up',
  'assistant_ended',
  'end_phrase',
  'silence_timeout',
  'max_duration',
  'voicemail',
  'no_answer',
  'busy',
  'transferred',
  'failed',
  'error',
  'canceled',
] as const;

/** A finished call's `outcome` (docs/design.md "Resources"): analysis picks the first four, `ended_reason` the rest. */
export const OUTCOMES = [
  'resolved',
  'unresolved',
  'appointment_booked',
  'message_taken',
  'transferred',
  'voicemail',
  'no_answer',
  'busy',
  'failed',
] as const;

/** Call `direction` values (spec). */
export const CALL_DIRECTIONS = ['inbound', 'outbound'] as const;

/** Call `channel` values (docs/design.md "Resources"): `web` is reserved for browser calls. */
export const CALL_CHANNELS = ['phone', 'web'] as const;

/** One of {@link CALL_STATUSES}. */
export type CallStatus = (typeof CALL_STATUSES)[number];
/** One of {@link ENDED_REASONS}. */
export type EndedReason = (typeof ENDED_REASONS)[number];
/** One of {@link OUTCOMES}. */
export type Outcome = (typeof OUTCOMES)[number];
/** One of {@link CALL_DIRECTIONS}. */
export type CallDirection = (typeof CALL_DIRECTIONS)[number];
/** One of {@link CALL_CHANNELS}. */
export type CallChannel = (typeof CALL_CHANNELS)[number];

/**
 * POST /calls body (spec). `to` is strict E.164 (`string_pattern_mismatch`, ctx.pattern);
 * `variables` is string → string, at most 100 entries, each value at most 1000 characters.
 */
export const CreateCallBodySchema = strictDict({
  assistant_id: idField(),
  to: v.pipe(stringField({ pattern: E164_PATTERN }), v.metadata({ examples: ['+15550100002'] })),
  phone_number_id: v.optional(v.nullable(idField()), null),
  variables: v.optional(variablesField(), {}),
});

/** A validated POST /calls body with its defaults. */
export type CreateCallInput = v.InferOutput<typeof CreateCallBodySchema>;

/** Validates a POST /calls body; every invalid field is one 422 item under `body`. */
export function parseCreateCallBody(input: unknown): CreateCallInput {
  return parseWith(CreateCallBodySchema, input, ['body']);
}

/**
 * GET /calls query parameters (spec `limit`, `offset`, `assistant_id`, `direction`, plus `cursor`
 * and the `channel`, `status`, `outcome` and `created_after`/`created_before` filters), as numbers once their
 * strings are parsed. The creation window is half-open: `created_after` inclusive, `created_before` exclusive.
 */
export const ListCallsQuerySchema = v.object({
  limit: cursorPageFields(200, 50).limit,
  offset: uncappedOffsetField(),
  cursor: cursorPageFields(200, 50).cursor,
  assistant_id: v.optional(idField()),
  direction: v.optional(v.picklist(CALL_DIRECTIONS)),
  channel: v.optional(v.picklist(CALL_CHANNELS)),
  status: v.optional(v.picklist(CALL_STATUSES)),
  outcome: v.optional(v.picklist(OUTCOMES)),
  created_after: v.optional(instantQueryField()),
  created_before: v.optional(instantQueryField()),
});

/** A validated GET /calls query, the window's ends as UTC ISO timestamps. */
export type ListCallsQuery = v.InferOutput<typeof ListCallsQuerySchema>;

const INT_QUERY_NAMES: ReadonlySet<string> = new Set(['limit', 'offset', 'assistant_id']);

/** Parses GET /calls query strings ({@link parseListQuery}); `created_after` after `created_before` is a 422. */
export function parseListCallsQuery(query: Record<string, string | undefined>): ListCallsQuery {
  const parsed = parseListQuery(ListCallsQuerySchema, INT_QUERY_NAMES, query, (values) => {
    const bad = instantItems(values, ['created_after', 'created_before']);
    if (bad.length > 0) return bad;
    const [after, before] = [utcIso(values.created_after), utcIso(values.created_before)];
    return [
      ...offsetWithCursorItems(values, query),
      ...windowItems({ name: 'created_after', iso: after }, { name: 'created_before', iso: before }),
    ];
  });
  return { ...parsed, created_after: utcIso(parsed.created_after), created_before: utcIso(parsed.created_before) };
}

/** What analysis produced once the call ended (docs/design.md "Resources"); `{}` before. */
export const CallAnalysisSchema = looseDict({
  summary: v.optional(v.string()),
  success_evaluation: v.optional(v.nullable(v.union([v.number(), v.string()]))),
  structured_data: v.optional(v.record(v.string(), v.unknown())),
  error: v.optional(
    v.pipe(
      v.string(),
      v.description('Why the analysis gave up after its last attempt; then the only field (the outcome comes from `ended_reason`).'),
    ),
  ),
});

/** Call `answered_by`: who picked up, from the carrier's answering-machine detection and our voicemail detector. */
export const ANSWERED_BY = ['human', 'machine', 'unknown'] as const;

const described = <S extends v.GenericSchema>(schema: S, text: string) => v.pipe(schema, v.description(text));

/** The Call resource (spec Call + docs/design.md "Resources"), as lists and POST /calls return it. */
export const CallSchema = strictDict({
  id: idField(),
  assistant_id: idField(),
  channel: v.picklist(CALL_CHANNELS),
  direction: v.picklist(CALL_DIRECTIONS),
  from_number: v.string(),
  to_number: v.string(),
  started_at: v.nullable(timestampField()),
  ended_at: v.nullable(timestampField()),
  duration_s: intField({ ge: 0 }),
  status: v.picklist(CALL_STATUSES),
  outcome: v.nullable(v.picklist(OUTCOMES)),
  ended_reason: v.nullable(v.picklist(ENDED_REASONS)),
  summary: v.string(),
  intent: v.string(),
  caller_name: v.nullable(v.string()),
  score: v.nullable(v.number()),
  analysis: CallAnalysisSchema,
  created_at: described(timestampField(), 'When the call was created (POST /calls, or the inbound call reaching us).'),
  answered_by: described(
    v.nullable(v.picklist(ANSWERED_BY)),
    "Who answered: `machine` when the carrier's answering-machine detection or the voicemail detector said so, `human` when the detection said so, `unknown` for an answered call without a verdict (inbound calls, detection off); null when the call was never answered.",
  ),
  carrier_call_id: described(v.nullable(v.string()), "The carrier's id of the call (Twilio `CallSid`); null until the carrier has it."),
  transferred_to: described(v.nullable(v.string()), 'The number the assistant transferred the caller to; null when it did not.'),
  recording_notice_heard: described(
    v.nullable(v.boolean()),
    'Whether the caller heard the recording notice to its last word; null when none was due (recording off, `recording_notice` off, `hipaa`) or the call never connected.',
  ),
  ai_disclosure_heard: described(
    v.nullable(v.boolean()),
    'Whether the caller heard the AI disclosure to its last word; null when none was due (`ai_disclosure` off) or the call never connected.',
  ),
  billed_minutes: described(
    v.nullable(intField({ ge: 0 })),
    'Minutes charged to the plan: the call rounded up to whole minutes, never more than it reserved; null until the call has ended and been settled.',
  ),
  expires_at: described(
    v.nullable(timestampField()),
    'When the call, its transcript and recording are deleted (`keep_days` after it ended); null when kept forever or not ended yet.',
  ),
});

/** Call fields the API derives from the stored call (or that the call gains as it ends): the record keeps them its own way. */
export type DerivedCallField =
  'answered_by' | 'carrier_call_id' | 'transferred_to' | 'recording_notice_heard' | 'ai_disclosure_heard' | 'billed_minutes' | 'expires_at';

/** A call as the API returns it. */
export type Call = v.InferOutput<typeof CallSchema>;

/** GET /calls: one page, newest first by creation; `has_more` when another page follows (docs/design.md "Response shapes"). */
export const CallsPageSchema = pageSchema(CallSchema);

/** One utterance; times in ms from call start; `interrupted` when the caller cut it off. */
export const TranscriptEntrySchema = strictDict({
  role: v.picklist(['assistant', 'user', 'tool']),
  text: v.string(),
  start_ms: intField({ ge: 0 }),
  end_ms: intField({ ge: 0 }),
  interrupted: v.boolean(),
});

/** A transcript entry. */
export type TranscriptEntry = v.InferOutput<typeof TranscriptEntrySchema>;

/** Webhook delivery states: retried on schedule while `pending`, dead-lettered as `failed`. */
export const DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;

/** One webhook's delivery history for a call, so a developer can see what their server answered. */
export const WebhookDeliveryViewSchema = strictDict({
  event_type: v.picklist(SERVER_EVENT_KINDS),
  webhook_id: v.string(),
  attempts: v.array(
    strictDict({
      at: timestampField(),
      status: v.nullable(intField({ ge: 100, le: 599 })),
      latency_ms: numberField({ ge: 0 }),
      error: v.nullable(v.string()),
    }),
  ),
  state: v.picklist(DELIVERY_STATES),
});

/** A webhook delivery as GET /calls/{id} shows it. */
export type WebhookDeliveryView = v.InferOutput<typeof WebhookDeliveryViewSchema>;

/** GET /calls/{id}: the Call plus transcript, metrics (`{}` until the call ends), recording and deliveries. */
export const CallDetailSchema = strictDict({
  ...CallSchema.entries,
  transcript: v.array(TranscriptEntrySchema),
  metrics: v.union([CallMetricsSchema, strictDict({})]),
  recording_url: v.nullable(v.string()),
  webhook_deliveries: v.array(WebhookDeliveryViewSchema),
  actions: v.pipe(v.array(ToolActionSchema), v.description('Every tool call of the call, in order (`[]` until it ends).')),
  workflow: v.pipe(
    v.nullable(CallWorkflowSchema),
    v.description(
      "The assistant's workflow on this call: the nodes visited and the variables collected (null without one, or until it ends).",
    ),
  ),
});

/** A call with its transcript and metrics, as GET /calls/{id} returns it. */
export type CallDetail = Call & {
  transcript: TranscriptEntry[];
  metrics: CallMetrics | Record<string, never>;
  recording_url: string | null;
  webhook_deliveries: WebhookDeliveryView[];
  actions: ToolAction[];
  workflow: CallWorkflow | null;
};
