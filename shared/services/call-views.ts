import type { Call, CallDetail } from '../domain/call';
import type { CallDetailRecord, CallRecord } from '../db/call-repository';

/** The public Call fields of a stored call, in the spec's order; engine bookkeeping stays inside. */
export function toCallView(record: CallRecord): Call {
  return {
    id: record.id,
    assistant_id: record.assistant_id,
    channel: record.channel,
    direction: record.direction,
    from_number: record.from_number,
    to_number: record.to_number,
    started_at: record.started_at,
    ended_at: record.ended_at,
    duration_s: record.duration_s,
    status: record.status,
    outcome: record.outcome,
    ended_reason: record.ended_reason,
    summary: record.summary,
    intent: record.intent,
    caller_name: record.caller_name,
    score: record.score,
    analysis: record.analysis,
  };
}

/** GET /calls/{id}: the Call plus transcript, metrics, recording link and webhook deliveries. */
export function toCallDetailView(
  record: CallRecord,
  detail: CallDetailRecord,
  extras: { recordingUrl: string | null; deliveries: CallDetail['webhook_deliveries'] },
): CallDetail {
  return {
    ...toCallView(record),
    transcript: detail.transcript,
    metrics: detail.metrics as CallDetail['metrics'],
    recording_url: extras.recordingUrl,
    webhook_deliveries: extras.deliveries,
    actions: detail.actions ?? [],
  };
}

/** The fields that differ between new calls; everything else is the spec's initial state. */
export interface NewCallFields {
  id: number;
  business_id: number;
  assistant_id: number;
  direction: 'inbound' | 'outbound';
  from_number: string;
  to_number: string;
  phone_number_id: number | null;
  variables: Record<string, string>;
  now: string;
}

/** A call in its initial state exactly as the spec's Call table says (status queued, nothing filled yet). */
export function initialCallRecord(fields: NewCallFields): CallRecord {
  const { now, ...rest } = fields;
  return {
    ...rest,
    channel: 'phone',
    started_at: null,
    ended_at: null,
    duration_s: 0,
    status: 'queued',
    outcome: null,
    ended_reason: null,
    summary: '',
    intent: '',
    caller_name: null,
    score: null,
    analysis: {},
    created_at: now,
    updated_at: now,
  };
}
