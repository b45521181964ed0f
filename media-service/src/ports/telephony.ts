import { ProviderError } from '../../../shared/errors';

/**
 * The carrier's control plane: dial, hang up, transfer. The media plane is `CallTransport`; call
 * progress arrives asynchronously as status callbacks (HTTP webhooks from the carrier), which is
 * why busy and no-answer are NOT errors here: `placeCall` succeeds as soon as the carrier has
 * queued the call, and the outcome is reported later as a {@link CallStatusUpdate}.
 */

/** What to dial and where the carrier should connect the call's audio and report progress. */
export interface PlaceCallRequest {
  /** E.164 number to call. */
  to: string;
  /** E.164 caller id (one of the business's numbers). */
  from: string;
  /** `wss://…` media-stream URL (no query string: Twilio strips it; use `parameters`). */
  streamUrl: string;
  /** Sent back in the stream's `start.customParameters` (e.g. the stream token, call id). */
  parameters: Record<string, string>;
  /** Receives every call-progress status (initiated, ringing, answered, completed…), form-encoded and signed. */
  statusCallbackUrl: string;
  /** Ask for answering-machine detection (async: the call connects at once, the verdict arrives later). */
  machineDetection: boolean;
  /** Receives the AMD verdict (`AsyncAmdStatusCallback`); only used when `machineDetection` is true. */
  amdCallbackUrl: string;
  /** Seconds to let it ring before giving up with `no-answer` (Twilio default 60, max 600). */
  timeoutS: number;
  /** Hard cap of the connected call, seconds (`TimeLimit`: the minutes reserved for it). */
  timeLimitS: number;
}

/**
 * Call progress as Twilio names it in `CallStatus`. Terminal: completed, busy, no-answer, failed,
 * canceled (hung up before it was answered).
 */
export type CallProgressStatus =
  'queued' | 'initiated' | 'ringing' | 'in-progress' | 'completed' | 'busy' | 'no-answer' | 'failed' | 'canceled';

/** The statuses after which nothing more happens on a call. */
export const TERMINAL_CALL_STATUSES: ReadonlySet<CallProgressStatus> = new Set(['completed', 'busy', 'no-answer', 'failed', 'canceled']);

/** One parsed status callback. */
export interface CallStatusUpdate {
  callSid: string;
  status: CallProgressStatus;
  /** Seconds the call was connected; present on `completed`. */
  durationS?: number;
  /** Carrier sequence number of this callback (they can arrive out of order over HTTP). */
  sequenceNumber?: number;
  /** SIP response code when the carrier reports one (e.g. 486 busy, 404 failed). */
  sipResponseCode?: number;
}

/** Answering-machine verdicts (Twilio `AnsweredBy`). */
export const ANSWERED_BY = [
  'human',
  'machine_start',
  'machine_end_beep',
  'machine_end_silence',
  'machine_end_other',
  'fax',
  'unknown',
] as const;
export type AnsweredBy = (typeof ANSWERED_BY)[number];

/** A stored verdict read back (the call record keeps it as text). */
export const isAnsweredBy = (value: string | undefined): value is AnsweredBy =>
  (ANSWERED_BY as readonly (string | undefined)[]).includes(value);

/** One parsed AMD callback. */
export interface AmdResult {
  callSid: string;
  answeredBy: AnsweredBy;
  /** How long detection took, in ms. */
  detectionMs?: number;
}

/**
 * Whether a failed `placeCall` may have placed the call all the same: `no` when the carrier
 * certainly did not (it answered a 4xx, or never got the request), `unknown` when it may have (a
 * timeout or a dropped connection after the request went out, a 5xx, an answer we could not read).
 * The carrier's create-call API has no idempotency key, so only a `no` may be dialled again.
 */
export type PlacedAfterFailure = 'no' | 'unknown';

/** A `placeCall` that failed, saying whether the call may exist (retryability as any `ProviderError`). */
export class PlaceCallError extends ProviderError {
  constructor(
    readonly placed: PlacedAfterFailure,
    provider: string,
    message: string,
    statusCode?: number,
    options?: { cause?: unknown },
  ) {
    super(provider, message, statusCode, options);
    this.name = 'PlaceCallError';
  }
}

/**
 * Outbound call control. Every failure is a `ProviderError` (4xx permanent except 408/429;
 * network errors and 5xx retryable); `placeCall`'s are {@link PlaceCallError}s, and a caller
 * treats any other error from it as `placed: 'unknown'`.
 */
export interface Telephony {
  /** Asks the carrier to dial; resolves with the call SID once queued (status `queued`). */
  placeCall(request: PlaceCallRequest): Promise<{ callSid: string }>;
  /** Ends the call (either leg). A call that is already gone is not an error. */
  hangup(callSid: string): Promise<void>;
  /** Redirects the live call to `toNumber` (TwiML `<Dial>`); the media stream stops. */
  transfer(callSid: string, toNumber: string, callerId?: string): Promise<void>;
}
