import { splitGreeting } from '../../../../shared/domain/call-script';
import type { TurnTiming } from '../call-metrics';
import { isBackchannel } from '../turn-taking';
import type { Facts, LineKind, NamedCall } from './call-types';
import { ending, noticeDue, sinceStart, type Draft } from './draft';
import { armSilence, opening, silence, workflow } from './parts';

/**
 * Who has the floor, as part of the call's reducer: the greeting, the notice said before the
 * assistant's first words and never cut, words held while the assistant speaks, barge-in, and what
 * follows when the assistant goes quiet.
 */

/** The opening decided to greet: the workflow's start node, the greeting as written, or the model's. */
export function greet(d: Draft, facts: Facts): void {
  if (ending(d) || facts.replying) return;
  if (workflow(d, { type: 'open', atMs: sinceStart(d) }, facts)) return;
  const { modelGenerated, text } = d.set.greeting;
  if (!modelGenerated && text !== '') return sayLine(d, 'greeting', text);
  // Live mode: the model's greeting is asked for once the notice has played, as a written greeting's question is.
  if (d.set.mode === 'live' && noticeDue(d)) {
    sayNotice(d);
    d.s.notice = { ...d.s.notice, greetAfter: true };
    return;
  }
  reply(d, 'greeting');
}

/**
 * Fixed words as an assistant turn of their own (greeting, idle message, a workflow's line), which
 * barge-in cuts. A notice still due goes first, inside a greeting before its closing question. In
 * live mode that question waits for the notice to play: the provider makes speech faster than it
 * plays, and a question asked at once would be on its way before a caller who talks over the notice.
 */
export function sayLine(d: Draft, kind: LineKind, text: string, options: { step?: boolean } = {}): void {
  if (noticeDue(d)) {
    const { lead, question } = kind === 'greeting' ? splitGreeting(text) : { lead: '', question: text };
    sayNotice(d, lead);
    if (question === '') return;
    if (d.set.mode === 'live' && kind === 'greeting') {
      d.s.notice = { ...d.s.notice, question };
      return;
    }
    text = question;
  }
  d.fx.push({ type: 'say', kind, text, turn: true, ...(options.step && { step: true }) });
}

/** Says the notice, after `lead` (the greeting's words before its question) in the same utterance. `first`: ahead of anything waiting. */
export function sayNotice(d: Draft, lead = '', first = false): void {
  d.s.notice = { ...d.s.notice, pending: true };
  const text = lead === '' ? d.set.notice : `${lead} ${d.set.notice}`;
  d.fx.push({ type: 'say', kind: 'notice', text, turn: false, ...(lead !== '' && { lead }), ...(first && { first }) });
}

/** A model reply (the silence clock stops); a notice still due goes first. */
export function reply(d: Draft, kind: 'greeting' | 'reply', turn?: TurnTiming, guess?: string): void {
  silence(d, { type: 'activity' });
  if (noticeDue(d)) sayNotice(d);
  d.fx.push({ type: 'reply', kind, ...(turn && { turn }), ...(guess !== undefined && { guess }) });
}

/**
 * Answers the caller's newest words (standard mode). While tools run, their results' reply answers
 * these words too; while the assistant or the notice is audible they are held (a backchannel is
 * dropped) and answered once it is quiet; a reply nobody heard yet gives way to them.
 */
export function answer(d: Draft, turn: TurnTiming, text: string, facts: Facts): void {
  if (d.s.tools.running > 0) return;
  if (facts.audible || d.s.notice.pending) {
    d.fx.push({ type: 'stop_thinking' });
    if (!isBackchannel(text)) d.s.floor = { ...d.s.floor, held: { ...turn, held: true } };
    return;
  }
  if (facts.replying) d.fx.push({ type: 'cancel_reply' });
  reply(d, 'reply', turn, text);
}

/**
 * Barge-in: the assistant stops and keeps only what was heard. Never during the notice: in
 * standard mode the cut-in is held and applied when the notice ends; in live mode the provider's
 * own reply answers the caller after it. Returns the facts after it (nothing of ours plays on).
 */
export function bargeIn(d: Draft, facts: Facts): Facts {
  if (d.s.notice.pending) {
    if (d.set.mode === 'standard') d.s.notice = { ...d.s.notice, heldBargeIn: true };
    return facts;
  }
  d.fx.push({ type: 'barge_in' });
  const after = { ...facts, audible: false, speaking: false, replying: false };
  if (!facts.speaking && !facts.audible) return after;
  d.s.floor = { ...d.s.floor, greetingDone: true };
  d.fx.push({ type: 'stop_thinking' });
  return after;
}

/** The assistant went quiet: answer the words held meanwhile, or start the silence clock. */
export function afterSpeech(d: Draft, facts: Facts): void {
  if (facts.speaking || facts.replying || ending(d)) return;
  const { held } = d.s.floor;
  d.s.floor = { ...d.s.floor, greetingDone: true, held: undefined };
  if (held) return reply(d, 'reply', held);
  armSilence(d, facts);
}

/**
 * The notice played, or was cut. Cut by the provider (live mode) while the call goes on, it is
 * asked for again, first. Otherwise a cut-in held meanwhile applies now, and in live mode the
 * greeting's question follows unless the caller talked over the notice.
 */
export function noticeOver(d: Draft, heard: boolean, cut: boolean, facts: Facts): void {
  const { heldBargeIn, question, greetAfter } = d.s.notice;
  if (cut && !heard && !ending(d)) {
    d.s.notice = { ...d.s.notice, pending: false };
    return sayNotice(d, '', true);
  }
  d.s.notice = { pending: false, heard: d.s.notice.heard || heard, heldBargeIn: false, question: '', greetAfter: false };
  let now = heldBargeIn ? bargeIn(d, facts) : facts;
  if (d.set.mode === 'live' && (question !== '' || greetAfter) && !ending(d)) {
    if (question !== '') sayLine(d, 'greeting', question);
    else reply(d, 'greeting');
    now = { ...now, replying: true };
  }
  afterSpeech(d, now);
}

/** Keys entered (`[keypad] 1 2 #`): a caller turn; on an outbound call still screening, a person the greeting answers. */
export function keyed<Call extends NamedCall>(d: Draft<Call>, text: string, facts: Facts): void {
  d.fx.push({ type: 'transcript', role: 'user', words: { text, startAt: d.at, endAt: d.at } });
  d.s.userTurns++;
  silence(d, { type: 'caller_spoke' });
  if (opening(d, { type: 'caller_turn', machine: false, words: 1 }, facts)) return;
  d.fx.push({ type: 'user_words', text });
  // While a workflow acts (a tool node running, a line playing), the entry waits for its next talking node.
  if (workflow(d, { type: 'caller_turn', atMs: sinceStart(d) }, facts)) return;
  if (d.set.mode === 'standard') return answer(d, { endOfTurnAt: d.at, eager: false }, text, facts);
  // Live mode answers keys at once; over the notice, the greeting's question then gives way, as for words.
  if (d.s.notice.pending) d.s.notice = { ...d.s.notice, question: '', greetAfter: false };
  reply(d, 'reply');
}
