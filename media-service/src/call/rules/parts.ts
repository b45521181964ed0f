import { reduceKeypad, type KeypadEvent } from './keypad';
import { reduceOpening, type OpeningEvent } from './opening';
import { reduceSilence, type SilenceEvent } from './silence';
import { reduceVoicemail, type VoicemailEvent } from './voicemail';
import type { WorkflowEvent } from './workflow-slot';
import type { Facts, NamedCall } from './call-types';
import { busy, ending, noticeDue, QUIET, type Draft } from './draft';
import { afterSpeech, bargeIn, greet, keyed, reply, sayLine, sayNotice } from './floor';
import { TOOL_FILLER_LINE } from './replies';
import { claim, endCall, finishNow, lastWords } from './endings';

/**
 * The call's smaller rule sets (`./opening.ts`, `./silence.ts`, `./keypad.ts`, `./voicemail.ts`,
 * the workflow) as parts of the one reducer: each is fed its event, and its effects become the
 * call's.
 */

/** Feeds the opening; true when the event was a caller turn the greeting now answers. */
export function opening(d: Draft, event: OpeningEvent, facts: Facts = QUIET): boolean {
  const step = reduceOpening(d.set.opening, d.s.opening, event);
  d.s.opening = step.state;
  for (const effect of step.effects) {
    if (effect.type === 'arm') d.fx.push({ type: 'arm', timer: 'greet', ms: effect.ms });
    else if (effect.type === 'cancel') d.fx.push({ type: 'cancel', timer: 'greet' });
    else if (effect.type === 'listen') armSilence(d, facts);
    else if (!ending(d)) greet(d, facts);
  }
  return step.answered;
}

export function silence(d: Draft, event: SilenceEvent): void {
  const step = reduceSilence(d.set.silence, d.s.silence, event);
  d.s.silence = step.state;
  for (const effect of step.effects) {
    if (effect.type === 'arm') d.fx.push({ type: 'arm', timer: 'silence', ms: effect.ms });
    else if (effect.type === 'cancel') d.fx.push({ type: 'cancel', timer: 'silence' });
    else if (effect.type === 'idle') sayLine(d, 'idle', effect.text);
    else endCall(d, effect.reason, { goodbye: true });
  }
}

/** Nobody is talking or thinking (as far as `facts` say): the silence clock starts. */
export function armSilence(d: Draft, facts: Facts): void {
  silence(d, { type: 'quiet', busy: ending(d) || busy(facts) });
}

export function keypad(d: Draft, event: KeypadEvent, facts: Facts): void {
  const step = reduceKeypad(d.set.keypad, d.s.digits, event);
  d.s.digits = step.digits;
  let now = facts;
  for (const effect of step.effects) {
    if (effect.type === 'arm') d.fx.push({ type: 'arm', timer: 'dtmf', ms: effect.ms });
    else if (effect.type === 'cancel') d.fx.push({ type: 'cancel', timer: 'dtmf' });
    else if (effect.type === 'quiet') silence(d, { type: 'activity' });
    else if (effect.type === 'barge_in') now = bargeIn(d, now);
    else keyed(d, effect.text, now);
  }
}

/** Feeds voicemail handling; true when it took the event (a machine is on the line). */
export function voicemail(d: Draft, event: VoicemailEvent): boolean {
  const step = reduceVoicemail(d.set.voicemail, d.s.voicemail, event);
  d.s.voicemail = step.phase;
  for (const effect of step.effects) {
    if (effect.type === 'claim') claim(d, 'voicemail');
    else if (effect.type === 'silence') d.fx.push({ type: 'silence' });
    else if (effect.type === 'arm') d.fx.push({ type: 'arm', timer: 'voicemail', ms: effect.ms });
    else if (effect.type === 'cancel') d.fx.push({ type: 'cancel', timer: 'voicemail' });
    else if (effect.type === 'leave') lastWords(d, 'voicemail', effect.text);
    else finishNow(d);
  }
  return step.took;
}

/**
 * Feeds the workflow (none: false). Its lines are assistant turns of their own; its replies wait
 * for a caller still mid-turn (one who cut a line short is answered when the turn ends).
 */
export function workflow<Call extends NamedCall>(d: Draft<Call>, event: WorkflowEvent, facts: Facts): boolean {
  const rules = d.set.workflow;
  const state = d.s.workflow;
  if (!rules || !state) return false;
  const step = rules.reduce(state, event);
  d.s.workflow = step.state;
  for (const effect of step.effects) {
    switch (effect.type) {
      case 'say':
        silence(d, { type: 'activity' });
        sayLine(d, 'reply', effect.text, { step: true });
        break;
      case 'run_tool':
        // A tool node that opens the call still has the notice first, and a slow one its filler: never dead air.
        if (noticeDue(d)) sayNotice(d);
        d.s.tools = { ...d.s.tools, filler: TOOL_FILLER_LINE };
        d.fx.push(
          { type: 'arm', timer: 'tool-filler', ms: d.set.toolFillerAfterMs },
          { type: 'run_workflow_tool', name: effect.name, args: effect.args },
        );
        break;
      case 'reply':
        if (!facts.callerSpeaking) reply(d, 'reply');
        break;
      case 'tool_result':
        d.fx.push({ type: 'workflow_tool_result', callId: effect.callId, output: effect.output });
        break;
      case 'settle':
        afterSpeech(d, facts);
        break;
      case 'transfer':
        d.fx.push({ type: 'workflow_transfer', number: effect.number });
        break;
      case 'end':
        endCall(d, 'assistant_ended', { goodbye: true, text: effect.text === '' ? undefined : effect.text });
        break;
      case 'entered':
        d.fx.push({ type: 'steer', node: effect.node });
        break;
      case 'stuck':
      case 'runaway':
        d.fx.push({ type: 'workflow_log', event: effect.type, node: effect.node, ...(effect.type === 'stuck' && { to: effect.to }) });
        break;
    }
  }
  return step.took;
}
