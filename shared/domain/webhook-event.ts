import * as v from 'valibot';
import { CallDetailSchema } from './call';
import type { WebhookEventType } from './event-types';
import { strictDict, timestampField } from './validation';

function webhookEventSchema<const T extends WebhookEventType>(type: T) {
  return strictDict({
    type: v.literal(type),
    /** When the event happened (not when this attempt was sent: that is `webhook-timestamp`). */
    timestamp: timestampField(),
    data: CallDetailSchema,
  });
}

/**
 * The body POSTed for each webhook kind (docs/design.md "Webhooks"): the call exactly as
 * GET /calls/{id} returns it, so receivers parse one shape. The OpenAPI document's `webhooks`
 * are generated from these, and the delivery function builds its payload as this type.
 */
export const WEBHOOK_EVENT_SCHEMAS = {
  'call.started': webhookEventSchema('call.started'),
  'call.transferred': webhookEventSchema('call.transferred'),
  'call.completed': webhookEventSchema('call.completed'),
} satisfies Record<WebhookEventType, v.GenericSchema>;

/** One webhook body, whichever its kind. */
export type WebhookEvent = v.InferOutput<(typeof WEBHOOK_EVENT_SCHEMAS)[WebhookEventType]>;

/**
 * What each kind tells the receiver, and when it is sent (the document's webhook descriptions).
 * `data` is read when each attempt is made, so a late retry shows the call as it stands then.
 */
export const WEBHOOK_EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  'call.started': 'The call connected: an inbound call was answered, or an outbound one picked up. Calls that never connect send none.',
  'call.transferred':
    'The assistant handed the caller to a person (the `transfer` tool). The call then ends with `ended_reason` `transferred`, and `call.completed` follows.',
  'call.completed':
    'The call ended and its analysis is stored: `summary`, `outcome`, `score`, `analysis`, `transcript` and `metrics` are final. Sent for every call that ends, connected or not.',
};
