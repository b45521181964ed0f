import * as v from 'valibot';
import { EVENT_LINE_MAX_CHARS, EVENT_TRANSCRIPT_MAX_LINES } from '../domain/analysis-transcript';
import type { EventType } from '../domain/event-types';

/**
 * Event types (EventBridge `detail-type`): `call.ended` is internal; the rest reach webhooks. The
 * lists live in the domain (shared/domain/event-types.ts), which the assistant config validates
 * `advanced.server_events` against, and which may not import this adapter folder.
 */
export { EVENT_TYPES, WEBHOOK_EVENT_TYPES } from '../domain/event-types';
export type { EventType };

/** The EventBridge `source` of every event this service emits. */
export const EVENT_SOURCE = 'voice-agent';

/**
 * Every event's detail: which call of which business, and when. Consumers load the call record
 * for the rest, so events stay small and carry no call content, with one exception: the
 * `call.ended` of an `advanced.hipaa` call carries its redacted `transcript`, which is stored
 * nowhere, so that the analysis can still read it (bounded to fit EventBridge's 256 KB entry:
 * shared/domain/analysis-transcript.ts; docs/decisions.md).
 */
export const CallEventDetailSchema = v.object({
  event_id: v.pipe(v.string(), v.minLength(1)),
  business_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  call_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  assistant_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  occurred_at: v.string(),
  /**
   * Whether the call's assistant subscribes to this kind as a webhook, as the publisher saw it
   * (shared/services/webhook-subscriptions.ts); only `true` passes the rule to the delivery queue.
   * Absent on `call.ended` (internal).
   */
  webhook: v.optional(v.boolean()),
  transcript: v.optional(
    v.pipe(
      v.array(v.object({ role: v.picklist(['assistant', 'user', 'tool']), text: v.pipe(v.string(), v.maxLength(EVENT_LINE_MAX_CHARS)) })),
      v.maxLength(EVENT_TRANSCRIPT_MAX_LINES),
    ),
  ),
});

export type CallEventDetail = v.InferOutput<typeof CallEventDetailSchema>;

/** One event as published: type plus detail. */
export interface CallEvent {
  type: EventType;
  detail: CallEventDetail;
}
