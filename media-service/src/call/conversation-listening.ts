import type { LlmToolCall } from '../ports/language-model';
import type { SttEvent } from '../ports/speech-to-text';
import type { CallMachine } from './call-machine';
import type { CallerTurn } from './caller-turn';
import type { ConversationDeps } from './conversation';

/** What the standard conversation lends its recogniser's events. */
export interface ListeningSeat {
  deps: ConversationDeps;
  machine: CallMachine<LlmToolCall>;
  caller: CallerTurn;
}

/**
 * One recogniser event (docs/design.md "The call engine") as the call's event: the caller's turn
 * starting and ending (with its times), words so far, eager guesses, and the stream closing or
 * failing. What each means for the call is the reducer's (`./rules/call.ts`).
 */
export function listen(s: ListeningSeat, event: SttEvent): void {
  const { deps, machine, caller } = s;
  const { session } = deps;
  switch (event.type) {
    case 'closed':
      caller.sttClosed();
      if (!session.ended && !session.carrierEnded)
        machine.dispatch({ type: 'fault', error: new Error('the speech-to-text stream closed'), voiceLost: false });
      return;
    case 'error':
      if (!session.carrierEnded) machine.dispatch({ type: 'fault', error: event.error, voiceLost: false });
      return;
    case 'start_of_turn':
      caller.started(deps.now());
      return machine.dispatch({ type: 'speech_started', facts: machine.facts() });
    case 'update':
      caller.heard(event.transcript);
      return machine.dispatch({ type: 'interim', text: event.transcript, facts: machine.facts() });
    case 'eager_end_of_turn':
      caller.heard(event.transcript);
      // Knowledge search starts on the (eager) end of the caller's turn, before the model asks for it.
      deps.context.knowledge?.speculate(event.transcript);
      return machine.dispatch({ type: 'eager_end', text: event.transcript, facts: machine.facts() });
    case 'turn_resumed':
      return machine.dispatch({ type: 'turn_resumed' });
    case 'end_of_turn':
      deps.context.knowledge?.speculate(event.transcript);
      return endOfTurn(s, event.transcript, event.endOfSpeechMs);
    default:
      return;
  }
}

function endOfTurn(s: ListeningSeat, transcript: string, endOfSpeechMs: number | undefined): void {
  const { deps, machine, caller } = s;
  const now = deps.now();
  const text = transcript.trim();
  const startAt = caller.ended(now);
  const endAt = endOfSpeechMs === undefined ? now : Math.min(now, deps.t0 + endOfSpeechMs);
  machine.dispatch({
    type: 'end_of_turn',
    words: text === '' ? undefined : { text, startAt, endAt },
    turn: { endOfTurnAt: now, endOfSpeechAt: endOfSpeechMs === undefined ? undefined : endAt, eager: false },
    gone: caller.gone,
    facts: machine.facts(),
  });
}
