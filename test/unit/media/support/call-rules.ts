import { describe, expect, it } from 'vitest';
import type { EndedReason } from '../../../../shared/domain/call';
import type { AnsweredBy } from '../../../../media-service/src/ports/telephony';
import { callStart, reduceCall } from '../../../../media-service/src/call/rules/call';
import type {
  CallEffect,
  CallEvent,
  CallSettings,
  CallState,
  Facts,
  LineKind,
  NamedCall,
  TimerName,
} from '../../../../media-service/src/call/rules/call-types';
import type { WorkflowEffect, WorkflowEvent, WorkflowRules, WorkflowState } from '../../../../media-service/src/call/rules/workflow-slot';

/**
 * Table tests of the call's one reducer (`reduceCall`): settings with small, readable values, one
 * builder per event (with the media facts it carries), and effects shown as short strings, so a
 * row of a table reads as "these events, then these effects".
 */

export type Call = NamedCall & { id: string };

export const NOTICE = 'This call is recorded.';
export const GREETING = 'Hi, this is Ada. How can I help?';
export const FALLBACK = 'Sorry, I have trouble. Goodbye.';

/** Inbound, standard mode, no notice, a scripted greeting, every interruption allowed. */
export const BASE: CallSettings = {
  mode: 'standard',
  opening: { mode: 'assistant_first', greetingDelayMs: 400, greetAfterSilenceMs: 0, screen: false, screenMs: 2000 },
  silence: { timeoutMs: 10_000, messages: ['Are you there?', 'Still there?'], max: 2 },
  keypad: { enabled: true, idleMs: 1500, neverInterrupt: false },
  voicemail: { enabled: false, message: 'Please call us back.', quietMs: 2500 },
  notice: '',
  greeting: { modelGenerated: false, text: GREETING },
  interruptions: 'anytime',
  interruptMinWords: 2,
  eager: true,
  endCallMessage: 'Goodbye.',
  safetyFallback: true,
  fallbackLine: FALLBACK,
  transferFailedLine: 'I could not reach the team.',
  endCallPhrases: ['talk soon'],
  goodbyeMaxMs: 8000,
  toolFillerAfterMs: 1000,
  t0: 0,
  workflow: undefined,
};

export const settings = (over: Partial<CallSettings> = {}): CallSettings => ({ ...BASE, ...over });
/** A notice is due on the call. */
export const NOTICED = settings({ notice: NOTICE });
/** Outbound with `voicemail_detection`: screening first, voicemail handling on. */
export const OUTBOUND = settings({
  opening: { ...BASE.opening, screen: true },
  voicemail: { ...BASE.voicemail, enabled: true },
});
export const LIVE = settings({ mode: 'live' });

// Facts: what the media side knows at the moment of an event.
export const QUIET: Facts = { audible: false, speaking: false, replying: false, callerSpeaking: false };
/** Our words are playing. */
export const AUDIBLE: Facts = { audible: true, speaking: true, replying: false, callerSpeaking: false };
/** A reply is streaming and playing. */
export const ANSWERING: Facts = { audible: true, speaking: true, replying: true, callerSpeaking: false };
/** A reply is asked for, nothing of it heard yet. */
export const THINKING: Facts = { audible: false, speaking: false, replying: true, callerSpeaking: false };
export const TALKING: Facts = { ...QUIET, callerSpeaking: true };

type Ev = CallEvent<Call>;

export const start: Ev = { type: 'start' };
export const timer = (name: TimerName, facts: Facts = QUIET): Ev => ({ type: 'timer', name, facts });
export const speech = (facts: Facts = QUIET): Ev => ({ type: 'speech_started', facts });
export const interim = (text: string, facts: Facts = AUDIBLE): Ev => ({ type: 'interim', text, facts });
export const eager = (text: string, facts: Facts = QUIET): Ev => ({ type: 'eager_end', text, facts });
export const resumed: Ev = { type: 'turn_resumed' };
export const turn = (text: string, facts: Facts = QUIET, gone = false): Ev => ({
  type: 'end_of_turn',
  words: { text, startAt: 0, endAt: 0 },
  turn: { endOfTurnAt: 0, eager: false },
  gone,
  facts,
});
export const quietTurn = (facts: Facts = QUIET): Ev => ({
  type: 'end_of_turn',
  words: undefined,
  turn: { endOfTurnAt: 0, eager: false },
  gone: false,
  facts,
});
export const callerWords = (text: string): Ev => ({ type: 'caller_words', words: { text, startAt: 0, endAt: 0 } });
export const ownReply = (facts: Facts = THINKING): Ev => ({ type: 'own_reply', facts });
export const said = (kind: LineKind, how: { heard?: boolean; cut?: boolean } = {}, facts: Facts = QUIET): Ev => ({
  type: 'said',
  kind,
  heard: how.heard ?? !how.cut,
  cut: how.cut ?? false,
  facts,
});
export const replyDone = (text: string, calls: readonly Call[] = [], facts: Facts = QUIET, toolFiller = ''): Ev => ({
  type: 'reply_done',
  text,
  calls,
  toolFiller,
  facts,
});
export const replyOver = (played: boolean, facts: Facts = QUIET): Ev => ({ type: 'reply_over', played, facts });
export const replyFailed: Ev = { type: 'reply_failed', error: new Error('model 503') };
export const digit = (key: string, facts: Facts = QUIET): Ev => ({ type: 'digit', digit: key, facts });
export const amd = (answeredBy: AnsweredBy): Ev => ({ type: 'amd', answeredBy });
export const toolsDone = (calls: readonly Call[], outputs: readonly string[] = calls.map(() => '{"ok":true}')): Ev => ({
  type: 'tools_done',
  calls,
  outputs,
  lines: calls.map((call) => `${call.name} ok`),
});
export const workflowSaid = (facts: Facts = QUIET): Ev => ({ type: 'workflow_said', facts });
export const transferFailed = (call: Call): Ev => ({ type: 'transfer_failed', call, facts: QUIET });
export const end = (reason: EndedReason, goodbye = true): Ev => ({ type: 'end', reason, goodbye });
export const fault = (voiceLost = false): Ev => ({ type: 'fault', error: new Error('voice socket closed'), voiceLost });

export const tool = (name: string, id = 'c1'): Call => ({ id, name, arguments: '{}' });

/** One effect as a short string: `say greeting: Hello.`, `arm silence 10000`, `finish error`. */
export function show(effect: CallEffect<Call>): string {
  switch (effect.type) {
    case 'say': {
      const marks = [effect.turn && 'turn', effect.first && 'first', effect.step && 'step'].filter(Boolean);
      return `say ${effect.kind}${marks.length > 0 ? ` (${marks.join(', ')})` : ''}: ${effect.text}`;
    }
    case 'reply':
      return `reply ${effect.kind}${effect.turn?.held ? ' (held)' : ''}${effect.guess !== undefined ? ` to "${effect.guess}"` : ''}`;
    case 'think_ahead':
      return `think_ahead "${effect.text}"`;
    case 'user_words':
      return `user_words "${effect.text}"`;
    case 'tool_result':
      return `tool_result ${effect.call.name}: ${effect.output}`;
    case 'workflow_tool_result':
      return `workflow_tool_result ${effect.callId}: ${effect.output}`;
    case 'run_tools':
      return `run_tools ${effect.calls.map((call) => call.name).join(',')}`;
    case 'run_workflow_tool':
      return `run_workflow_tool ${effect.name}`;
    case 'record_end_call':
      return 'record_end_call';
    case 'transfer':
      return `transfer ${effect.call.name}`;
    case 'workflow_transfer':
      return `workflow_transfer ${effect.number}`;
    case 'arm':
      return `arm ${effect.timer} ${effect.ms}`;
    case 'cancel':
      return `cancel ${effect.timer}`;
    case 'finish':
      return `finish ${effect.reason}`;
    case 'transcript':
      return effect.role === 'user' ? `transcript user: ${effect.words.text}` : `transcript tool: ${effect.line}`;
    case 'provider_failed':
      return `provider_failed ${effect.error.message}`;
    default:
      return effect.type;
  }
}

/**
 * Runs `given` (the call so far; its effects are dropped), then `when`, from `callStart`; returns
 * the effects of `when` as strings and the state after.
 */
export function run(set: CallSettings, given: readonly Ev[], when: readonly Ev[]): { effects: string[]; state: CallState } {
  let state = callStart(set);
  const effects: string[] = [];
  let at = 0;
  for (const [index, event] of [...given, ...when].entries()) {
    const step = reduceCall(set, state, event, (at += 10));
    state = step.state;
    if (index >= given.length) effects.push(...step.effects.map(show));
  }
  return { effects, state };
}

/** Only the effects whose string starts with one of `kinds` (a row about speech need not list timers). */
export const only = (effects: readonly string[], ...kinds: string[]): string[] =>
  effects.filter((effect) => kinds.some((kind) => effect.startsWith(kind)));

/**
 * A tiny workflow for the call's tests: it opens with a step line, takes every caller turn itself
 * (answering with its next line), and reports each line said. Its state counts lines said and turns taken.
 */
export function fakeWorkflow(lines: readonly string[] = ['Step one: your name?', 'Step two: your date of birth?']): WorkflowRules {
  type S = WorkflowState & { line: number; said: number; ended: boolean };
  const start = { kind: 'workflow', line: 0, said: 0, ended: false } as unknown as S;
  const say = (s: S): { state: S; effects: WorkflowEffect[] } => {
    if (s.line >= lines.length) return { state: s, effects: [{ type: 'reply' }] };
    return { state: { ...s, line: s.line + 1 }, effects: [{ type: 'say', text: lines[s.line]! }] };
  };
  return {
    start,
    reduce(state: WorkflowState, event: WorkflowEvent) {
      const s = state as S;
      if (s.ended) return { state, effects: [], took: false };
      switch (event.type) {
        case 'open':
        case 'caller_turn':
          return { ...say(s), took: true };
        case 'said':
          return { state: { ...s, said: s.said + 1 }, effects: [{ type: 'settle' }], took: true };
        case 'ending':
          return { state: { ...s, ended: true }, effects: [], took: false };
        default:
          return { state, effects: [], took: false };
      }
    },
    steering: () => undefined,
    view: (state) => ({ id: 1, path: [], variables: { said: (state as S).said } }),
  };
}

/**
 * A row of a reducer table: the call so far (`given`), the events under test (`when`), the effects
 * they must produce (`kinds` keeps only effects of those kinds), and optionally a part of the state after.
 */
export interface Row {
  name: string;
  settings?: CallSettings;
  given?: Ev[];
  when: Ev[];
  kinds?: string[];
  effects: string[];
  state?: (state: CallState) => unknown;
  expected?: unknown;
}

/** One `describe` of rows, each its own test. */
export function table(title: string, rows: Row[]): void {
  describe(title, () => {
    it.each(rows)('$name', ({ settings: set = BASE, given = [], when, kinds, effects, state, expected }) => {
      // Act
      const step = run(set, given, when);
      // Assert
      expect(kinds ? only(step.effects, ...kinds) : step.effects).toEqual(effects);
      if (state) expect(state(step.state)).toEqual(expected);
    });
  });
}
