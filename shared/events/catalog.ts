import * as v from 'valibot';

/** The EventBridge `source` of every event this service emits. */
export const EVENT_SOURCE = 'voice-agent';

/** Event types (EventBridge `detail-type`). `call.ended` is internal; the rest reach webhooks. */
export const EVENT_TYPES = ['call.started', 'call.transferred', 'call.ended', 'call.completed'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The kinds a business can subscribe to in `advanced.server_events`. */
export const WEBHOOK_EVENT_TYPES = ['call.started', 'call.transferred', 'call.completed'] as const;

/**
 * Every event's detail: which call of which business, and when. Consumers load the call record
 * for the rest, so events stay small (EventBridge's 256 KB limit never matters) and carry no call
 * content (HIPAA: nothing sensitive passes through the bus).
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
});

export type CallEventDetail = v.InferOutput<typeof CallEventDetailSchema>;

/** One event as published: type plus detail. */
export interface CallEvent {
  type: EventType;
  detail: CallEventDetail;
}
