import type { AssistantRecord } from '../../../shared/db/assistant-repository';
import type { Business } from '../../../shared/db/business-repository';
import type { CallRecord, StreamRefusal } from '../../../shared/db/call-record';
import type { CallEnding } from '../../../shared/services/call-lifecycle';

/**
 * What a live call reads and writes of the platform's records: its own call (the stream attached
 * once, then answered, transferred, ended), its assistant and its business. The call code sees
 * these methods only; the composition root (server/media-runtime.ts, the test and bench stacks)
 * passes the table-backed repositories and the `CallLifecycle` service, which have them.
 */
export type { AssistantRecord, Business, CallEnding, CallRecord, StreamRefusal };

/** The call's own record, as its media stream claims it. */
export interface CallRecords {
  /** Attaches the stream to its call (one conditional write returning the call), or why not. */
  attachStream(businessId: number, callId: number, callSid: string, at: string): Promise<CallRecord | StreamRefusal>;
  /** The carrier's answering-machine verdict stored on the call (by whichever task got the callback), if any yet. */
  answeredBy(businessId: number, callId: number): Promise<string | undefined>;
}

/** The assistant a call runs. */
export interface AssistantRecords {
  /** The assistant, undefined when it is gone (the call then runs the default config). */
  findAssistant(businessId: number, assistantId: number): Promise<AssistantRecord | undefined>;
}

/** The business a call belongs to. */
export interface BusinessRecords {
  getBusiness(businessId: number): Promise<Business>;
}

/** The call's lifecycle transitions, each with its event published (`CallLifecycle` in shared/services). */
export interface CallProgress {
  /** Moves a ringing call to in-progress; the call as it now stands, undefined when there is no such call. */
  markAnswered(businessId: number, callId: number): Promise<CallRecord | undefined>;
  /** Stores `transferred_to` and publishes `call.transferred`. */
  markTransferred(businessId: number, callId: number, toNumber: string): Promise<void>;
  /** Takes `transferred_to` back: the carrier refused the transfer. */
  transferFailed(businessId: number, callId: number, toNumber: string): Promise<void>;
  /** Ends the call once; false when it had already ended. */
  end(businessId: number, callId: number, ending: CallEnding): Promise<boolean>;
}
