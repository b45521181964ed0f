import type { CallWorkflow } from '../../../shared/domain/workflow';
import type { S2sEvent, S2sSession, SpeechToSpeech } from '../ports/speech-to-speech';
import { CallMachine, type CallVoice, type VoiceEffect } from './call-machine';
import type { CallerAudio } from './caller-audio';
import { LAST_WORDS_WAIT_MS } from './caller-turn';
import { isSandboxLabel, sandboxLabel } from './call-metrics';
import { LiveCaller } from './live-caller';
import { LivePlayback, type PlaybackPacer } from './live-playback';
import { LiveResponses, verbatim, type Reply } from './live-responses';
import { liveSteering } from './live-workflow';
import { MachineDriver } from './machine-driver';
import type { Facts, LineKind } from './rules/call-types';
import type { WorkflowRules } from './rules/workflow-slot';
import type { ConversationBaseDeps, ConversationDriver } from './session-types';
import { heardText, playedInFull } from './transcript-log';

export { verbatim } from './live-responses';

/** What a live conversation needs from its session. */
export interface LiveConversationDeps extends ConversationBaseDeps {
  realtime: SpeechToSpeech;
  pacer: PlaybackPacer;
  callerAudio: CallerAudio;
  /** The assistant's workflow rules, when it has one. */
  workflow?: WorkflowRules;
}

/** 20 ms of μ-law silence, and how many a hang-up mid-turn gives the provider's VAD (past its 500 ms end-of-speech wait). */
const SILENT_FRAME = new Uint8Array(160).fill(0xff);
const HANG_UP_SILENCE_FRAMES = 35;

/** A tool call of a live reply. */
type LiveCall = Reply['calls'][number];

/**
 * Live mode (docs/design.md "Live mode"): one speech-to-speech session hears the caller and answers
 * in its own voice. It decides nothing: the session's events go to the call's
 * {@link CallMachine}, and this carries out the effects with the session (asks for responses, word
 * for word for fixed lines; paced playback with marks; barge-in as clear, cancel and truncate to
 * what was heard). `interrupt_min_words` does not apply: Realtime gives no words before speech stops.
 */
export class LiveConversation extends MachineDriver<LiveCall> implements ConversationDriver, CallVoice<LiveCall> {
  readonly #d: LiveConversationDeps;
  protected readonly machine: CallMachine<LiveCall>;
  readonly #playback: LivePlayback;
  readonly #abort = new AbortController();
  readonly #responses = new LiveResponses(() => this.#session);
  readonly #caller = new LiveCaller();
  #off: (() => void) | undefined;
  #session: S2sSession | undefined;
  /** The reply the provider just started on its own, while the machine decides on it. */
  #ownReply: Reply | undefined;
  /** The instructions and tools last given to the session, as a key. */
  #steered = '';

  constructor(deps: LiveConversationDeps) {
    super();
    this.#d = deps;
    this.#playback = new LivePlayback(deps.pacer, deps.now);
    this.machine = new CallMachine<LiveCall>(deps, 'live', deps.workflow);
    this.machine.attach(this);
  }

  /** Opens the provider session (the caller's early audio replayed first) and starts the call. */
  start(): void {
    const { context, callSid } = this.#d;
    const { config } = context;
    const session = this.#d.realtime.open({
      instructions: context.script.systemPrompt,
      voice: config.live_voice,
      tools: context.tools,
      language: config.language,
      speed: config.voice.speed,
      interruptResponse: this.machine.state.floor.providerInterrupts,
      tag: callSid,
      signal: this.#abort.signal,
    });
    this.#session = session;
    this.#steered = liveSteering(context, undefined).key;
    // A talking start node steers the provider's first reply, which may come before the greeting.
    this.#steer();
    this.#d.callerAudio.attach((frame) => session.appendAudio(frame));
    this.#off = session.on((event) => this.#onEvent(event));
    this.machine.dispatch({ type: 'start' });
  }

  facts(): Facts {
    const audible = this.#playback.audible;
    return { audible, speaking: audible, replying: this.#responses.busy, callerSpeaking: this.#caller.speaking };
  }

  apply(effect: VoiceEffect<LiveCall>): void {
    switch (effect.type) {
      case 'say':
        return this.#say(effect.kind, effect.text, effect);
      case 'reply':
        this.#steer();
        return void this.#responses.request(effect.kind).then((reply) => reply && this.#afterReply(reply));
      case 'barge_in':
        return this.#bargeIn();
      case 'silence':
        this.#playback.interrupt();
        for (const reply of this.#responses.all()) this.#responses.cancel(reply);
        return;
      case 'user_words':
        return this.#session?.sendUserText(effect.text);
      case 'tool_result':
        return this.#session?.sendFunctionOutput(effect.call.callId, effect.output, false);
      case 'workflow_tool_result':
        return this.#session?.sendFunctionOutput(effect.callId, effect.output, false);
      case 'steer':
        return this.#steer(effect.node);
      case 'drop_queued':
        return this.#responses.dropQueued();
      case 'cancel_own_reply':
        return this.#ownReply && this.#responses.cancel(this.#ownReply);
      case 'provider_interrupts':
        return this.#session?.setInterruptResponse(true);
      case 'cancel_reply':
      case 'stop_thinking':
      case 'think_ahead':
        // The provider answers the caller's turns itself: there is no reply of ours to supersede, and no guess.
        return;
    }
  }

  /** A workflow's transfer: the provider's conversation gets the call first, so a failed transfer's output answers it. */
  workflowTransfer(number: string | null): LiveCall {
    if (number) this.#d.context.transferNumber = number;
    const call = { callId: `workflow_transfer_${this.#d.now()}`, name: 'transfer', arguments: '{}' };
    this.#session?.sendFunctionCall(call);
    return call;
  }

  /**
   * Fixed words, word for word. When the response has played (or was cut, or dropped unsent), the
   * machine hears of it: the notice, the last words and a workflow's lines always; a turn of its
   * own only when nobody cut it (a barge-in is the caller's turn instead).
   */
  #say(kind: LineKind, text: string, options: { turn: boolean; first?: boolean; step?: boolean }): void {
    void this.#responses.request(kind, verbatim(text), { first: options.first ?? false }).then((reply) => {
      const cut = !reply || reply.cancelled || reply.status !== 'completed';
      const facts = this.facts();
      if (options.step) return this.machine.dispatch({ type: 'workflow_said', facts });
      if (options.turn && cut)
        return this.machine.dispatch({ type: 'reply_over', played: reply !== undefined && reply.utterances.length > 0, facts });
      const heard = reply !== undefined && reply.utterances.some(playedInFull);
      this.machine.dispatch({ type: 'said', kind, heard, cut, facts });
    });
  }

  onMark(name: string, afterClear: boolean): void {
    this.#playback.onMark(name, afterClear);
  }

  #onEvent(event: S2sEvent): void {
    switch (event.type) {
      case 'speech_started':
        this.#caller.started(event.itemId, this.#d.now());
        return this.machine.dispatch({ type: 'speech_started', facts: this.facts() });
      case 'speech_stopped':
        return this.#caller.stopped(event.itemId, this.#d.now());
      case 'caller_transcript':
        return this.#onCallerWords(event.itemId, event.text);
      case 'response_created':
        return this.#onResponseCreated(event.responseId, event.tag);
      case 'audio':
      case 'transcript_delta':
      case 'transcript_done':
        return this.#onOutput(event);
      case 'function_call':
        return void this.#responses
          .get(event.responseId)
          ?.calls.push({ callId: event.callId, name: event.name, arguments: event.arguments });
      case 'response_done':
        return this.#onResponseDone(event.responseId, event.status, event.usage);
      case 'error':
        if (event.fatal) return this.machine.dispatch({ type: 'fault', error: event.error, voiceLost: true });
        return this.#d.log.warn('call.live.provider_refused', { call_id: this.#d.context.call.id, error: event.error.message });
      case 'closed':
        if (this.machine.pendingReason === undefined)
          this.machine.dispatch({ type: 'fault', error: new Error('the speech-to-speech session closed'), voiceLost: true });
        return;
      case 'ready':
        return;
    }
  }

  #onCallerWords(itemId: string, text: string): void {
    const said = this.#caller.words(itemId, text);
    if (!said) return;
    this.machine.dispatch({
      type: 'caller_words',
      words: { text: text.trim(), startAt: said.startAt, endAt: said.endAt ?? this.#d.now() },
    });
  }

  #onResponseCreated(responseId: string, tag: string | undefined): void {
    const reply = this.#responses.created(responseId, tag);
    if (reply.requested) return;
    reply.turn = this.#caller.takeTurn();
    this.#ownReply = reply;
    this.machine.dispatch({ type: 'own_reply', facts: this.facts() });
    this.#ownReply = undefined;
    // A model reply answers through the same path as the ones we ask for.
    if (!reply.cancelled) reply.resolve = (settled) => this.#afterReply(settled);
  }

  #onOutput(event: Extract<S2sEvent, { type: 'audio' | 'transcript_delta' | 'transcript_done' }>): void {
    const reply = this.#responses.get(event.responseId);
    if (!reply || reply.cancelled) return; // audio still in flight after a barge-in or cancel
    const { utterance, created } = this.#playback.item(event.itemId, reply.kind);
    if (created) {
      reply.utterances.push(utterance);
      reply.items.push(event.itemId);
      this.machine.log.utterance(utterance);
    }
    if (event.type === 'transcript_delta') utterance.text += event.text;
    else if (event.type === 'transcript_done') utterance.text = event.text.trim();
    else {
      utterance.requestedAt ??= this.#d.now();
      this.#playback.audio(event.itemId, event.mulaw);
      const turn = reply.turn;
      if (turn && !turn.utterance) {
        turn.utterance = utterance;
        turn.llmFirstTokenMs = this.#d.now() - turn.endOfTurnAt;
        this.#d.counters.turns.push(turn);
      }
    }
  }

  #onResponseDone(responseId: string, status: string, usage: { input: number; output: number }): void {
    this.#d.counters.llmInput += usage.input;
    this.#d.counters.llmOutput += usage.output;
    const reply = this.#responses.get(responseId);
    if (reply) {
      reply.status = status;
      // The provider ended the notice early: what played is not the whole notice (it is asked again).
      if (reply.kind === 'notice' && status !== 'completed') for (const utterance of reply.utterances) utterance.interrupted = true;
      for (const itemId of reply.items) this.#playback.flush(itemId);
      void Promise.all(reply.utterances.map((u) => u.done)).then(() => this.#responses.settle(reply));
    }
    this.#responses.done(responseId);
  }

  /** A model reply has played to the end (or was cut): the machine acts on its tools and words. */
  #afterReply(reply: Reply): void {
    const facts = this.facts();
    if (reply.cancelled || reply.status !== 'completed') {
      return this.machine.dispatch({ type: 'reply_over', played: reply.utterances.length > 0, facts });
    }
    this.machine.replyDone(reply.utterances.map((u) => u.text).join(' '), reply.calls);
    // A collect's instructions list the fields still missing: values kept by a refused `next_step` change them.
    this.#steer();
  }

  /** Barge-in: clear the carrier, stop the response, truncate each item to what the caller heard. */
  #bargeIn(): void {
    const cut = this.#playback.interrupt();
    for (const reply of this.#responses.all())
      if (this.#responses.isActive(reply) || reply.utterances.some((u) => cut.some((c) => c.utterance === u)))
        this.#responses.cancel(reply);
    for (const item of cut) if (item.utterance.bytesReceived > 0) this.#session?.truncate(item.itemId, item.heardMs);
    if (cut.length === 0) return;
    if (cut.some((item) => heardText(item.utterance) !== '')) this.#d.counters.interruptions++;
    this.#d.log.info('call.barge_in', { call_id: this.#d.context.call.id, heard_ms: cut[0]!.heardMs });
  }

  /**
   * Gives the session the instructions and tools of the workflow's current node (or of `node`, just
   * entered: one event may pass several nodes, and each is steered in turn), when they changed.
   */
  #steer(node?: string): void {
    const rules = this.#d.workflow;
    const state = this.machine.state.workflow;
    if (!rules || !state) return;
    const steering = liveSteering(this.#d.context, rules.steering(node === undefined ? state : { ...state, node }));
    if (steering.key === this.#steered) return;
    this.#steered = steering.key;
    this.#session?.steer({ instructions: steering.instructions, tools: steering.tools });
  }

  /**
   * The caller hung up: their last turn ("Thanks, bye." just before the hang-up), finished or not,
   * is waited for until Realtime has transcribed it, at most {@link LAST_WORDS_WAIT_MS}, so it
   * reaches the transcript.
   */
  callerHungUp(): Promise<void> {
    // Still mid-turn: the provider's VAD ends a turn on silence in the audio, and the audio stopped; give it that silence.
    if (this.#caller.speaking) for (let i = 0; i < HANG_UP_SILENCE_FRAMES; i++) this.#session?.appendAudio(SILENT_FRAME);
    if (!this.#caller.awaitingWords && !this.#caller.speaking) return Promise.resolve();
    return new Promise<void>((resolve) => {
      let off: (() => void) | undefined;
      const timer = this.#d.timers.setTimeout(() => {
        off?.();
        resolve();
      }, LAST_WORDS_WAIT_MS);
      // Registered after the conversation's own listener: by now the words are in the transcript.
      off = this.#session?.on((event) => {
        if (event.type !== 'caller_transcript' || this.#caller.awaitingWords || this.#caller.speaking) return;
        this.#d.timers.clearTimeout(timer);
        off?.();
        resolve();
      });
    });
  }

  /** The call's run of its workflow (undefined without one). */
  workflow(): CallWorkflow | undefined {
    const { workflow } = this.machine.state;
    return workflow && this.#d.workflow?.view(workflow);
  }

  /** The model is OpenAI Realtime whatever the config names (its sandbox when the configured model is a sandbox). */
  modelLabel(configured: string): string {
    return isSandboxLabel(configured) ? sandboxLabel('openai-realtime') : 'openai-realtime';
  }

  /** Stops timers and closes the provider session (the session is tearing down). */
  close(): void {
    this.machine.close();
    this.#off?.();
    this.#abort.abort();
    this.#playback.close();
  }
}
