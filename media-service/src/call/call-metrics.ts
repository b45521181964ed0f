import type { AssistantConfig } from '../../../shared/domain/assistant-config';
import type { CallMetrics } from '../../../shared/domain/call-metrics';
import type { ProviderLabels } from './session-types';
import { PROVIDER_FAULT_KINDS, type FaultListener, type ProviderFaultKind } from '../ports/provider-faults';
import type { Logger } from '../../../shared/log';
import type { Utterance } from './speaker';

/**
 * One caller turn answered by the assistant, in clock ms. Latency is reported as the caller hears
 * it (docs/design.md "Other rules"): from the end of their speech (Flux word end times) to the first assistant audio
 * actually played (the first echoed mark), with the breakdown of where the time went.
 */
export interface TurnTiming {
  /** When the caller's last word ended (clock ms), when known from the recogniser. */
  endOfSpeechAt?: number;
  /** When Flux's EndOfTurn reached us. */
  endOfTurnAt: number;
  /** The reply started on EagerEndOfTurn and was kept. */
  eager: boolean;
  /** The caller's words came while the assistant spoke and were answered once it finished (`interruptions: never`, the notice). */
  held?: boolean;
  llmFirstTokenMs?: number;
  /** When the model request for this reply was sent (before EndOfTurn for an eager reply). */
  requestAt?: number;
  utterance?: Utterance;
}

const round = (value: number | undefined) => (value === undefined ? null : Math.max(0, Math.round(value)));

/** The per-turn row of `metrics.turns`. */
export function turnMetrics(turn: TurnTiming, t0?: number): Record<string, number | boolean | null> {
  const u = turn.utterance;
  const speechEnd = turn.endOfSpeechAt ?? turn.endOfTurnAt;
  const played = u?.firstPlayedAt;
  const sent = u?.firstSentAt;
  return {
    /** When the turn ended, ms from the start of the call (places the turn on the transcript's timeline). */
    ...(t0 !== undefined && { at_ms: round(turn.endOfTurnAt - t0) }),
    latency_ms: played === undefined ? null : round(played - speechEnd),
    end_of_turn_ms: turn.endOfSpeechAt === undefined ? null : round(turn.endOfTurnAt - turn.endOfSpeechAt),
    llm_first_token_ms: round(turn.llmFirstTokenMs),
    tts_first_byte_ms: round(u?.firstByteMs),
    /** From the later of EndOfTurn and the request to the first speakable clause sent to the voice: the wait for the model's words. */
    first_text_ms:
      u?.requestedAt === undefined || turn.requestAt === undefined
        ? null
        : round(u.requestedAt - Math.max(turn.requestAt, turn.endOfTurnAt)),
    /** EndOfTurn received → first audio frame sent: our own pipeline plus the providers. */
    first_audio_sent_ms: sent === undefined ? null : round(sent - turn.endOfTurnAt),
    transport_ms: played === undefined || sent === undefined ? null : round(played - sent),
    eager: turn.eager,
    ...(turn.held && { held: true }),
  };
}

/** Nearest-rank percentile of a sorted list. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** Counters the session keeps while the call runs. */
export interface CallCounters {
  turns: TurnTiming[];
  interruptions: number;
  llmInput: number;
  llmOutput: number;
  ttsCharacters: number;
  sttBytes: number;
  eagerStarted: number;
  eagerDiscarded: number;
  fillers: number;
  /** Provider faults survived or ended on (docs/design.md "Provider faults"). */
  faults: Record<ProviderFaultKind, number>;
  /** The label of the recogniser the call used (its registry entry), when it used one (standard mode). */
  sttLabel?: string;
  /** The label of the voice the call used (its registry entry), when it used one (standard mode). */
  ttsLabel?: string;
  /** Outbound pacing as the caller hears it (from the pacer): gaps where voice was waiting but late. */
  pacing?: { underruns: number; underrunMs: number; maxLeadMs: number; voiceFrames: number };
}

/** A fresh set of counters. */
export function newCounters(): CallCounters {
  return {
    turns: [],
    interruptions: 0,
    llmInput: 0,
    llmOutput: 0,
    ttsCharacters: 0,
    sttBytes: 0,
    eagerStarted: 0,
    eagerDiscarded: 0,
    fillers: 0,
    faults: Object.fromEntries(PROVIDER_FAULT_KINDS.map((kind) => [kind, 0])) as Record<ProviderFaultKind, number>,
  };
}

/** Counts each provider fault of a call in its metrics and logs it (`call.provider.fault`, no call content). */
export function faultCounter(counters: CallCounters, log: Logger, callId: number): FaultListener {
  return (kind, detail) => {
    counters.faults[kind] += 1;
    log.warn('call.provider.fault', { call_id: callId, kind, detail });
  };
}

/**
 * A vendor's label when its sandbox stood in (`deepgram-sandbox`): the call still says which
 * recogniser, model, voice and carrier it was built for, and that none of them was real.
 */
export const sandboxLabel = (vendor: string) => `${vendor}-sandbox`;

/** Whether a label is a sandbox's ({@link sandboxLabel}). */
export const isSandboxLabel = (label: string) => label.endsWith('-sandbox');

/** Every provider a sandbox: the labels of `npm run dev` without secrets, and of the test and bench stacks. */
export const SANDBOX_PROVIDER_LABELS: ProviderLabels = {
  stt: sandboxLabel('deepgram'),
  llm: sandboxLabel('openai'),
  tts: sandboxLabel('deepgram'),
  telephony: sandboxLabel('twilio'),
};

/** The call's `metrics` (docs/design.md "Metrics"). */
export function buildCallMetrics(counters: CallCounters, durationS: number, providers: ProviderLabels, t0?: number): CallMetrics {
  const rows = counters.turns.map((turn) => turnMetrics(turn, t0));
  const latencies = rows
    .map((row) => row.latency_ms)
    .filter((value): value is number => typeof value === 'number')
    .sort((a, b) => a - b);
  const labels = {
    stt: counters.sttLabel ?? providers.stt,
    llm: providers.llm,
    tts: counters.ttsLabel ?? providers.tts,
    telephony: providers.telephony,
  };
  return {
    turns: rows,
    interruptions: counters.interruptions,
    latency_ms: { p50: percentile(latencies, 50), p95: percentile(latencies, 95), max: latencies.at(-1) ?? null },
    llm_tokens: { input: counters.llmInput, output: counters.llmOutput },
    tts_characters: counters.ttsCharacters,
    stt_seconds: Math.round((counters.sttBytes / 8000) * 10) / 10,
    duration_s: Math.max(0, Math.round(durationS)),
    providers: labels,
    sandbox: Object.values(labels).some(isSandboxLabel),
    eager: { started: counters.eagerStarted, discarded: counters.eagerDiscarded },
    fillers: counters.fillers,
    faults: { ...counters.faults },
    ...(counters.pacing && {
      pacing: {
        underruns: counters.pacing.underruns,
        underrun_ms: Math.round(counters.pacing.underrunMs),
        max_lead_ms: Math.round(counters.pacing.maxLeadMs),
        voice_frames: counters.pacing.voiceFrames,
      },
    }),
  } as CallMetrics;
}

/**
 * The model's label in a call's metrics unless its conversation says otherwise (live mode): the
 * business's own endpoint says `custom`, otherwise the configured provider's label.
 */
export function modelLabelFor(config: AssistantConfig, configured: string): string {
  return config.model.provider === 'custom' ? 'custom' : configured;
}
