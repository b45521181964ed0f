import type * as v from 'valibot';
import { SERVER_EVENT_KINDS } from './assistant-config';
import type { WebhookEventType } from './event-types';
import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_SCHEMAS } from './webhook-event';

type Json = Record<string, unknown>;

/** `call.started` → `CallStarted`. */
function pascal(type: WebhookEventType): string {
  return type
    .split('.')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

/** The component name of each kind's body: `call.started` → `CallStartedEvent`. */
const componentName = (type: WebhookEventType) => `${pascal(type)}Event`;

/** The webhook bodies as named valibot schemas, converted together with the responses (they share `CallDetail`). */
export function webhookBodySchemas(): Record<string, v.GenericSchema> {
  return Object.fromEntries(SERVER_EVENT_KINDS.map((type) => [componentName(type), WEBHOOK_EVENT_SCHEMAS[type]]));
}

/** The Standard Webhooks headers on every attempt (docs/design.md "Webhooks"). */
export const WEBHOOK_HEADER_PARAMETERS: Record<string, Json> = {
  WebhookId: {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The event id: the same on every attempt of one delivery, so receivers de-duplicate on it.',
    schema: { type: 'string', minLength: 1, maxLength: 255, examples: ['evt_3b5d5c37-4d59-4f6c-9a55-2f0c8a1d2e7b'] },
  },
  WebhookTimestamp: {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds when THIS attempt was sent (fresh on every retry); reject ones far from your clock.',
    schema: { type: 'string', pattern: '^[0-9]+$', examples: ['1795339283'] },
  },
  WebhookSignature: {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, keyed by the base64 after `whsec_` in the business\'s webhook secret. Verify with any Standard Webhooks library.',
    schema: { type: 'string', examples: ['v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4='] },
  },
};

const parameterRefs = Object.keys(WEBHOOK_HEADER_PARAMETERS).map((name) => ({ $ref: `#/components/parameters/${name}` }));

/** What the receiver's answer does to the delivery (shared/webhooks/classify.ts). */
const WEBHOOK_RESPONSES: Json = {
  '2XX': { description: 'Delivered: any 2xx, within 10 s. The body is ignored.' },
  '410': { description: 'Gone: the delivery stops at once and is marked failed.' },
  default: {
    description:
      'Anything else (3xx, other 4xx, 5xx, a timeout or a network error) is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h (±10 %), honouring `Retry-After` on 429 and 503.',
  },
};

/**
 * The document's top-level `webhooks` (OpenAPI 3.1): one POST per kind a business can subscribe
 * to, sent to `advanced.server_url`, signed per Standard Webhooks.
 */
export function webhookOperations(): Json {
  return Object.fromEntries(
    SERVER_EVENT_KINDS.map((type) => [
      type,
      {
        post: {
          operationId: `${pascal(type).charAt(0).toLowerCase()}${pascal(type).slice(1)}Webhook`,
          tags: ['Webhooks'],
          summary: `\`${type}\``,
          description: `${WEBHOOK_EVENT_DESCRIPTIONS[type]} Sent only when \`advanced.server_events\` lists \`${type}\`; \`data\` is the call as GET /calls/{call_id} returns it when the attempt is made (redacted per \`advanced.redact\`; no transcript or recording under \`advanced.hipaa\`).`,
          security: [],
          parameters: parameterRefs,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${componentName(type)}` } } },
          },
          responses: WEBHOOK_RESPONSES,
        },
      },
    ]),
  );
}
