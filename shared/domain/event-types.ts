/**
 * The call events this service emits, listed once: the EventBridge `detail-type`s
 * (shared/events/catalog.ts), the webhook rule's pattern (shared/events/rules.ts), the kinds an
 * assistant may subscribe to (`advanced.server_events`), the webhook bodies and the OpenAPI
 * `webhooks` all derive from these two lists. Adding a webhook kind is adding it here (then its
 * body and description in webhook-event.ts, which the compiler asks for).
 */

/** The kinds a business can subscribe to in `advanced.server_events`, in the order documents list them. */
export const WEBHOOK_EVENT_TYPES = ['call.started', 'call.transferred', 'call.completed'] as const;

/** A webhook kind a business can subscribe to. */
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Events no webhook carries: `call.ended` feeds the analysis, which then emits `call.completed`. */
export const INTERNAL_EVENT_TYPES = ['call.ended'] as const;

/** Every event type (EventBridge `detail-type`). */
export const EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, ...INTERNAL_EVENT_TYPES] as const;
export type EventType = (typeof EVENT_TYPES)[number];
