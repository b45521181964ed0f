import type { CallWorkflow } from '../../../shared/domain/workflow';
import type { LanguageModel, LlmToolCall } from '../ports/language-model';
import type { SttStream } from '../ports/speech-to-text';
import { CallMachine, type CallVoice, type VoiceEffect } from './call-machine';
import { modelLabelFor, type TurnTiming } from './call-metrics';
import { CallerTurn } from './caller-turn';
import { ChatHistory, type AssistantMessage } from './chat-history';
import { listen } from './conversation-listening';
import { EagerGuess } from './eager-guess';
import { MachineDriver } from './machine-driver';
import { streamReply } from './reply-stream';
import type { Facts, LineKind } from './rules/call-types';
import { steerRequest, type WorkflowRules } from './rules/workflow-slot';
import type { ConversationBaseDeps, ConversationDriver, SessionView } from './session-types';
import { Speaker, type SpeakerOptions, type Utterance } from './speaker';
import { heardText, playedInFull } from './transcript-log';

/** What a standard conversation needs from its session. */
export interface ConversationDeps extends ConversationBaseDeps {
  /** The voice: the speaker is built from these, its failures end the call. */
  voice: Omit<SpeakerOptions, 'onFailure'>;
  llm: LanguageModel;
  stt: SttStream;
  session: SessionView;
  /** The assistant's workflow rules, when it has one. */
  workflow?: WorkflowRules;
}

/** An assistant turn under way: a model reply, or fixed words said as a turn. */
interface Turn {
  controller: AbortController;
  utterance: Utterance;
  /** Its message in the history, once known (a barge-in cuts it to what was heard). */
  message?: AssistantMessage;
}

/**
 * The standard pipeline of one call (docs/design.md "The call engine"): the recogniser (Flux or
 * OpenAI transcription) hears the caller, the model answers, Aura speaks. It decides nothing: the
 * recogniser's and the voice's events go to the call's {@link CallMachine}, and this carries out
 * the effects that need the voice and the model (say, stream a reply, barge-in, eager guesses,
 * the model's history).
 */
export class Conversation extends MachineDriver<LlmToolCall> implements ConversationDriver, CallVoice<LlmToolCall> {
  readonly #d: ConversationDeps;
  protected readonly machine: CallMachine<LlmToolCall>;
  readonly #speaker: Speaker;
  readonly #history: ChatHistory;
  readonly #eager: EagerGuess;
  readonly #caller: CallerTurn;
  #turn: Turn | undefined;
  readonly #offStt: () => void;

  constructor(deps: ConversationDeps) {
    super();
    this.#d = deps;
    const rules = deps.workflow;
    this.machine = new CallMachine<LlmToolCall>(deps, 'standard', rules);
    this.#speaker = new Speaker({ ...deps.voice, onFailure: (error) => this.machine.dispatch({ type: 'fault', error, voiceLost: true }) });
    this.#history = new ChatHistory(
      deps.context,
      rules && ((request) => steerRequest(request, rules.steering(this.machine.state.workflow!))),
    );
    this.#caller = new CallerTurn(deps.stt, deps.timers);
    this.#eager = new EagerGuess(deps.llm, deps.counters, deps.now, (signal, guess) =>
      this.#history.request(signal, [{ role: 'user', content: guess }]),
    );
    this.machine.attach(this);
    this.#offStt = deps.stt.on((event) => listen({ deps, machine: this.machine, caller: this.#caller }, event));
  }

  start(): void {
    this.machine.dispatch({ type: 'start' });
  }

  facts(): Facts {
    return {
      audible: this.#speaker.audible,
      speaking: this.#speaker.speaking,
      replying: this.#turn !== undefined,
      callerSpeaking: this.#caller.speaking,
    };
  }

  apply(effect: VoiceEffect<LlmToolCall>): void {
    switch (effect.type) {
      case 'say':
        return this.#say(effect.kind, effect.text, effect);
      case 'reply':
        return void this.#reply(effect.kind, effect.turn, effect.guess);
      case 'barge_in':
        return this.#bargeIn();
      case 'silence':
        return this.#silence();
      case 'cancel_reply':
        return this.#cancelTurn();
      case 'stop_thinking':
        return this.#eager.drop();
      case 'think_ahead':
        return this.#eager.guess(effect.text);
      case 'user_words':
        return this.#history.push({ role: 'user', content: effect.text });
      case 'tool_result':
        return this.#history.toolResult(effect.call.id, effect.output);
      case 'workflow_tool_result':
        return this.#history.toolResult(effect.callId, effect.output);
      case 'steer':
      case 'drop_queued':
      case 'cancel_own_reply':
      case 'provider_interrupts':
        // The history steers each request; there is no provider queue or provider barge-in here.
        return;
    }
  }

  workflowTransfer(number: string | null): LlmToolCall {
    if (number) this.#d.context.transferNumber = number;
    const call = { id: `workflow_transfer_${this.#d.now()}`, name: 'transfer', arguments: '{}' };
    // The model's history must hold the call a failed transfer's result answers.
    this.#history.push({ role: 'assistant', content: null, toolCalls: [call] });
    return call;
  }

  /**
   * Fixed words. A turn of its own (`turn`: greeting, idle message, a workflow's line) is in the
   * history and cut by barge-in; the notice carries the greeting's words before it (`lead`).
   */
  #say(kind: LineKind, text: string, options: { turn: boolean; lead?: string; step?: boolean }): void {
    const utterance = this.#speaker.say(kind, text);
    this.machine.log.utterance(utterance);
    if (options.lead) this.#history.push({ role: 'assistant', content: options.lead });
    if (!options.turn) {
      return void utterance.done.then(() =>
        this.machine.dispatch({ type: 'said', kind, heard: playedInFull(utterance), cut: utterance.interrupted, facts: this.facts() }),
      );
    }
    const message: AssistantMessage = { role: 'assistant', content: text };
    this.#history.push(message);
    const turn: Turn = { controller: new AbortController(), utterance, message };
    this.#turn = turn;
    void utterance.done.then(() => {
      const current = this.#turn === turn;
      if (current) this.#turn = undefined;
      // A workflow's line moves the run on even when the caller cut it; any other turn cut by a barge-in is the caller's turn instead.
      if (options.step) return this.machine.dispatch({ type: 'workflow_said', facts: this.facts() });
      if (current)
        this.machine.dispatch({ type: 'said', kind, heard: playedInFull(utterance), cut: utterance.interrupted, facts: this.facts() });
    });
  }

  /** One model reply: streamed into the voice (an eager guess reused when it guessed `guess`), then played. */
  async #reply(kind: 'reply' | 'greeting', timing?: TurnTiming, guess?: string): Promise<void> {
    const reuse = guess === undefined ? undefined : this.#eager.take(guess);
    if (reuse && timing) timing.eager = true;
    const controller = reuse?.controller ?? new AbortController();
    const utterance = this.#speaker.begin(kind);
    this.machine.log.utterance(utterance);
    const turn: Turn = { controller, utterance };
    this.#turn = turn;
    if (timing) {
      timing.requestAt = reuse?.startedAt ?? this.#d.now();
      timing.utterance = utterance;
      this.#d.counters.turns.push(timing);
    }
    const stream =
      reuse?.stream ??
      this.#d.llm.stream(kind === 'greeting' ? this.#history.greetingRequest(controller.signal) : this.#history.request(controller.signal));
    const fillers = kind === 'reply' && this.#d.context.config.advanced.fillers;
    const result = await streamReply(
      {
        speaker: this.#speaker,
        counters: this.#d.counters,
        timers: this.#d.timers,
        fillerAfterMs: fillers ? this.#d.tuning.fillerAfterMs : undefined,
        fillers: this.#d.context.script.fillers,
        sayFiller: (text) => this.#say('filler', text, { turn: false }),
      },
      stream,
      utterance,
      controller.signal,
    );
    if (result.kind === 'failed') return this.machine.dispatch({ type: 'reply_failed', error: result.error });
    if (result.kind === 'cancelled' || controller.signal.aborted) return;
    const { toolCalls } = result;
    if (timing) timing.llmFirstTokenMs = stream.firstTokenMs;
    this.#speaker.end(utterance);
    turn.message = this.#history.said(utterance, toolCalls);
    await utterance.done;
    if (this.#turn !== turn) return;
    this.#turn = undefined;
    this.machine.replyDone(utterance.text, toolCalls);
  }

  /** Barge-in: stop the model and the voice, clear the carrier, keep in history only what was heard. */
  #bargeIn(): void {
    const turn = this.#turn;
    this.#turn = undefined;
    turn?.controller.abort();
    const cut = this.#speaker.interrupt();
    if (cut.length === 0) return;
    // Counted only when the caller heard a word of it (as the transcript keeps it): docs/decisions.md "Interruptions".
    if (cut.some((utterance) => heardText(utterance) !== '')) this.#d.counters.interruptions++;
    this.#d.log.info('call.barge_in', { call_id: this.#d.context.call.id, heard_ms: Math.round((turn?.utterance.bytesPlayed ?? 0) / 8) });
    if (turn?.message) this.#history.cutToHeard(turn.message, turn.utterance);
  }

  /** A reply nobody heard yet is superseded by newer words: forget it entirely. */
  #cancelTurn(): void {
    const turn = this.#turn;
    if (!turn) return;
    this.#silence();
    if (turn.message) this.#history.forget(turn.message);
  }

  #silence(): void {
    this.#turn?.controller.abort();
    this.#turn = undefined;
    this.#speaker.interrupt();
  }

  onMark(name: string, afterClear: boolean): void {
    this.#speaker.onMark(name, afterClear);
  }

  /** The recogniser's last words (and a turn it left open) go to the transcript, never answered. */
  async callerHungUp(): Promise<void> {
    this.#eager.drop();
    const unfinished = await this.#caller.hangUp(this.#d.now);
    if (unfinished) this.machine.dispatch({ type: 'last_words', words: unfinished });
  }

  /** The call's run of its workflow (undefined without one). */
  workflow(): CallWorkflow | undefined {
    const { workflow } = this.machine.state;
    return workflow && this.#d.workflow?.view(workflow);
  }

  modelLabel(configured: string): string {
    return modelLabelFor(this.#d.context.config, configured);
  }

  close(): void {
    this.#offStt();
    this.machine.close();
    this.#eager.drop();
    this.#turn?.controller.abort();
    this.#d.counters.ttsCharacters = this.#speaker.charactersSent;
    this.#speaker.close();
  }
}
