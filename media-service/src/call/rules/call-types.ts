import type { EndedReason } from '../../../../shared/domain/call';
import type { AnsweredBy } from '../../ports/telephony';
import type { TurnTiming } from '../call-metrics';
import type { CallerWords } from '../caller-turn';
import type { KeypadSettings } from './keypad';
import type { OpeningSettings, OpeningState } from './opening';
import type { SilenceSettings, SilenceState } from './silence';
import type { VoicemailPhase, VoicemailSettings } from './voicemail';
import type { WorkflowRules } from './workflow-slot';
import type { WorkflowState } from './workflow';

/**
 * The call's one state record, its events and its effects (docs/design.md "The call engine"). The
 * reducer (`./call.ts`) decides; an executor (`../conversation.ts` for the standard pipeline,
 * `../live-conversation.ts` for speech to speech) carries out the effects and feeds the events.
 */

/** A tool call as either conversation kind reports it: its name and the model's JSON arguments. */
export interface NamedCall {
  readonly name: string;
  readonly arguments: string;
}

/** The call's named one-shot timers. `transfer` is the redirect's fallback, kept when a call starts ending. */
export type TimerName = 'greet' | 'silence' | 'dtmf' | 'voicemail' | 'tool-filler' | 'goodbye' | 'transfer';

/** Why the assistant says fixed words (transcript and metrics tell them apart). */
export type LineKind = 'notice' | 'greeting' | 'idle' | 'reply' | 'filler' | 'goodbye' | 'voicemail';

/**
 * What the media side knows at the moment of an event; the reducer reads it, never asks for it.
 * `audible`: assistant audio is queued or playing. `speaking`: anything of ours is queued, being
 * voiced or playing. `replying`: an assistant turn (a model reply, or scripted words) is under way.
 * `callerSpeaking`: the caller is mid-turn.
 */
export interface Facts {
  audible: boolean;
  speaking: boolean;
  replying: boolean;
  callerSpeaking: boolean;
}

/** The settings the rules read, from the assistant's config, the call and the session's tuning. */
export interface CallSettings {
  /** `live`: the provider hears the caller and answers a turn on its own; the assistant's words are asked for. */
  mode: 'standard' | 'live';
  opening: OpeningSettings;
  silence: SilenceSettings;
  keypad: KeypadSettings;
  voicemail: VoicemailSettings;
  /** The notice's words ('' when none is due on this call). */
  notice: string;
  /** `first_message_mode` and the greeting: '' (or `model_generated`) lets the model greet. */
  greeting: { modelGenerated: boolean; text: string };
  interruptions: 'anytime' | 'after_greeting' | 'never';
  interruptMinWords: number;
  /** Flux eager end of turn: the model may start early. */
  eager: boolean;
  endCallMessage: string;
  /** `safety_fallback` on: a provider failure gets a graceful line first. */
  safetyFallback: boolean;
  fallbackLine: string;
  transferFailedLine: string;
  endCallPhrases: readonly string[];
  /** How long a goodbye may play before the hang-up anyway. */
  goodbyeMaxMs: number;
  toolFillerAfterMs: number;
  /** Clock ms of the call's start (the workflow's path is relative to it). */
  t0: number;
  /** The call's workflow rules, when the assistant has one. */
  workflow: WorkflowRules | undefined;
}

/** The notice: asked for or playing (`pending`), heard in full, a cut-in held while it played, the greeting's question waiting for it. */
export interface NoticeState {
  pending: boolean;
  heard: boolean;
  heldBargeIn: boolean;
  question: string;
  /** Live mode: the model's greeting waits for the notice too (dropped when the caller talks over it). */
  greetAfter: boolean;
}

/** Who has the floor between the caller and the assistant. */
export interface FloorState {
  /** The greeting was said or cut: words over the assistant may interrupt now (`after_greeting`). */
  greetingDone: boolean;
  /** Caller words that came while the assistant spoke, answered once it is done. */
  held: TurnTiming | undefined;
  /** Live mode: the provider's own barge-in is on. */
  providerInterrupts: boolean;
  /** Live mode: the greeting answered the caller's last turn, so the provider's own reply to it is cancelled. */
  answeredByGreeting: boolean;
}

/** The reply's tools: rounds in a row without the caller speaking, tools running now, their filler line. */
export interface ToolsState {
  rounds: number;
  running: number;
  filler: string;
}

/**
 * The ending: the reason once decided (first wins, a provider failure overrides), and whether the
 * last words (goodbye, fallback line, voicemail message) are playing before the hang-up.
 */
export interface EndingState {
  reason: EndedReason | undefined;
  lastWords: boolean;
  finished: boolean;
}

export type { CallerWords };

export interface CallState {
  opening: OpeningState;
  silence: SilenceState;
  digits: string;
  voicemail: VoicemailPhase;
  notice: NoticeState;
  floor: FloorState;
  tools: ToolsState;
  ending: EndingState;
  /** Caller turns with words so far. */
  userTurns: number;
  workflow: WorkflowState | undefined;
}

/**
 * What happens on a call. Recogniser: `speech_started`, `interim` (words so far over the
 * assistant), `eager_end`, `turn_resumed`, `end_of_turn` (standard: the rules answer it; `gone`:
 * the caller hung up meanwhile) and `caller_words` (live: the provider answers the turn itself).
 * Playback: `said` (fixed words played or were cut; for a scripted turn, only while still the
 * current turn), `reply_done` (a reply played to the end), `reply_over` (live: a reply cut,
 * cancelled or failed). Live only: `own_reply` (the provider started a reply on its own).
 */
export type CallEvent<Call extends NamedCall = NamedCall> =
  | { type: 'start' }
  | { type: 'speech_started'; facts: Facts }
  | { type: 'interim'; text: string; facts: Facts }
  | { type: 'eager_end'; text: string; facts: Facts }
  | { type: 'turn_resumed' }
  | { type: 'end_of_turn'; words: CallerWords | undefined; turn: TurnTiming; gone: boolean; facts: Facts }
  | { type: 'caller_words'; words: CallerWords }
  | { type: 'own_reply'; facts: Facts }
  | { type: 'said'; kind: LineKind; heard: boolean; cut: boolean; facts: Facts }
  | { type: 'reply_done'; text: string; calls: readonly Call[]; toolFiller: string; facts: Facts }
  | { type: 'reply_over'; played: boolean; facts: Facts }
  | { type: 'reply_failed'; error: Error }
  | { type: 'timer'; name: TimerName; facts: Facts }
  | { type: 'digit'; digit: string; facts: Facts }
  | { type: 'amd'; answeredBy: AnsweredBy }
  | { type: 'tools_done'; calls: readonly Call[]; outputs: readonly string[]; lines: readonly string[] }
  | { type: 'workflow_said'; facts: Facts }
  | { type: 'workflow_tool_done'; ok: boolean; output: Record<string, unknown>; facts: Facts }
  | { type: 'transfer_failed'; call: Call; facts: Facts }
  | { type: 'end'; reason: EndedReason; goodbye: boolean }
  | { type: 'fault'; error: Error; voiceLost: boolean }
  | { type: 'last_words'; words: CallerWords };

/**
 * What the executor does. `say`: fixed words (`turn`: an assistant turn of its own, in the model's
 * history, that barge-in cuts; `lead`: the greeting's words said with the notice, kept in the
 * history); `reply`: stream a model reply (`turn`: the caller turn it answers, for the metrics);
 * `barge_in`: the caller cut the assistant off (clear playback, stop the reply, keep what was
 * heard); `silence`: stop the assistant mid-word and forget the reply in flight; `cancel_reply`: a
 * reply nobody heard yet is superseded; `stop_thinking`/`think_ahead`: an eager guess dropped or
 * started; `user_words`: caller words (or keys) into the model's context; `transcript`: a line of
 * the call's transcript; `finish`: the session hangs up with this reason. Live only: `drop_queued`
 * (requests not yet sent are dropped), `cancel_own_reply`, `provider_interrupts` (its barge-in back on).
 */
export type CallEffect<Call extends NamedCall = NamedCall> =
  | { type: 'say'; kind: LineKind; text: string; turn: boolean; lead?: string; first?: boolean; step?: boolean }
  | { type: 'reply'; kind: 'greeting' | 'reply'; turn?: TurnTiming; guess?: string }
  | { type: 'barge_in' }
  | { type: 'silence' }
  | { type: 'cancel_reply' }
  | { type: 'stop_thinking' }
  | { type: 'think_ahead'; text: string }
  | { type: 'user_words'; text: string }
  | { type: 'tool_result'; call: Call; output: string }
  | { type: 'workflow_tool_result'; callId: string; output: string }
  | { type: 'run_tools'; calls: readonly Call[] }
  | { type: 'run_workflow_tool'; name: string; args: string }
  | { type: 'record_end_call'; call: Call }
  | { type: 'transfer'; call: Call }
  | { type: 'workflow_transfer'; number: string | null }
  | { type: 'steer'; node: string }
  | { type: 'workflow_log'; event: 'stuck' | 'runaway'; node: string; to?: string | null }
  | { type: 'arm'; timer: TimerName; ms: number }
  | { type: 'cancel'; timer: TimerName }
  | { type: 'cancel_timers' }
  | { type: 'finish'; reason: EndedReason }
  | { type: 'transcript'; role: 'user'; words: CallerWords }
  | { type: 'transcript'; role: 'tool'; line: string }
  | { type: 'provider_failed'; error: Error }
  | { type: 'drop_queued' }
  | { type: 'cancel_own_reply' }
  | { type: 'provider_interrupts' };

export interface CallStep<Call extends NamedCall = NamedCall> {
  state: CallState;
  effects: CallEffect<Call>[];
}
