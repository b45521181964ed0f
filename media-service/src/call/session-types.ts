import type { CallRepository } from '../../../shared/db/call-repository';
import type { EndedReason } from '../../../shared/domain/call';
import type { AssistantRepository } from '../../../shared/db/assistant-repository';
import type { BusinessRepository } from '../../../shared/db/business-repository';
import type { CallLifecycle } from '../../../shared/services/call-lifecycle';
import type { PacerScheduler } from '../pipeline/pacer-scheduler';
import type { CallTransport, CallTransportEvent } from '../ports/call-transport';
import type { LanguageModel } from '../ports/language-model';
import type { RecordingStore } from '../ports/recording-store';
import type { SpeechToSpeech } from '../ports/speech-to-speech';
import type { SpeechToText } from '../ports/speech-to-text';
import type { AnsweredBy, Telephony } from '../ports/telephony';
import type { TextToSpeech } from '../ports/text-to-speech';
import type { StreamClaims } from '../telephony/stream-token';
import type { AssistantConfig } from '../../../shared/domain/assistant-config';
import type { CallContext } from './call-context';
import type { CallCounters } from './call-metrics';

/** The `start` event of a media stream. */
export type StreamStart = Extract<CallTransportEvent, { type: 'start' }>;

/** One-shot timers (real or fake). */
export interface SessionTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** A media stream whose signature and token were checked: the call it belongs to. */
export interface SessionStart {
  transport: CallTransport;
  start: StreamStart;
  claims: StreamClaims;
}

/** A running call session, as the server's registry sees it. */
export interface SessionHandle {
  readonly callId: number;
  readonly businessId: number;
  /** The carrier's answering-machine verdict arrived (AMD callback). */
  onAmd(answeredBy: AnsweredBy): void;
  /** Ends the call now (SIGTERM drain past its deadline, ops): the caller hears the end message if any. */
  stop(reason: 'canceled' | 'error'): void;
  /** Settles once the call is ended and recorded (never rejects). */
  readonly done: Promise<void>;
}

/** Names of the providers in use, recorded in every call's metrics (`sandbox` or the vendor). */
export interface ProviderLabels {
  stt: string;
  llm: string;
  tts: string;
  telephony: string;
}

/** Everything a call session needs; built once per process by the composition root. */
export interface CallSessionDeps {
  stt: SpeechToText;
  tts: TextToSpeech;
  /** The language model for this assistant (OpenAI, or its `custom_url` with its KMS-sealed key). */
  languageModelFor(businessId: number, config: AssistantConfig, customKeySealed?: string): Promise<LanguageModel>;
  telephony: Telephony;
  /** Speech-to-speech for `mode: live` assistants; absent, a live call ends `error` with a log line. */
  realtime?: SpeechToSpeech;
  scheduler: PacerScheduler;
  calls: CallRepository;
  assistants: AssistantRepository;
  businesses: BusinessRepository;
  lifecycle: CallLifecycle;
  /** Where recordings go; undefined disables recording (e.g. a stage without a bucket). */
  recordings?: RecordingStore;
  /** Summaries of this caller's earlier calls, rendered for the prompt ('' for none). */
  recallMemory(businessId: number, callerNumber: string): Promise<string>;
  /** Marks the call alive every `heartbeatMs` (the sweeper ends calls whose heartbeat stops). */
  heartbeat(businessId: number, callId: number): Promise<void>;
  providers: ProviderLabels;
  /** Monotonic clock, ms. */
  now(): number;
  timers: SessionTimers;
  log(message: string, fields?: Record<string, unknown>): void;
  /** Tunables (documented defaults in call-session.ts). */
  tuning?: Partial<SessionTuning>;
}

/** Timing knobs of a session; defaults are justified where they are declared. */
export interface SessionTuning {
  heartbeatMs: number;
  /** A reply whose first token is this late gets a filler ("One moment."). */
  fillerAfterMs: number;
  /** Keypad digits are sent to the model after this pause (or at once on `#`). */
  dtmfIdleMs: number;
  /** How long an end message may play before we hang up anyway. */
  goodbyeMaxMs: number;
  /** Wait after a voicemail greeting before leaving the message when no beep is reported. */
  voicemailQuietMs: number;
}

/** What either conversation (standard or live) needs from its session; each adds its providers. */
export interface ConversationBaseDeps {
  context: CallContext;
  telephony: Telephony;
  lifecycle: CallLifecycle;
  callSid: string;
  counters: CallCounters;
  tuning: SessionTuning;
  now: () => number;
  timers: SessionTimers;
  log: (message: string, fields?: Record<string, unknown>) => void;
  /** Ends the session with this reason (first reason wins). */
  finish: (reason: EndedReason) => void;
  /** Clock ms of the stream start (transcript times are relative to it). */
  t0: number;
}
