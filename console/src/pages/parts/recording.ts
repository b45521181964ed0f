import type { components } from '../../api/schema';

type CallDetail = components['schemas']['CallDetail'];
type Advanced = components['schemas']['AdvancedCfg'];

/**
 * Why a call has no recording to play, in one sentence, from what the call record and (when it could be
 * read) its assistant's settings say. The API gives `recording_url: null` without a reason, so this
 * reads the reasons docs/design.md gives: not ended yet, never connected, recording off, HIPAA mode,
 * deleted by `keep_days`.
 */
export function noRecordingReason(call: CallDetail, advanced: Pick<Advanced, 'recording' | 'hipaa'> | undefined, now: number): string {
  if (call.status !== 'ended') return 'The recording is ready once the call ends.';
  if (call.started_at === null) return 'The call never connected, so nothing was recorded.';
  if (call.expires_at !== null && Date.parse(call.expires_at) <= now) return 'The recording was deleted when the call expired (keep_days).';
  if (advanced?.hipaa) return 'The assistant runs in HIPAA mode (advanced.hipaa), which keeps no recording.';
  if (advanced && !advanced.recording) return "The assistant's recording setting (advanced.recording) is off.";
  return 'No recording was stored for this call (the assistant may have had recording off when it ran).';
}

/** How long after a call ends its page keeps waiting for the analysis (usually seconds; retries can take longer). */
export const ANALYSIS_WAIT_MS = 120_000;

/**
 * How often a call's page reads the call again: every `everyMs` while it is under way (queued,
 * ringing, in progress), and after it ends until its analysis is in (a connected call gets one; a
 * call that never connected does not), for at most {@link ANALYSIS_WAIT_MS}. Then never.
 */
export function refreshEvery(
  call: Pick<CallDetail, 'status' | 'started_at' | 'ended_at' | 'analysis'>,
  now: number,
  everyMs: number,
): number | undefined {
  if (call.status !== 'ended') return everyMs;
  const waiting = call.started_at !== null && Object.keys(call.analysis).length === 0;
  const endedAt = call.ended_at === null ? now : Date.parse(call.ended_at);
  return waiting && now - endedAt < ANALYSIS_WAIT_MS ? everyMs : undefined;
}
