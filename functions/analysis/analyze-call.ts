import type { AssistantRepository } from '../../shared/db/assistant-repository';
import type { BusinessRepository } from '../../shared/db/business-repository';
import type { AnalysisFields, CallDetailRecord, CallRecord, CallRepository } from '../../shared/db/call-repository';
import type { CallerMemoryRepository } from '../../shared/db/caller-memory-repository';
import { buildAnalysisMessages, parseAnalysisOutput } from '../../shared/domain/analysis';
import type { AnalysisConfig } from '../../shared/domain/analysis-schema';
import { defaultAssistantConfig, type AssistantConfig } from '../../shared/domain/assistant-config';
import { subscribesTo } from '../../shared/services/webhook-subscriptions';
import { describeBusiness } from '../../shared/domain/business-profile';
import type { EndedReason } from '../../shared/domain/call';
import { analysisRedaction } from '../../shared/domain/analysis-transcript';
import { decideOutcome, needsLlmAnalysis, type SpokenLine } from '../../shared/domain/outcome';
import { redactDeep, redactText } from '../../shared/domain/redact';
import type { CallEvent } from '../../shared/events/catalog';
import type { EventBus } from '../../shared/events/event-bus';
import type { AnalysisModel } from '../../shared/llm/analysis-client';
import type { Logger } from '../../shared/log';

/** Attempts per call before the failure is recorded: the first run plus Lambda's two async retries. */
export const DEFAULT_ANALYSIS_ATTEMPTS = 3;

/** What the analysis needs; everything with side effects is injected. */
export interface AnalyzeDeps {
  calls: CallRepository;
  assistants: AssistantRepository;
  businesses: BusinessRepository;
  events: EventBus;
  model: AnalysisModel;
  now: () => Date;
  /** A fresh event id (no '.': it becomes the `webhook-id`). */
  newEventId: () => string;
  /** Attempts before {@link recordAnalysisFailure} runs instead of a throw (default 3). */
  maxAttempts?: number;
  log: Logger;
  /**
   * Where `advanced.memory` keeps summaries for the caller's next call. Required, so every
   * composition (the Lambda, `npm run dev`'s pipeline, tests) remembers exactly as deployed.
   */
  memory: Pick<CallerMemoryRepository, 'remember'>;
}

/** What one invocation did (for logs and tests). */
export type AnalyzeResult = 'analysed' | 'outcome_only' | 'republished' | 'failed' | 'call_missing' | 'ignored';

interface Loaded {
  call: CallRecord;
  /** What the analysis reads: the stored transcript, or a HIPAA call's redacted one from its event. */
  transcript: SpokenLine[];
  config: AssistantConfig;
  endedReason: EndedReason;
}

/**
 * The transcript to analyse. A HIPAA call stores none: its `call.ended` carries it, redacted
 * (shared/domain/analysis-transcript.ts), and it lives only in this invocation's memory.
 */
function transcriptOf(event: CallEvent, detail: CallDetailRecord, config: AssistantConfig): SpokenLine[] {
  return config.advanced.hipaa ? (event.detail.transcript ?? []) : (detail.transcript ?? []);
}

async function load(event: CallEvent, deps: AnalyzeDeps): Promise<Loaded | undefined> {
  const { business_id: businessId, call_id: callId } = event.detail;
  const found = await deps.calls.findCall(businessId, callId, Math.floor(deps.now().getTime() / 1000));
  if (!found) return undefined;
  const assistant = await deps.assistants.findAssistant(businessId, found.call.assistant_id);
  const config = assistant?.config ?? defaultAssistantConfig();
  return {
    call: found.call,
    transcript: transcriptOf(event, found.detail, config),
    config,
    endedReason: found.call.ended_reason ?? 'error',
  };
}

/** The stored analysis settings with every structured-field default filled in. */
function analysisConfigOf(config: AssistantConfig): AnalysisConfig {
  const cfg = config.analysis;
  return {
    summary_prompt: cfg.summary_prompt,
    success_rubric: cfg.success_rubric,
    success_scale: cfg.success_scale,
    structured: cfg.structured.map((field) => ({
      name: field.name,
      type: field.type ?? 'string',
      description: field.description ?? '',
      options: field.options ?? [],
    })),
  };
}

/**
 * Writes the analysis fields once (guarded by `analysis_completed_at`, so a concurrent or repeated
 * run never overwrites a finished analysis) and publishes `call.completed`. The event id is stored
 * with the analysis, so a re-run re-publishes the SAME id and receivers can de-duplicate.
 * `whenWritten` runs after this run's write and before the event, so what it stores (the caller's
 * memory) is there for whoever acts on `call.completed`.
 */
async function completeAndPublish(
  call: CallRecord,
  config: AssistantConfig,
  fields: AnalysisFields,
  deps: AnalyzeDeps,
  whenWritten?: () => Promise<void>,
): Promise<void> {
  const eventId = deps.newEventId();
  const { written, call: current } = await deps.calls.completeAnalysis(call.business_id, call.id, fields, {
    at: deps.now().toISOString(),
    eventId,
  });
  if (written) await whenWritten?.();
  await publishCompleted(call, config, written ? eventId : (current?.completed_event_id ?? eventId), deps);
}

/** `call.completed`, marked with whether the assistant (as just read) subscribes to it as a webhook. */
async function publishCompleted(call: CallRecord, config: AssistantConfig, eventId: string, deps: AnalyzeDeps): Promise<void> {
  await deps.events.publish([
    {
      type: 'call.completed',
      detail: {
        event_id: eventId,
        business_id: call.business_id,
        call_id: call.id,
        assistant_id: call.assistant_id,
        occurred_at: deps.now().toISOString(),
        webhook: subscribesTo(config, 'call.completed'),
      },
    },
  ]);
}

/**
 * Post-call analysis for a `call.ended` event (docs/design.md "Resources"): a call that never became a conversation
 * gets its outcome from `ended_reason` with no LLM request; otherwise the model reads the
 * (redacted) transcript under a strict JSON schema built from `config.analysis`, and summary,
 * score, outcome, intent, caller name and `analysis` are stored, redacted per `advanced.redact`
 * (every kind under `advanced.hipaa`, whose transcript comes from the event: {@link transcriptOf}).
 * Then the caller's memory is kept and `call.completed` is published. Idempotent: an analysed call
 * only re-publishes.
 *
 * A provider failure is thrown so the event router or Lambda retries; on the last attempt
 * ({@link AnalyzeDeps.maxAttempts}, counted on the call) the failure is recorded instead
 * ({@link recordAnalysisFailure}) and `call.completed` still goes out.
 */
export async function analyzeCall(event: CallEvent, deps: AnalyzeDeps): Promise<AnalyzeResult> {
  if (event.type !== 'call.ended') return 'ignored';
  const loaded = await load(event, deps);
  if (!loaded) {
    deps.log.warn(`analysis: call ${event.detail.call_id} of business ${event.detail.business_id} is gone`);
    return 'call_missing';
  }
  const { call, transcript, config, endedReason } = loaded;
  if (call.analysis_completed_at !== undefined) {
    await publishCompleted(call, config, call.completed_event_id ?? deps.newEventId(), deps);
    return 'republished';
  }
  if (!needsLlmAnalysis(endedReason, transcript)) {
    await completeAndPublish(call, config, { outcome: decideOutcome(endedReason, null, transcript) }, deps);
    return 'outcome_only';
  }
  const attempt = (call.analysis_attempts ?? 0) + 1;
  if (!(await deps.calls.recordAnalysisAttempt(call.business_id, call.id, attempt))) {
    deps.log.warn(`analysis: call ${call.id} of business ${call.business_id} is gone`);
    return 'call_missing';
  }
  const redact = analysisRedaction(config);
  const cfg = analysisConfigOf(config);
  let out: ReturnType<typeof parseAnalysisOutput>;
  try {
    const business = await deps.businesses.getBusiness(call.business_id);
    const about = describeBusiness(business.profile) || business.name;
    const text = redactText(transcript.map((line) => `${line.role}: ${line.text}`).join('\n'), redact);
    out = parseAnalysisOutput(cfg, await deps.model.analyse(cfg, buildAnalysisMessages(cfg, text, about)));
  } catch (error) {
    if (attempt < (deps.maxAttempts ?? DEFAULT_ANALYSIS_ATTEMPTS)) throw error;
    await recordAnalysisFailure(event, error, deps);
    return 'failed';
  }
  const stored = redactDeep(
    {
      summary: out.summary,
      intent: out.intent,
      caller_name: out.caller_name,
      analysis: { summary: out.summary, success_evaluation: out.success_evaluation, structured_data: out.structured_data },
    },
    redact,
  );
  const outcome = decideOutcome(endedReason, out.outcome, transcript);
  await completeAndPublish(call, config, { ...stored, score: out.score, outcome, analysis_error: null }, deps, () =>
    rememberCall(call, config, { summary: stored.summary, outcome }, deps),
  );
  return 'analysed';
}

/** The caller's number: who rang in, or who was rung. */
function callerNumberOf(call: CallRecord): string {
  return call.direction === 'outbound' ? call.to_number : call.from_number;
}

/**
 * Keeps the (already redacted) summary for the caller's next call when the assistant has
 * `advanced.memory` on and `advanced.hipaa` off, expiring with the call (keep_days). Best effort:
 * the analysis is already stored and published, so a failure is logged, never retried.
 */
async function rememberCall(
  call: CallRecord,
  config: AssistantConfig,
  analysed: { summary: string; outcome: string | null },
  deps: AnalyzeDeps,
): Promise<void> {
  const { memory, hipaa } = config.advanced;
  if (!memory || hipaa || analysed.summary.trim() === '') return;
  const entry = {
    call_id: call.id,
    ended_at: call.ended_at ?? deps.now().toISOString(),
    summary: analysed.summary,
    outcome: analysed.outcome,
  };
  try {
    await deps.memory.remember(call.business_id, callerNumberOf(call), entry, call.expires_at);
  } catch (error) {
    deps.log.warn(`analysis: could not remember call ${call.id} for its caller`, { error });
  }
}

/** A short, content-free description of a provider failure for the call record. */
function describeFailure(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, 300);
  return String(error).slice(0, 300);
}

/**
 * Records that the analysis gave up after its last attempt: `analysis_error` on the call and
 * `analysis.error` (visible in GET /calls/{id}), the outcome that `ended_reason` alone supports,
 * and `call.completed` so the business still hears about the call. Safe to repeat.
 */
export async function recordAnalysisFailure(event: CallEvent, error: unknown, deps: AnalyzeDeps): Promise<void> {
  const loaded = await load(event, deps);
  if (!loaded) return;
  const { call, transcript, config, endedReason } = loaded;
  const message = describeFailure(error);
  deps.log.error(`analysis of call ${call.id} failed after its last attempt`, { error });
  await completeAndPublish(
    call,
    config,
    {
      analysis_error: { message, at: deps.now().toISOString() },
      analysis: { error: message },
      outcome: decideOutcome(endedReason, null, transcript),
    },
    deps,
  );
}
