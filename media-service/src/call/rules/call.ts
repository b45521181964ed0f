import { shouldInterrupt, words } from '../turn-taking';
import type { TurnTiming } from '../call-metrics';
import type { CallEvent, CallSettings, CallState, CallStep, CallerWords, Facts, LineKind, NamedCall, TimerName } from './call-types';
import { ending, noticeDue, onVoicemail, screening, sinceStart, type Draft } from './draft';
import { endCall, fail, finishNow } from './endings';
import { afterSpeech, answer, bargeIn, noticeOver, reply } from './floor';
import { armSilence, keypad, opening, silence, voicemail, workflow } from './parts';
import { afterReply, toolsDone, transferFailed } from './replies';
import { OPENING_START } from './opening';
import { SILENCE_START } from './silence';
import type { ReplyCall } from './workflow';

/**
 * The call's one reducer (docs/design.md "The call engine"): `reduceCall(settings, state, event,
 * at) → { state, effects }`, with no timers, clocks or I/O inside. Each event is routed through
 * the rule parts it concerns, in a fixed order: voicemail before the opening before the workflow
 * before the caller's answer; the ending before everything. The parts are their own modules:
 * `./opening.ts`, `./silence.ts`, `./keypad.ts`, `./voicemail.ts` (pure reducers of their own),
 * `./floor.ts` (greeting, notice, held words, barge-in), `./replies.ts` (tools, transfers, end
 * phrases), `./endings.ts`, and the workflow interpreter (`./workflow.ts`).
 */

/** The call's state before `start`. */
export function callStart(settings: CallSettings): CallState {
  return {
    opening: OPENING_START,
    silence: SILENCE_START,
    digits: '',
    voicemail: 'none',
    notice: { pending: false, heard: false, heldBargeIn: false, question: '', greetAfter: false },
    floor: {
      greetingDone: false,
      held: undefined,
      providerInterrupts: settings.mode === 'live' && settings.interruptions === 'anytime' && settings.notice === '',
      answeredByGreeting: false,
    },
    tools: { rounds: 0, running: 0, filler: '' },
    ending: { reason: undefined, lastWords: false, finished: false },
    userTurns: 0,
    workflow: settings.workflow?.start,
  };
}

/** The call's next state and effects for `event`, which happened at clock ms `at`. */
export function reduceCall<Call extends NamedCall>(
  settings: CallSettings,
  state: CallState,
  event: CallEvent<Call>,
  at: number,
): CallStep<Call> {
  const d: Draft<Call> = { set: settings, s: { ...state }, fx: [], at };
  route(d, event);
  if (settings.mode === 'live') providerBargeIn(d);
  return { state: d.s, effects: d.fx };
}

/**
 * Live mode: the provider's own barge-in is off until `interruptions` allows the caller to cut the
 * assistant off (`anytime`; `after_greeting` once the greeting is done) and the notice has been
 * heard; then it comes back on, once.
 */
function providerBargeIn(d: Draft): void {
  const { interruptions } = d.set;
  if (d.s.floor.providerInterrupts || interruptions === 'never') return;
  if (d.set.notice !== '' && !d.s.notice.heard) return;
  if (interruptions === 'after_greeting' && !d.s.floor.greetingDone) return;
  d.s.floor = { ...d.s.floor, providerInterrupts: true };
  d.fx.push({ type: 'provider_interrupts' });
}

function route<Call extends NamedCall>(d: Draft<Call>, event: CallEvent<Call>): void {
  switch (event.type) {
    case 'start':
      return void opening(d, { type: 'start' });
    case 'speech_started':
      return speechStarted(d, event.facts);
    case 'interim':
      if (deaf(d) || onVoicemail(d) || !event.facts.audible) return;
      if (interrupts(d, event.text)) bargeIn(d, event.facts);
      return;
    case 'eager_end':
      if (deaf(d) || !d.set.eager || onVoicemail(d) || event.facts.replying || event.facts.speaking || d.s.tools.running > 0) return;
      return void d.fx.push({ type: 'think_ahead', text: event.text });
    case 'turn_resumed':
      if (!deaf(d)) d.fx.push({ type: 'stop_thinking' });
      return;
    case 'end_of_turn':
      return endOfTurn(d, event.words, event.turn, event.gone, event.facts);
    case 'caller_words':
      return callerWords(d, event.words);
    case 'last_words':
      return void d.fx.push({ type: 'transcript', role: 'user', words: event.words });
    case 'own_reply':
      return ownReply(d, event.facts);
    case 'said':
      return said(d, event.kind, event.heard, event.cut, event.facts);
    case 'reply_done':
      return replyDone(d, event.text, event.calls, event.toolFiller, event.facts);
    case 'reply_over':
      if (event.played) d.s.floor = { ...d.s.floor, greetingDone: true };
      return;
    case 'reply_failed':
      return fail(d, event.error, false);
    case 'timer':
      return timer(d, event.name, event.facts);
    case 'digit':
      return keypad(
        d,
        { type: 'press', digit: event.digit, closed: ending(d) || onVoicemail(d), audible: event.facts.audible },
        event.facts,
      );
    case 'amd':
      voicemail(d, { type: 'amd', answeredBy: event.answeredBy, ending: ending(d) });
      return void opening(d, {
        type: 'amd',
        verdict: event.answeredBy === 'human' ? 'human' : event.answeredBy === 'unknown' ? 'unknown' : 'machine',
      });
    case 'tools_done':
      return toolsDone(d, event.calls, event.outputs, event.lines);
    case 'workflow_said':
      return void workflow(d, { type: 'said', atMs: sinceStart(d) }, event.facts);
    case 'workflow_tool_done':
      d.fx.push({ type: 'cancel', timer: 'tool-filler' });
      return void workflow(d, { type: 'tool_done', ok: event.ok, output: event.output, atMs: sinceStart(d) }, event.facts);
    case 'transfer_failed':
      return transferFailed(d, event.call);
    case 'end':
      return endCall(d, event.reason, { goodbye: event.goodbye });
    case 'fault':
      return fail(d, event.error, event.voiceLost);
  }
}

/** The caller is not listened to: the call is ending, and no machine is leaving its greeting. */
const deaf = (d: Draft): boolean => ending(d) && !onVoicemail(d);

function interrupts(d: Draft, text: string): boolean {
  return shouldInterrupt({
    mode: d.set.interruptions,
    minWords: d.set.interruptMinWords,
    assistantSpeaking: true,
    greetingDone: d.s.floor.greetingDone,
    transcript: text,
  });
}

/**
 * The caller started talking. Standard mode: barge-in waits for their words (`interim`). Live
 * mode: the provider answers the turn itself, so the opening is over unless still screening; words
 * over the notice leave it playing and drop our next requests (the greeting's question); else the
 * assistant is cut off when `interruptions` allows.
 */
function speechStarted(d: Draft, facts: Facts): void {
  if (d.set.mode === 'standard' && deaf(d)) return;
  silence(d, { type: 'activity' });
  voicemail(d, { type: 'speech_started' });
  opening(d, { type: 'speech_started' }, facts);
  if (d.set.mode === 'standard') return;
  // A new turn: a reply the provider starts from now on answers it, not the words the greeting took.
  if (d.s.floor.answeredByGreeting) d.s.floor = { ...d.s.floor, answeredByGreeting: false };
  if (!screening(d)) opening(d, { type: 'caller_turn', machine: false, words: 1 }, facts);
  if (ending(d)) return;
  if (d.s.notice.pending) {
    d.s.notice = { ...d.s.notice, question: '', greetAfter: false };
    return void d.fx.push({ type: 'drop_queued' });
  }
  const { interruptions } = d.set;
  const allowed = interruptions === 'anytime' || (interruptions === 'after_greeting' && d.s.floor.greetingDone);
  if (allowed && facts.audible) bargeIn(d, facts);
}

/** A caller turn ended (standard mode): a machine's, the greeting's to answer, the workflow's, or the model's. */
function endOfTurn<Call extends NamedCall>(
  d: Draft<Call>,
  said: CallerWords | undefined,
  turn: TurnTiming,
  gone: boolean,
  facts: Facts,
): void {
  if (deaf(d) && !gone) return;
  if (!said) {
    if (gone) return;
    d.fx.push({ type: 'stop_thinking' });
    opening(d, { type: 'quiet_turn' }, facts);
    return armSilence(d, facts);
  }
  d.fx.push({ type: 'transcript', role: 'user', words: said });
  if (gone) return;
  d.s.userTurns++;
  const count = words(said.text).length;
  const machine = voicemail(d, { type: 'caller_turn', text: said.text, userTurns: d.s.userTurns, ending: ending(d) });
  if (machine || ending(d)) return void opening(d, { type: 'caller_turn', machine: true, words: count }, facts);
  callerSpoke(d);
  d.fx.push({ type: 'user_words', text: said.text });
  // An outbound call's first words from a person ("Hello?") are answered by the greeting.
  if (opening(d, { type: 'caller_turn', machine: false, words: count }, facts)) return void d.fx.push({ type: 'stop_thinking' });
  if (workflow(d, { type: 'caller_turn', atMs: sinceStart(d) }, facts)) return void d.fx.push({ type: 'stop_thinking' });
  answer(d, turn, said.text, facts);
}

/** A caller turn the live provider hears and answers itself: the transcript, voicemail and the opening take note. */
function callerWords(d: Draft, said: CallerWords): void {
  d.fx.push({ type: 'transcript', role: 'user', words: said });
  d.s.userTurns++;
  const machine = voicemail(d, { type: 'caller_turn', text: said.text, userTurns: d.s.userTurns, ending: ending(d) });
  // An outbound call's first words from a person are answered by the greeting: not by the provider too.
  if (opening(d, { type: 'caller_turn', machine, words: words(said.text).length })) d.s.floor = { ...d.s.floor, answeredByGreeting: true };
  if (!machine) callerSpoke(d);
}

/** Caller words: the idle messages start over, and the model may call tools again. */
function callerSpoke(d: Draft): void {
  silence(d, { type: 'caller_spoke' });
  d.s.tools = { ...d.s.tools, rounds: 0 };
}

/**
 * The live provider started a reply on its own (the caller's turn ended). It may not talk over a
 * goodbye, an outbound call still screening for a machine, or the greeting that answers that turn;
 * a workflow may take the turn; and it may not speak before the notice: it is asked again, behind
 * the notice.
 */
function ownReply(d: Draft, facts: Facts): void {
  silence(d, { type: 'activity' });
  const answered = d.s.floor.answeredByGreeting;
  if (answered) d.s.floor = { ...d.s.floor, answeredByGreeting: false };
  if (ending(d) || screening(d) || answered) return void d.fx.push({ type: 'cancel_own_reply' });
  if (workflow(d, { type: 'caller_turn', atMs: sinceStart(d) }, facts)) return void d.fx.push({ type: 'cancel_own_reply' });
  if (!noticeDue(d)) return;
  d.fx.push({ type: 'cancel_own_reply' });
  reply(d, 'reply');
}

/** Fixed words played or were cut. */
function said(d: Draft, kind: LineKind, heard: boolean, cut: boolean, facts: Facts): void {
  switch (kind) {
    case 'notice':
      return noticeOver(d, heard, cut, facts);
    case 'goodbye':
    case 'voicemail':
      // Cut: newer last words replaced these (a provider failed during the goodbye).
      if (!cut) finishNow(d);
      return;
    case 'filler':
      return;
    default:
      return afterSpeech(d, facts);
  }
}

/** A reply played to the end: a `next_step` is the workflow's; else its tools, end phrases, or the caller's turn. */
function replyDone<Call extends NamedCall>(d: Draft<Call>, text: string, calls: readonly Call[], toolFiller: string, facts: Facts): void {
  if (d.set.mode === 'live') d.s.floor = { ...d.s.floor, greetingDone: true };
  if (ending(d)) return;
  const asWorkflow: ReplyCall[] = calls.map((call) => ({ id: callId(call), name: call.name, arguments: call.arguments }));
  if (workflow(d, { type: 'reply_done', calls: asWorkflow, atMs: sinceStart(d) }, facts)) return;
  afterReply(d, text, calls, toolFiller, facts);
}

const callId = (call: NamedCall): string => {
  const { id, callId: live } = call as { id?: string; callId?: string };
  return id ?? live ?? '';
};

function timer(d: Draft, name: TimerName, facts: Facts): void {
  // The ending stops these (`cancel_timers`); one that fired all the same does nothing.
  if (ending(d) && (name === 'tool-filler' || name === 'dtmf' || name === 'silence' || name === 'greet')) return;
  switch (name) {
    case 'greet':
      return void opening(d, { type: 'timer' }, facts);
    case 'silence':
      return silence(d, { type: 'timer', busy: facts.replying || facts.speaking || facts.callerSpeaking });
    case 'dtmf':
      return keypad(d, { type: 'pause', audible: facts.audible }, facts);
    case 'voicemail':
      return void voicemail(d, { type: 'quiet' });
    case 'tool-filler':
      return void d.fx.push({ type: 'say', kind: 'filler', text: d.s.tools.filler, turn: false });
    case 'goodbye':
      return finishNow(d);
  }
}
