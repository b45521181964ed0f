import type { CallWorkflow } from '../domain/workflow';
import type { Call, CallChannel, CallStatus, DerivedCallField, EndedReason, Outcome, TranscriptEntry } from '../domain/call';
import type { CallMetrics } from '../domain/call-metrics';
import type { KeyPageRequest } from './key-pages';
import type { ToolAction } from '../domain/tool-action';

/**
 * The stored call: the public Call fields plus every field the engine, the carrier callbacks, the
 * minutes ledger and the analysis keep on it. Each is declared here, and only the repositories of
 * shared/db write them (through named transitions), so a reader never has to guess a field's type.
 * Fields the call gains as it moves on are optional: a new call has none of them.
 */
export interface CallRecord extends Omit<Call, DerivedCallField> {
  business_id: number;
  created_at: string;
  updated_at: string;
  phone_number_id: number | null;
  variables: Record<string, string>;
  /** Epoch seconds after which the call is gone (advanced.keep_days); hidden on read past it. */
  expires_at?: number;

  /**
   * Web calls: the lowercase hex SHA-256 of the single-use token (never the token), removed when
   * the call engine redeems it (docs/api-tour.md "Web calls"), and when it stops working (epoch ms).
   */
  web_token_hash?: string;
  web_token_expires_at?: number;
  /**
   * Listening to a live call: the SHA-256 of the single-use `wl_` token (never the token), removed
   * when the call engine redeems it, and when it stops working (epoch ms) (docs/api-tour.md
   * "Listening to a live call").
   */
  listen_token_hash?: string;
  listen_token_expires_at?: number;
  /** When `POST /calls/{id}/end` asked for the call to end; the engine holding it ends it `canceled`. */
  end_requested_at?: string;

  /** The carrier's call id: an inbound call has it from the start, an outbound one once dialled. */
  carrier_call_sid?: string;
  /** How long the engine lets the call run (s): the assistant's max duration, capped by the minutes reserved. */
  time_limit_s?: number;
  /** The carrier's answering-machine verdict (Twilio `AnsweredBy`). */
  answered_by?: string;
  /** When the carrier reported `completed` while a live session still owned the call. */
  carrier_completed_at?: string;

  /** The outbound consumer holding the call to dial it; null once given back at the concurrency cap. */
  claimed_by?: string | null;
  claimed_at?: string | null;
  /** The queue message that claimed the call: that job, delivered again, may take over a claim gone stale. */
  claim_job?: string | null;
  /** Dial attempts the carrier refused to queue (429, unreachable); the call ends `failed` at the limit. */
  dial_failures?: number;

  /** When the media stream attached (a one-time claim), and the session's last sign of life. */
  media_started_at?: string;
  heartbeat_at?: string;
  /** Whether each notice due was heard in full (null: not due), written with the ending. */
  recording_notice_heard?: boolean | null;
  ai_disclosure_heard?: boolean | null;

  /** Where the assistant handed the caller, and when. */
  transferred_to?: string;
  transferred_at?: string;

  /** The id `call.ended` is published with (every republish reuses it). */
  ended_event_id?: string;
  /** The ending is written but its follow-up (slot, minutes, event) has not all run yet. */
  finish_pending?: boolean;

  /** Concurrency slot: taken with the minutes, then given back with them (each once; CallAdmission). */
  slot_held?: boolean;
  slot_released?: boolean;
  /** Minutes ledger: reserved before the call, then settled once with the minutes charged (CallAdmission; MinutesRepository uncapped). */
  reserved_minutes?: number;
  settled?: boolean;
  charged_minutes?: number;

  /** Analysis runs started so far (the last one records the failure instead of throwing). */
  analysis_attempts?: number;
  /** Set once with the analysis; guards it against a second write. */
  analysis_completed_at?: string;
  /** The id `call.completed` is published with (every republish reuses it). */
  completed_event_id?: string;
  /** Why the analysis gave up, or null once it succeeded. */
  analysis_error?: { message: string; at: string } | null;
}

/** The heavy part of a call, kept out of list reads. */
export interface CallDetailRecord {
  transcript: TranscriptEntry[];
  metrics: CallMetrics | Record<string, never>;
  recording_key: string | null;
  /** The call's tool calls (absent on calls recorded before tools ran). */
  actions?: ToolAction[];
  /** The call's run of its workflow (absent without one). */
  workflow?: CallWorkflow;
  expires_at?: number;
}

/** What an ending writes on the call record (the status becomes `ended`). */
export interface EndingFields {
  ended_at: string;
  ended_reason: EndedReason;
  duration_s: number;
  outcome: Outcome | null;
  updated_at: string;
  ended_event_id: string;
  expires_at?: number;
  /** Whether each notice due was heard in full (null: not due); left out for a call the engine never ran. */
  recording_notice_heard?: boolean | null;
  ai_disclosure_heard?: boolean | null;
}

/** The slot and reservation the ending saw on the call: the write holds only while they are unchanged. */
export interface EndingPrecondition {
  slotHeld: boolean;
  reservedMinutes: number | undefined;
}

/** What a finished analysis writes (the outcome always; the rest when the model ran, or failed for good). */
export interface AnalysisFields {
  outcome: Outcome | null;
  summary?: string;
  intent?: string;
  caller_name?: string | null;
  score?: number | null;
  analysis?: Call['analysis'];
  analysis_error?: { message: string; at: string } | null;
}

/** A transition guarded by a condition: written (with the call as written), or refused (with the call as it stands, undefined when there is no such call). */
export type Transition = { written: true; call: CallRecord } | { written: false; call: CallRecord | undefined };

/** Why a media stream may not attach to a call (see CallRepository.attachStream). */
export type StreamRefusal = 'unknown_call' | 'already_ended' | 'wrong_call' | 'already_attached';

/** Filters and page of GET /calls. */
export interface ListCallsOptions extends KeyPageRequest {
  assistantId?: number;
  direction?: 'inbound' | 'outbound';
  channel?: CallChannel;
  status?: CallStatus;
  outcome?: Outcome;
  /** UTC ISO: created at or after (inclusive). */
  createdAfter?: string;
  /** UTC ISO: created before (exclusive). */
  createdBefore?: string;
  nowEpochSeconds: number;
}
