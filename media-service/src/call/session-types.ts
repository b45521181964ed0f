import type { EndedReason, TranscriptEntry } from '../../../shared/domain/call';
import type { Pacer } from '../pipeline/pacer';
import type { PacerScheduler } from '../pipeline/pacer-scheduler';
import type { AssistantRecords, BusinessRecords, CallProgress, CallRecords } from '../ports/call-records';
import type { CallTransport, CallTransportEvent } from '../ports/call-transport';
import type { LanguageModel } from '../ports/language-model';
import type { FaultListener } from '../ports/provider-faults';
import type { RecordingStore } from '../ports/recording-store';
import type { AnsweredBy, Telephony } from '../ports/telephony';
import type { StreamClaims } from '../telephony/stream-token';
import type { AssistantConfig } from '../../../shared/domain/assistant-config';
import type { CallContext } from './call-context';
import type { CallCounters } from './call-metrics';
import type { CallerAudio } from './caller-audio';
import type { Logger } from '../../../shared/log';
import type { ToolRunner } from '../tools/tool-runner';
import type { ToolPorts } from '../tools/tool-types';
import type { CustomToolBackend } from '../tools/custom-tools';
import type { KnowledgeBackend } from '../tools/search-knowledge';
import type { NoticeOutcome } from './call-machine';
import type { ProviderRegistry } from './providers';
import type { CallWorkflow } from '../../../shared/domain/workflow';
import type { WorkflowSource } from '../ports/workflow-source';
import type { CallObserver, CallTap } from './call-observer';
import type { CallListener } from './call-listeners';

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
  /** Told the call's transcript, state, latency and tools as they happen (a web call's browser); absent on phone calls. */
  observe?: CallObserver;
  /** The call's carrier, when not the process's: a web call has none (its transfers fail, its hang-up closes the socket). */
  telephony?: Telephony;
}

/** A running call session, as the server's registry sees it. */
export interface SessionHandle {
  readonly callId: number;
  readonly businessId: number;
  /** The carrier's answering-machine verdict arrived (AMD callback). */
  onAmd(answeredBy: AnsweredBy): void;
  /** Ends the call now (SIGTERM drain past its deadline, ops): the caller hears the end message if any. */
  stop(reason: 'canceled' | 'error'): void;
  /** Adds someone listening to the call (`/web/listen`); returns the removal. Absent on handles that cannot be listened to. */
  listen?(listener: CallListener): () => void;
  /** Settles once the call is ended and recorded (never rejects). */
  readonly done: Promise<void>;
}

/**
 * Names of the process's default providers, recorded in every call's metrics (`sandbox` or the
 * vendor); a standard call records its own recogniser's and voice's labels from the registry.
 */
export interface ProviderLabels {
  stt: string;
  llm: string;
  tts: string;
  telephony: string;
}

/** Everything a call session needs; built once per process by the composition root. */
export interface CallSessionDeps {
  /**
   * The recognisers, voices, speech-to-speech sessions and models this process can reach, by the
   * names the assistant config uses (`providers.ts`); a call whose provider is missing ends `error`
   * with a log line.
   */
  registry: ProviderRegistry;
  /**
   * The language model of one call of this assistant: the registry's model for `model.provider`
   * (its `custom_url` with its KMS-sealed key for `custom`), `model.fallback`'s behind it, told the
   * call's SID and where to report faults (`../server/language-models.ts`).
   */
  languageModelFor(
    businessId: number,
    config: AssistantConfig,
    customKeySealed?: string,
    call?: { tag?: string; onFault?: FaultListener },
  ): Promise<LanguageModel>;
  telephony: Telephony;
  scheduler: PacerScheduler;
  calls: CallRecords;
  assistants: AssistantRecords;
  businesses: BusinessRecords;
  lifecycle: CallProgress;
  /** The back ends of the built-in tools (messages, team notices). */
  toolPorts: ToolPorts;
  /** The business's custom tools (`tool_ids`); absent, calls offer the built-ins only. */
  customTools?: CustomToolBackend;
  /** Knowledge-base search (`knowledge_ids`), shared by the process's calls; absent, search_knowledge is never offered. */
  knowledge?: KnowledgeBackend;
  /** The assistants' workflows (`workflow_id`); absent, calls run without them. */
  workflows?: WorkflowSource;
  /** Where recordings go; undefined disables recording (e.g. a stage without a bucket). */
  recordings?: RecordingStore;
  /** Summaries of this caller's earlier calls, rendered for the prompt ('' for none). */
  recallMemory(businessId: number, callerNumber: string): Promise<string>;
  /** Marks the call alive every `heartbeatMs` (the sweeper ends calls whose heartbeat stops). */
  heartbeat(businessId: number, callId: number): Promise<void>;
  /**
   * Calls `onRequested` once `POST /calls/{id}/end` asks for the call to end (the process's
   * `EndRequestPoller`, a batched check a second); returns the stop. Absent, nobody can ask.
   */
  watchEndRequest?(businessId: number, callId: number, onRequested: () => void): () => void;
  providers: ProviderLabels;
  /** Monotonic clock, ms. */
  now(): number;
  /** Wall clock: the date the prompt gives the booking tools (default the system clock; tests pin it). */
  wallClock?: () => Date;
  timers: SessionTimers;
  log: Logger;
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
  /** Outbound calls screened for machines: a line silent this long after the answer is greeted. */
  screenMs: number;
  /** A tool still running after this long gets a short spoken filler. */
  toolFillerAfterMs: number;
}

/** What either conversation (standard or live) needs from its session; each adds its providers. */
export interface ConversationBaseDeps {
  context: CallContext;
  telephony: Telephony;
  lifecycle: CallProgress;
  callSid: string;
  counters: CallCounters;
  tuning: SessionTuning;
  now: () => number;
  timers: SessionTimers;
  log: Logger;
  /** Ends the session with this reason (first reason wins). */
  finish: (reason: EndedReason) => void;
  /** Clock ms of the stream start (transcript times are relative to it). */
  t0: number;
  /** Runs the call's built-in tools and keeps its `actions`. */
  tools: ToolRunner;
  /** Tells the call's observer what the transcript log records; absent without one (phone calls). */
  tap?: CallTap;
}

/**
 * One call's conversation as its session drives it: the standard pipeline (Flux → model → Aura),
 * live mode (speech to speech), and next workflows. The session routes the carrier's events here
 * and knows nothing else of how the conversation runs; `conversation-drivers.ts` picks the
 * driver by the assistant's `mode`.
 */
export interface ConversationDriver {
  /** The reason the call is ending, once decided (a carrier `stop` then keeps it). */
  readonly pendingReason: EndedReason | undefined;
  /** Starts the call per `first_message_mode` and `greeting_delay_ms`. */
  start(): void;
  /** The carrier echoed a mark: that much of the assistant's audio was heard. */
  onMark(name: string, afterClear: boolean): void;
  /** The caller pressed a key. */
  onDtmf(digit: string): void;
  /** The carrier's answering-machine verdict (outbound calls with `voicemail_detection`). */
  onAmd(answeredBy: AnsweredBy): void;
  /** Ends the call: optional goodbye (`end_call_message`), then the session hangs up. */
  endCall(reason: EndedReason, options: { goodbye: boolean }): Promise<void>;
  /**
   * The carrier ended the call while it was not ending: keep what the caller said last (a bounded
   * wait for the recogniser's final words), never answering it.
   */
  callerHungUp(): Promise<void>;
  /** The model's label in the call's metrics, given the configured provider's label. */
  modelLabel(configured: string): string;
  /** The call's run of its workflow (docs/design.md "Workflows"); absent or undefined without one. */
  workflow?(): CallWorkflow | undefined;
  /** What each side said, assistant text cut to what was heard. */
  transcript(): TranscriptEntry[];
  /** Whether the caller heard each notice due in full (null: not due on this call). */
  notices(): NoticeOutcome;
  /** Stops every timer and provider stream of the conversation (the session is tearing down). */
  close(): void;
}

/** What a driver may ask of its session while the call runs. */
export interface SessionView {
  /** The session's ending is decided (first reason wins). */
  readonly ended: boolean;
  /** The carrier ended the call (`stop`, or the stream closed). */
  readonly carrierEnded: boolean;
}

/** Everything a {@link DriverFactory} gets from the session to build one call's conversation. */
export interface DriverSetup {
  deps: CallSessionDeps;
  context: CallContext;
  /** The dependencies every conversation kind shares (policy, transfer). */
  base: ConversationBaseDeps;
  session: SessionView;
  /** Aborts every provider stream when the session closes. */
  signal: AbortSignal;
  /** The caller's audio: frames that came early, then each one as it arrives. */
  callerAudio: CallerAudio;
  /** Opens the call's pacer (to the carrier, recorded) on the shared scheduler. */
  openPacer(): Pacer;
  /** Runs `cleanup` when the session tears down (in reverse order of registration). */
  onClose(cleanup: () => void): void;
}

/**
 * Builds one kind of conversation for a call; undefined when it cannot run (logged, and the
 * call already finished `error`).
 */
export type DriverFactory = (setup: DriverSetup) => Promise<ConversationDriver | undefined>;
