import { splitGreeting } from '../../../shared/domain/call-script';
import type { LanguageModel, LlmToolCall } from '../ports/language-model';
import type { SttStream } from '../ports/speech-to-text';
import { CallPolicy } from './call-policy';
import { modelLabelFor, type TurnTiming } from './call-metrics';
import { CallerTurn } from './caller-turn';
import { PolicyDriver } from './policy-driver';
import { ChatHistory, type AssistantMessage } from './chat-history';
import { EagerGuess, type Guess } from './eager-guess';
import { streamReply } from './reply-stream';
import type { ConversationBaseDeps, ConversationDriver, SessionView } from './session-types';
import { Speaker, type SpeakerOptions, type Utterance, type UtteranceKind } from './speaker';
import { heardText } from './transcript-log';
import { isBackchannel } from './turn-taking';
import type { CallWorkflow } from '../../../shared/domain/workflow';
import type { WorkflowRun } from './workflow/workflow-run';
import { conversationWorkflowRun } from './conversation-workflow';
import { onSttEvent, type ListeningSeat } from './conversation-listening';

/** What a standard conversation needs from its session. */
export interface ConversationDeps extends ConversationBaseDeps {
  /** The voice: the speaker is built from these, its failures end the call. */
  voice: Omit<SpeakerOptions, 'onFailure'>;
  llm: LanguageModel;
  stt: SttStream;
  session: SessionView;
}

interface Turn {
  controller: AbortController;
  utterance: Utterance;
  /** Its message in the history, once the model finished it (a barge-in cuts it to what was heard). */
  message?: AssistantMessage;
}

/**
 * The standard conversation of one call (docs/design.md "The call engine"): greeting per `first_message_mode`,
 * turn-taking on Flux events, eager replies, barge-in with history cut to what was heard, fillers
 * and the model's tools. The shared rules (ending, silence, keypad, voicemail) are the
 * {@link CallPolicy}'s; the session owns the sockets.
 */
export class Conversation extends PolicyDriver<LlmToolCall> implements ConversationDriver {
  readonly #d: ConversationDeps;
  protected readonly policy: CallPolicy<LlmToolCall>;
  readonly #speaker: Speaker;
  readonly #history: ChatHistory;
  readonly #eager: EagerGuess;
  readonly #caller: CallerTurn;
  #turn: Turn | undefined;
  #greetingDone = false;
  /** Caller words that came while the assistant spoke, answered once it is done. */
  #heldTurn: TurnTiming | undefined;
  /** The caller cut in while the notice played: what follows it is dropped when it ends. */
  #bargeInHeld = false;
  readonly #offStt: () => void;
  /** The assistant's workflow, when it has one (docs/design.md "Workflows"). */
  readonly #flow: WorkflowRun | undefined;

  constructor(deps: ConversationDeps) {
    super();
    this.#d = deps;
    this.#speaker = new Speaker({ ...deps.voice, onFailure: (error) => this.policy.fail(error, { voiceLost: true }) });
    this.#flow =
      deps.context.workflow &&
      conversationWorkflowRun(deps.context.workflow, {
        deps,
        policy: () => this.policy,
        history: () => this.#history,
        callerSpeaking: () => this.#caller.speaking,
        reply: () => void this.#reply('reply'),
        settle: () => this.#afterSpeech(),
        sayStep: (text) => this.#sayStep(text),
      });
    this.#history = new ChatHistory(deps.context, this.#flow && ((request) => this.#flow!.shape(request)));
    this.#caller = new CallerTurn(deps.stt, deps.timers);
    this.#eager = new EagerGuess(deps.llm, deps.counters, deps.now, (signal, guess) =>
      this.#history.request(signal, [{ role: 'user', content: guess }]),
    );
    this.policy = new CallPolicy<LlmToolCall>(deps, {
      silenceAssistant: () => this.#silenceAssistant(),
      stopThinking: () => this.#eager.drop(),
      say: (kind, text) => this.#say(kind, text).done,
      sayIdle: (text) => this.#speakScripted('idle', text),
      busy: () => this.#turn !== undefined || this.#speaker.speaking || this.#caller.speaking,
      audible: () => this.#speaker.audible,
      bargeIn: () => this.#bargeIn(),
      answerKeypad: (text, at) => {
        this.#history.push({ role: 'user', content: text });
        this.#answer({ endOfTurnAt: at, eager: false }, text);
      },
      toolResult: (call, output) => this.#history.toolResult(call.id, output),
      sayFiller: (text) => void this.#say('filler', text),
      replyAgain: () => void this.#reply('reply'),
      sayReply: (text) => void this.#say('reply', text).done.then(() => this.#afterSpeech()),
    });
    const listening: ListeningSeat = {
      deps,
      policy: this.policy,
      caller: this.#caller,
      eager: this.#eager,
      speaker: this.#speaker,
      history: this.#history,
      flow: this.#flow,
      replying: () => this.#turn !== undefined,
      greetingDone: () => this.#greetingDone,
      bargeIn: () => this.#bargeIn(),
      answer: (timing, text) => this.#answer(timing, text),
    };
    this.#offStt = deps.stt.on((event) => onSttEvent(listening, event));
  }

  start(): void {
    this.policy.open(() => this.#greet());
  }

  /** The opening decided to greet (`./rules/opening.ts`): a caller already answered is never greeted. */
  #greet(): void {
    if (this.policy.pendingReason || this.#turn) return;
    if (this.#flow?.open()) return;
    const first = this.#d.context.script.firstMessage;
    // assistant_first, or wait_for_user greeting a silent caller (greet_after_silence_s): the first message when set.
    if (this.#d.context.config.first_message_mode !== 'model_generated' && first !== '') return this.#speakScripted('greeting', first);
    void this.#reply('greeting');
  }

  /** Replies to the caller's newest words (held while the assistant or the notice speaks), reusing an eager reply when its guess held. */
  #answer(timing: TurnTiming, text: string): void {
    // The reply after the running tools answers these words too (they are in the history already).
    if (this.policy.toolsRunning) return;
    if (this.#speaker.audible || this.policy.notice.playing) {
      this.#eager.drop();
      if (!isBackchannel(text)) this.#heldTurn = { ...timing, held: true };
      return;
    }
    if (this.#turn) this.#cancelTurn();
    const kept = this.#eager.take(text);
    if (kept) timing.eager = true;
    void this.#reply('reply', timing, kept);
  }

  /** One assistant turn: stream the model into the voice, then act on its tool calls. */
  async #reply(kind: 'reply' | 'greeting', timing?: TurnTiming, reuse?: Guess): Promise<void> {
    this.policy.cancelSilence();
    if (this.policy.notice.due) this.#sayNotice();
    const controller = reuse?.controller ?? new AbortController();
    const utterance = this.#speaker.begin(kind);
    this.policy.log.utterance(utterance);
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
        sayFiller: (text) => this.#say('filler', text),
      },
      stream,
      utterance,
      controller.signal,
    );
    if (result.kind === 'failed') return this.policy.fail(result.error, { voiceLost: false });
    if (result.kind === 'cancelled' || controller.signal.aborted) return;
    const { toolCalls } = result;
    if (timing) timing.llmFirstTokenMs = stream.firstTokenMs;
    this.#speaker.end(utterance);
    turn.message = this.#history.said(utterance, toolCalls);
    await utterance.done;
    if (this.#turn !== turn) return;
    this.#turn = undefined;
    if (this.#flow?.afterReply(toolCalls)) return;
    if (!this.policy.afterReply(utterance.text, toolCalls)) this.#afterSpeech();
  }

  /** The assistant went quiet: answer words held while it spoke, or start the silence clock. */
  #afterSpeech(): void {
    if (this.#speaker.speaking || this.#turn || this.policy.pendingReason) return;
    this.#greetingDone = true;
    const held = this.#heldTurn;
    if (held) {
      this.#heldTurn = undefined;
      return void this.#reply('reply', held);
    }
    this.policy.armSilence();
  }

  /**
   * Says the AI-disclosure / recording notice, after `lead` (the greeting's words before its
   * question) in the same utterance: nothing the caller says or keys in cuts it, and when it ends
   * a cut-in held meanwhile drops what was to follow, so the caller's words are answered next.
   */
  #sayNotice(lead = ''): void {
    const { notice } = this.policy;
    const utterance = this.#say('notice', lead === '' ? notice.text : `${lead} ${notice.text}`);
    notice.saying(utterance);
    void utterance.done.then(() => {
      if (this.#bargeInHeld) {
        this.#bargeInHeld = false;
        this.#bargeIn();
      }
      this.#afterSpeech();
    });
  }

  /** Barge-in: stop the model and the voice, clear the carrier, keep in history only what was heard. Held while the notice plays. */
  #bargeIn(): void {
    if (this.policy.notice.playing) {
      this.#bargeInHeld = true;
      return;
    }
    const turn = this.#turn;
    this.#turn = undefined;
    turn?.controller.abort();
    const cut = this.#speaker.interrupt();
    if (cut.length === 0) return;
    // Counted only when the caller heard a word of it (as the transcript keeps it): docs/decisions.md "Interruptions".
    if (cut.some((utterance) => heardText(utterance) !== '')) this.#d.counters.interruptions++;
    this.#d.log.info('call.barge_in', { call_id: this.#d.context.call.id, heard_ms: Math.round((turn?.utterance.bytesPlayed ?? 0) / 8) });
    this.#greetingDone = true;
    this.#eager.drop();
    if (turn?.message) this.#history.cutToHeard(turn.message, turn.utterance);
  }

  /** A reply nobody heard yet is superseded by newer words: forget it entirely. */
  #cancelTurn(): void {
    const turn = this.#turn;
    if (!turn) return;
    this.#silenceAssistant();
    if (turn.message) this.#history.forget(turn.message);
  }

  onMark(name: string, afterClear: boolean): void {
    this.#speaker.onMark(name, afterClear);
  }

  /** The recogniser's last words (and a turn it left open) go to the transcript, never answered. */
  async callerHungUp(): Promise<void> {
    this.#eager.drop();
    const unfinished = await this.#caller.hangUp(this.#d.now);
    if (unfinished) this.policy.log.user(unfinished.text, unfinished.startAt, unfinished.endAt);
  }

  /** The call's run of its workflow (undefined without one). */
  workflow(): CallWorkflow | undefined {
    return this.#flow?.view();
  }

  modelLabel(configured: string): string {
    return modelLabelFor(this.#d.context.config, configured);
  }

  close(): void {
    this.#offStt();
    this.policy.close();
    this.#eager.drop();
    this.#turn?.controller.abort();
    this.#d.counters.ttsCharacters = this.#speaker.charactersSent;
    this.#speaker.close();
  }

  #silenceAssistant(): void {
    this.#turn?.controller.abort();
    this.#turn = undefined;
    this.#speaker.interrupt();
  }

  /**
   * Fixed words said as a turn of their own (greeting, idle message): barge-in cuts them in history
   * too. A notice still due goes first, inside a greeting before its closing question.
   */
  #speakScripted(kind: UtteranceKind, text: string): void {
    if (this.policy.notice.due) {
      const { lead, question } = kind === 'greeting' ? splitGreeting(text) : { lead: '', question: text };
      if (lead !== '') this.#history.push({ role: 'assistant', content: lead });
      this.#sayNotice(lead);
      if (question === '') return;
      text = question;
    }
    const utterance = this.#say(kind, text);
    const message: AssistantMessage = { role: 'assistant', content: text };
    this.#history.push(message);
    const turn: Turn = { controller: new AbortController(), utterance, message };
    this.#turn = turn;
    void utterance.done.then(() => {
      if (this.#turn !== turn) return;
      this.#turn = undefined;
      this.#afterSpeech();
    });
  }

  #say(kind: UtteranceKind, text: string): Utterance {
    const utterance = this.#speaker.say(kind, text);
    this.policy.log.utterance(utterance);
    return utterance;
  }

  /** A workflow's fixed words, as an assistant turn of their own (barge-in cuts them, in history too). */
  async #sayStep(text: string): Promise<void> {
    this.policy.cancelSilence();
    if (this.policy.notice.due) this.#sayNotice();
    const utterance = this.#say('reply', text);
    const message: AssistantMessage = { role: 'assistant', content: text };
    this.#history.push(message);
    const turn: Turn = { controller: new AbortController(), utterance, message };
    this.#turn = turn;
    await utterance.done;
    if (this.#turn === turn) this.#turn = undefined;
  }
}
