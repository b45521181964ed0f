import * as v from 'valibot';
import type { AssistantRepository } from '../../shared/db/assistant-repository';
import type { BusinessRepository } from '../../shared/db/business-repository';
import type { CallDetailRecord, CallRecord, CallRepository } from '../../shared/db/call-repository';
import type { DeliveryRecord, DeliveryRepository } from '../../shared/db/delivery-repository';
import { defaultAssistantConfig, type AssistantConfig } from '../../shared/domain/assistant-config';
import { SERVER_EVENT_KINDS } from '../../shared/domain/assistant-config-advanced';
import type { CallDetail } from '../../shared/domain/call';
import { redactDeep } from '../../shared/domain/redact';
import type { WebhookEvent } from '../../shared/domain/webhook-event';
import { CallEventDetailSchema } from '../../shared/events/catalog';
import type { SecretBox } from '../../shared/security/secret-box';
import { webhookSecretContext } from '../../shared/services/admin-service';
import { toCallDetailView } from '../../shared/services/call-views';
import { nextAttemptDelayMs } from '../../shared/webhooks/schedule';
import { sendWebhook, type WebhookFetch } from '../../shared/webhooks/send';
import { MAX_QUEUE_DELAY_S, type WebhookQueue } from '../../shared/queue/webhook-queue';
import type { Logger } from '../../shared/log';

export { MAX_QUEUE_DELAY_S, type WebhookQueue } from '../../shared/queue/webhook-queue';

const WebhookEventType = v.picklist(SERVER_EVENT_KINDS);

/** The first attempt: the EventBridge event as the rule's SQS target receives it. */
const EnvelopeSchema = v.looseObject({ 'detail-type': WebhookEventType, detail: CallEventDetailSchema });

/** A later attempt: our own delayed message. */
export const RetryMessageSchema = v.object({
  kind: v.literal('retry'),
  event_id: v.pipe(v.string(), v.minLength(1)),
  business_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  call_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  event_type: WebhookEventType,
  /** 1-based number of the attempt this message asks for. */
  attempt: v.pipe(v.number(), v.integer(), v.minValue(2)),
  /** ISO time the attempt is due; a message received earlier re-queues itself for the rest. */
  due_at: v.string(),
});

/** A retry message body. */
export type RetryMessage = v.InferOutput<typeof RetryMessageSchema>;

/** What the delivery function needs; everything with side effects is injected. */
export interface DeliverDeps {
  calls: CallRepository;
  assistants: AssistantRepository;
  businesses: BusinessRepository;
  deliveries: DeliveryRepository;
  secretBox: SecretBox;
  queue: WebhookQueue;
  now: () => Date;
  random: () => number;
  /** The local-development switch for loopback/private receivers; false in production. */
  allowPrivate: boolean;
  recordingUrl?: (recordingKey: string) => Promise<string | null>;
  fetchImpl?: WebhookFetch;
  timeoutMs?: number;
  log: Logger;
}

/** What one message led to (for logs and tests). */
export type DeliverResult = 'delivered' | 'retry_scheduled' | 'failed' | 'hopped' | 'not_subscribed' | 'call_missing' | 'duplicate';

/** Keys whose string values are metadata, not caller content, so redaction leaves them alone. */
const METADATA_KEYS = ['from_number', 'to_number', 'started_at', 'ended_at', 'at', 'webhook_id', 'event_type', 'timestamp'];

interface Job {
  eventId: string;
  businessId: number;
  callId: number;
  eventType: RetryMessage['event_type'];
  attempt: number;
  dueAt: string | null;
  occurredAt: string | null;
}

/**
 * Parses a queue message body: an EventBridge envelope (attempt 1) or a retry message.
 * @throws Error for anything else (a bug or a misrouted event: left to the queue's DLQ).
 */
export function parseDeliveryMessage(body: string): Job {
  const json: unknown = JSON.parse(body);
  const retry = v.safeParse(RetryMessageSchema, json);
  if (retry.success) {
    const m = retry.output;
    return {
      eventId: m.event_id,
      businessId: m.business_id,
      callId: m.call_id,
      eventType: m.event_type,
      attempt: m.attempt,
      dueAt: m.due_at,
      occurredAt: null,
    };
  }
  const envelope = v.safeParse(EnvelopeSchema, json);
  if (!envelope.success) throw new Error('unrecognised webhook queue message');
  const d = envelope.output.detail;
  return {
    eventId: d.event_id,
    businessId: d.business_id,
    callId: d.call_id,
    eventType: envelope.output['detail-type'],
    attempt: 1,
    dueAt: null,
    occurredAt: d.occurred_at,
  };
}

function retryBody(job: Pick<Job, 'eventId' | 'businessId' | 'callId' | 'eventType'>, attempt: number, dueAt: string): string {
  const message: RetryMessage = {
    kind: 'retry',
    event_id: job.eventId,
    business_id: job.businessId,
    call_id: job.callId,
    event_type: job.eventType,
    attempt,
    due_at: dueAt,
  };
  return JSON.stringify(message);
}

/** Seconds to ask SQS for, given how long until `dueAt` (0 when due). */
function queueDelaySeconds(dueAt: string, now: Date): number {
  const remaining = Date.parse(dueAt) - now.getTime();
  return remaining <= 0 ? 0 : Math.min(MAX_QUEUE_DELAY_S, Math.ceil(remaining / 1000));
}

/** The call exactly as GET /calls/{id} shows it, then redacted; no transcript under HIPAA. */
async function callPayloadData(
  deps: DeliverDeps,
  call: CallRecord,
  detail: CallDetailRecord,
  config: AssistantConfig,
): Promise<CallDetail> {
  const recordingUrl = detail.recording_key && deps.recordingUrl ? await deps.recordingUrl(detail.recording_key) : null;
  const deliveries = await deps.deliveries.listDeliveriesForCall(call.business_id, call.id);
  const view = toCallDetailView(call, detail, { recordingUrl, deliveries });
  const data = config.advanced.hipaa ? { ...view, transcript: [], recording_url: null } : view;
  return redactDeep(data, config.advanced.redact, { skipKeys: METADATA_KEYS });
}

/**
 * Handles ONE queue message (docs/design.md "Webhooks"): checks the subscription, creates or loads the
 * delivery record, makes one signed attempt, records it, and schedules the next attempt through a
 * delayed message (hopping in ≤ 15-minute steps) or settles the record as delivered or failed.
 * Receiver failures never throw; only our own infrastructure errors do, and the batch loop reports
 * those so SQS redelivers the message. A redelivered message is recognised by the attempt count.
 */
export async function deliverRecord(body: string, deps: DeliverDeps): Promise<DeliverResult> {
  const job = parseDeliveryMessage(body);
  const now = deps.now();
  if (job.dueAt && Date.parse(job.dueAt) > now.getTime()) {
    await deps.queue.send(retryBody(job, job.attempt, job.dueAt), queueDelaySeconds(job.dueAt, now));
    return 'hopped';
  }
  const found = await deps.calls.findCall(job.businessId, job.callId, Math.floor(now.getTime() / 1000));
  if (!found) {
    deps.log.warn(`webhook: call ${job.callId} of business ${job.businessId} is gone; ${job.eventType} dropped`);
    return 'call_missing';
  }
  const assistant = await deps.assistants.findAssistant(job.businessId, found.call.assistant_id);
  const config = assistant?.config ?? defaultAssistantConfig();
  let record: DeliveryRecord | undefined;
  if (job.attempt === 1) {
    const url = config.advanced.server_url.trim();
    if (url === '' || !config.advanced.server_events.includes(job.eventType)) {
      // Rare since publishers mark unsubscribed events and the rule drops them: a subscription
      // removed within the publisher's cache window (shared/services/webhook-subscriptions.ts).
      deps.log.info('webhook.not_subscribed', { call_id: job.callId, event_type: job.eventType });
      return 'not_subscribed';
    }
    record = await deps.deliveries.ensureDelivery({
      business_id: job.businessId,
      call_id: job.callId,
      webhook_id: job.eventId,
      event_type: job.eventType,
      occurred_at: job.occurredAt ?? now.toISOString(),
      url,
      next_attempt_at: now.toISOString(),
      created_at: now.toISOString(),
      ...(found.call.expires_at !== undefined && { expires_at: found.call.expires_at }),
    });
  } else {
    record = await deps.deliveries.findDelivery(job.businessId, job.callId, job.eventId);
    if (!record) throw new Error(`webhook delivery ${job.eventId} has no record for attempt ${job.attempt}`);
  }
  if (record.state !== 'pending' || record.attempts.length >= job.attempt) return resumeDuplicate(record, job, deps);
  if (record.attempts.length !== job.attempt - 1)
    throw new Error(`webhook delivery ${job.eventId}: attempt ${job.attempt} arrived before ${record.attempts.length + 1}`);

  const business = await deps.businesses.getBusiness(job.businessId);
  const secret = await deps.secretBox.open(business.webhook_secret_sealed, webhookSecretContext(job.businessId));
  const data = await callPayloadData(deps, found.call, found.detail, config);
  // Typed as the OpenAPI document's webhook bodies are generated (shared/domain/webhook-event.ts).
  const payload: WebhookEvent = { type: record.event_type, timestamp: record.occurred_at, data };
  const attempt = await sendWebhook({
    url: record.url,
    payload,
    webhookId: record.webhook_id,
    secrets: [secret],
    now: deps.now,
    allowPrivate: deps.allowPrivate,
    ...(deps.timeoutMs !== undefined ? { timeoutMs: deps.timeoutMs } : {}),
    ...(deps.fetchImpl ? { fetchImpl: deps.fetchImpl } : {}),
  });
  const stored = { at: attempt.at, status: attempt.status, latency_ms: attempt.latency_ms, error: attempt.error };
  const after = deps.now();
  const delay = attempt.outcome === 'retry' ? nextAttemptDelayMs(job.attempt + 1, deps.random, attempt.retry_after_s) : null;
  const state = attempt.outcome === 'delivered' ? 'delivered' : delay === null ? 'failed' : 'pending';
  const dueAt = delay === null ? null : new Date(after.getTime() + delay).toISOString();
  const updated = await deps.deliveries.recordAttempt(record, stored, { state, nextAttemptAt: dueAt, now: after.toISOString() });
  if (!updated) return 'duplicate';
  if (state === 'failed')
    deps.log.warn(
      `webhook ${record.webhook_id} (${record.event_type}, call ${job.callId}) dead-lettered after ${updated.attempts.length} attempt(s)`,
    );
  if (state !== 'pending') return state;
  if (!dueAt) throw new Error('a pending delivery has a due time');
  await deps.queue.send(retryBody(job, job.attempt + 1, dueAt), queueDelaySeconds(dueAt, after));
  return 'retry_scheduled';
}

/**
 * A message whose attempt is already recorded (SQS at-least-once, or a crash between recording
 * and queueing). If the record still waits for the very next attempt, its message is sent again,
 * so a lost send cannot strand the delivery; the attempt-count guard drops any extra copy.
 */
async function resumeDuplicate(record: DeliveryRecord, job: Job, deps: DeliverDeps): Promise<DeliverResult> {
  if (record.state === 'pending' && record.attempts.length === job.attempt && record.next_attempt_at) {
    await deps.queue.send(retryBody(job, job.attempt + 1, record.next_attempt_at), queueDelaySeconds(record.next_attempt_at, deps.now()));
  }
  return 'duplicate';
}
