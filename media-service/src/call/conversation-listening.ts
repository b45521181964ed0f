import type { LlmToolCall } from '../ports/language-model';
import type { SttEvent } from '../ports/speech-to-text';
import type { CallPolicy } from './call-policy';
import type { TurnTiming } from './call-metrics';
import type { CallerTurn } from './caller-turn';
import type { ChatHistory } from './chat-history';
import type { ConversationDeps } from './conversation';
import type { EagerGuess } from './eager-guess';
import type { Speaker } from './speaker';
import { shouldInterrupt, words } from './turn-taking';
import type { WorkflowRun } from './workflow/workflow-run';

/** What a standard conversation lends its listening: the recogniser's events act through these. */
export interface ListeningSeat {
  deps: ConversationDeps;
  policy: CallPolicy<LlmToolCall>;
  caller: CallerTurn;
  eager: EagerGuess;
  speaker: Speaker;
  history: ChatHistory;
  flow: WorkflowRun | undefined;
  /** An assistant turn is under way. */
  replying(): boolean;
  /** The greeting has been said (or cut): words over the assistant may interrupt it. */
  greetingDone(): boolean;
  bargeIn(): void;
  answer(timing: TurnTiming, text: string): void;
}

/**
 * One recogniser event (docs/design.md "The call engine"): the caller's turn starting and ending, words over the
 * assistant (barge-in), eager guesses, and the stream closing or failing.
 */
export function onSttEvent(s: ListeningSeat, event: SttEvent): void {
  const { session } = s.deps;
  if (event.type === 'closed') {
    s.caller.sttClosed();
    if (!session.ended && !session.carrierEnded) s.policy.fail(new Error('the speech-to-text stream closed'), { voiceLost: false });
    return;
  }
  if (event.type === 'error') return session.carrierEnded ? undefined : s.policy.fail(event.error, { voiceLost: false });
  if (event.type === 'update' || event.type === 'eager_end_of_turn') s.caller.heard(event.transcript);
  // Knowledge search starts on the (eager) end of the caller's turn, before the model asks for it.
  if (event.type === 'eager_end_of_turn' || event.type === 'end_of_turn') s.deps.context.knowledge?.speculate(event.transcript);
  if (s.policy.pendingReason && !s.policy.voicemail.active && !s.caller.gone) return;
  switch (event.type) {
    case 'start_of_turn':
      s.caller.started(s.deps.now());
      s.policy.cancelSilence();
      s.policy.voicemail.onSpeechStarted();
      s.policy.opening({ type: 'speech_started' });
      return;
    case 'update':
      return onUpdate(s, event.transcript);
    case 'eager_end_of_turn':
      if (!s.deps.context.config.transcriber.eager || s.policy.voicemail.active || s.replying() || s.speaker.speaking) return;
      if (s.policy.toolsRunning) return;
      return s.eager.guess(event.transcript);
    case 'turn_resumed':
      return s.eager.drop();
    case 'end_of_turn':
      return onEndOfTurn(s, event.transcript, event.endOfSpeechMs);
    default:
      return;
  }
}

function onUpdate(s: ListeningSeat, transcript: string): void {
  if (s.policy.voicemail.active || !s.speaker.audible) return;
  const { advanced } = s.deps.context.config;
  const interrupt = shouldInterrupt({
    mode: advanced.interruptions,
    minWords: advanced.interrupt_min_words,
    assistantSpeaking: true,
    greetingDone: s.greetingDone(),
    transcript,
  });
  if (interrupt) s.bargeIn();
}

function onEndOfTurn(s: ListeningSeat, transcript: string, endOfSpeechMs: number | undefined): void {
  const now = s.deps.now();
  const text = transcript.trim();
  const startAt = s.caller.ended(now);
  if (text === '' && s.caller.gone) return;
  if (text === '') {
    s.eager.drop();
    s.policy.opening({ type: 'quiet_turn' });
    return s.policy.armSilence();
  }
  const endAt = endOfSpeechMs === undefined ? now : Math.min(now, s.deps.t0 + endOfSpeechMs);
  s.policy.log.user(text, startAt, endAt);
  if (s.caller.gone) return;
  if (s.policy.voicemail.onCallerTurn(text, s.policy.log.userTurns) || s.policy.pendingReason) {
    s.policy.opening({ type: 'caller_turn', machine: true, words: words(text).length });
    return;
  }
  s.policy.callerSpoke();
  s.history.push({ role: 'user', content: text });
  // An outbound call's first words from a person ("Hello?") are answered by the greeting.
  if (s.policy.opening({ type: 'caller_turn', machine: false, words: words(text).length })) return s.eager.drop();
  if (s.flow?.callerTurn()) return s.eager.drop();
  s.answer({ endOfTurnAt: now, endOfSpeechAt: endOfSpeechMs === undefined ? undefined : endAt, eager: false }, text);
}
