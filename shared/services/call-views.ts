import type { Call, CallChannel, CallDetail } from '../domain/call';
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
    created_at: record.created_at,
    answered_by: answeredBy(record),
    carrier_call_id: record.carrier_call_sid ?? null,
    transferred_to: record.transferred_to ?? null,
    recording_notice_heard: record.recording_notice_heard ?? null,
    ai_disclosure_heard: record.ai_disclosure_heard ?? null,
    billed_minutes: record.charged_minutes ?? null,
    expires_at: record.expires_at === undefined ? null : new Date(record.expires_at * 1000).toISOString(),
  };
}

/**
 * Who answered (Call `answered_by`): the voicemail detector's verdict (a call ended `voicemail`),
 * else the carrier's AMD (`machine_*` and `fax` are machines), else `unknown` for an answered
 * call and null for one never answered.
 */
export function answeredBy(record: CallRecord): Call['answered_by'] {
  const amd = record.answered_by ?? '';
  if (record.ended_reason === 'voicemail' || amd.startsWith('machine') || amd === 'fax') return 'machine';
  if (amd === 'human') return 'human';
  return record.started_at ? 'unknown' : null;
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
    workflow: detail.workflow ?? null,
  };
}

/** The fields that differ between new calls; everything else is the spec's initial state. */
export interface NewCallFields {
  id: number;
  business_id: number;
  assistant_id: number;
  direction: 'inbound' | 'outbound';
  /** Default `phone`; `web` for a browser call (POST /calls/web). */
  channel?: CallChannel;
  from_number: string;
  to_number: string;
  phone_number_id: number | null;
  variables: Record<string, string>;
  now: string;
}

/** A call in its initial state exactly as the spec's Call table says (status queued, nothing filled yet). */
export function initialCallRecord(fields: NewCallFields): CallRecord {
  const { now, channel = 'phone', ...rest } = fields;
  return {
    ...rest,
    channel,
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
