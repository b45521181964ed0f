import type { CallRecord } from '../ports/call-records';
import type { EndedReason } from '../../../shared/domain/call';
import type { CallRecorder } from '../recording/call-recorder';
import type { ToolRunner } from '../tools/tool-runner';
import type { CallContext } from './call-context';
import { noticeOutcome } from './call-machine';
import { buildCallMetrics, modelLabelFor, type CallCounters } from './call-metrics';
import type { CallSessionDeps, ConversationDriver, SessionStart } from './session-types';

/** What a session knows at its end, for {@link recordCallEnding}. */
export interface CallEndingParts {
  context: CallContext;
  claims: SessionStart['claims'];
  reason: EndedReason;
  /** Clock ms when the ending was decided. */
  endedAt: number;
  t0: number;
  counters: CallCounters;
  recorder: CallRecorder | undefined;
  driver: ConversationDriver | undefined;
  tools: ToolRunner | undefined;
  /** The call as the session last saw it from a write, once answered. */
  answered: CallRecord | undefined;
}

/**
 * Records a session's call once it has ended: finishes the recording (unless HIPAA left none),
 * then writes the ended call with its transcript, metrics, actions, workflow path and notices
 * (`lifecycle.end`, which publishes `call.ended`). Never throws: a failure is logged.
 */
export async function recordCallEnding(deps: CallSessionDeps, parts: CallEndingParts): Promise<void> {
  const { context, claims, reason, endedAt, t0, counters, driver } = parts;
  const { businessId, callId } = claims;
  let recordingKey: string | null = null;
  if (parts.recorder) {
    try {
      recordingKey = await parts.recorder.finish();
    } catch (error) {
      deps.log.error('call.recording.failed', { call_id: callId, error: String(error) });
    }
  }
  const durationS = (endedAt - t0) / 1000;
  const streamAt = Date.parse(context.call.media_started_at ?? '');
  const { providers } = deps;
  const llm = driver ? driver.modelLabel(providers.llm) : modelLabelFor(context.config, providers.llm);
  const labels = llm === providers.llm ? providers : { ...providers, llm };
  try {
    await deps.lifecycle.end(businessId, callId, {
      endedReason: reason,
      transcript: driver?.transcript() ?? [],
      metrics: buildCallMetrics(counters, durationS, labels, t0),
      recordingKey,
      actions: parts.tools?.actions() ?? [],
      workflow: driver?.workflow?.(),
      // A call that ended before its conversation started heard no notice that was due.
      notices: driver?.notices() ?? noticeOutcome(context.config, context.script.notice, false),
      ...(!Number.isNaN(streamAt) && { endedAt: new Date(streamAt + endedAt - t0).toISOString() }),
      config: context.config,
      call: parts.answered,
    });
  } catch (error) {
    deps.log.error('call.record.failed', { call_id: callId, error: String(error) });
  }
  deps.log.info('call.session.ended', { call_id: callId, reason, duration_s: Math.round(durationS), turns: counters.turns.length });
}
