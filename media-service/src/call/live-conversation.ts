import { splitGreeting } from '../../../shared/domain/call-script';
import type { S2sEvent, S2sSession, SpeechToSpeech } from '../ports/speech-to-speech';
import { CallPolicy } from './call-policy';
import type { CallerAudio } from './caller-audio';
import { LiveCaller } from './live-caller';
import { LivePlayback, type PlaybackPacer } from './live-playback';
import { LiveResponses, verbatim, type Reply } from './live-responses';
import { PolicyDriver } from './policy-driver';
import type { ConversationBaseDeps, ConversationDriver } from './session-types';
import { isSandboxLabel, sandboxLabel } from './call-metrics';
import type { UtteranceKind } from './speaker';
import { heardText } from './transcript-log';
import { words } from './turn-taking';
import type { CallWorkflow } from '../../../shared/domain/workflow';
import { liveWorkflow, type LiveWorkflow } from './live-workflow';

export { verbatim } from './live-responses';

/** What a live conversation needs from its session. */
export interface LiveConversationDeps extends ConversationBaseDeps {
  realtime: SpeechToSpeech;
  pacer: PlaybackPacer;
  callerAudio: CallerAudio;
}

/** A tool call of a live reply. */
type LiveCall = Reply['calls'][number];

/**
 * The live-mode conversation of one call (docs/design.md "Live mode"): one speech-to-speech session hears the caller
 * and answers in its own voice. We keep what the provider cannot: greeting per
 * `first_message_mode`, paced playback with marks, barge-in (clear, cancel, truncate to what was
 * heard), transcript, metrics, the `end_call`/`transfer` tools, end phrases, silence and idle
 * messages (the shared rules are the {@link CallPolicy}'s). `interrupt_min_words` does not apply:
 * Realtime gives no words before speech stops.
 */
export class LiveConversation extends PolicyDriver<LiveCall> implements ConversationDriver {
  readonly #d: LiveConversationDeps;
  protected readonly policy: CallPolicy<LiveCall>;
  readonly #playback: LivePlayback;
  readonly #abort = new AbortController();
  readonly #responses = new LiveResponses(() => this.#session);
  readonly #caller = new LiveCaller();
  #off: (() => void) | undefined;
  #session: S2sSession | undefined;
  #greetingDone = false;
  /** The greeting's question, said after the notice unless the caller talked over it (then they are answered instead). */
  #question = '';
  /** The provider's own barge-in is off until the notice is heard (then back per `interruptions`). */
  #providerInterrupts = false;
  /** The assistant's workflow, when it has one (docs/design.md "Workflows"). */
  readonly #flow: LiveWorkflow | undefined;

  constructor(deps: LiveConversationDeps) {
    super();
    this.#d = deps;
    this.#playback = new LivePlayback(deps.pacer, deps.now);
    this.policy = new CallPolicy<LiveCall>(deps, {
      silenceAssistant: () => this.#silence(),
      stopThinking: () => undefined,
      say: (kind, text) => this.#responses.request(kind, verbatim(text)),
      sayIdle: (text) => void this.#request('idle', verbatim(text)),
      busy: () => this.#responses.busy || this.#playback.audible || this.#caller.speaking,
      audible: () => this.#playback.audible,
      bargeIn: () => this.#bargeIn(),
      answerKeypad: (text) => {
        this.#session?.sendUserText(text);
        void this.#request('reply');
      },
      toolResult: (call, output) => this.#session?.sendFunctionOutput(call.callId, output, false),
      sayFiller: (text) => void this.#request('filler', verbatim(text)),
      replyAgain: () => void this.#request('reply'),
      sayReply: (text) => void this.#request('reply', verbatim(text)),
    });
    this.#flow = liveWorkflow({
      deps,
      policy: () => this.policy,
      session: () => this.#session,
      callerSpeaking: () => this.#caller.speaking,
      request: (kind, instructions) => this.#request(kind, instructions),
      cancel: (reply) => this.#responses.cancel(reply),
    });
  }

  /**
   * Opens the provider session (the caller's early audio replayed first) and starts the call per
   * `first_message_mode` and `greeting_delay_ms`.
   */
  start(): void {
    const { context, callSid } = this.#d;
    const { config } = context;
    this.#providerInterrupts = config.advanced.interruptions !== 'never' && !this.policy.notice.due;
    const session = this.#d.realtime.open({
      instructions: context.script.systemPrompt,
      voice: config.live_voice,
      tools: context.tools,
      language: config.language,
      speed: config.voice.speed,
      interruptResponse: this.#providerInterrupts,
      tag: callSid,
      signal: this.#abort.signal,
    });
    this.#session = session;
    this.#flow?.steer();
    this.#d.callerAudio.attach((frame) => session.appendAudio(frame));
    this.#off = session.on((event) => this.#onEvent(event));
    this.policy.open(() => this.#greet());
  }

  /** The opening decided to greet (`./rules/opening.ts`). */
  #greet(): void {
    if (this.policy.pendingReason) return;
    if (this.#flow?.open()) return;
    const first = this.#d.context.script.firstMessage;
    if (this.#d.context.config.first_message_mode === 'model_generated' || first === '') return void this.#request('greeting');
    if (!this.policy.notice.due) return void this.#request('greeting', verbatim(first));
    const { lead, question } = splitGreeting(first);
    this.#requestNotice(lead);
    // Asked for once the notice has played, not now: the provider generates faster than it plays,
    // so a question asked now would be on its way before a caller who talks over the notice.
    this.#question = question;
  }

  /** Asks for a response of ours; a notice still due goes first (greetings, replies, idle messages). */
  #request(kind: UtteranceKind, instructions?: string): Promise<void> {
    if (this.policy.notice.due) this.#requestNotice();
    return this.#responses.request(kind, instructions);
  }

  /**
   * Asks for the notice, after `lead` (the greeting's words before its question), word for word.
   * `first`: ahead of what is already waiting (said again after the provider cut it).
   */
  #requestNotice(lead = '', options: { first?: boolean } = {}): void {
    const { notice } = this.policy;
    notice.requested();
    void this.#responses.request('notice', verbatim(lead === '' ? notice.text : `${lead} ${notice.text}`), options);
  }

  onMark(name: string, afterClear: boolean): void {
    this.#playback.onMark(name, afterClear);
  }

  #onEvent(event: S2sEvent): void {
    switch (event.type) {
      case 'speech_started':
        return this.#onSpeechStarted(event.itemId);
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
        if (event.fatal) return this.policy.fail(event.error, { voiceLost: true });
        return this.#d.log.warn('call.live.provider_refused', { call_id: this.#d.context.call.id, error: event.error.message });
      case 'closed':
        if (this.policy.pendingReason === undefined)
          this.policy.fail(new Error('the speech-to-speech session closed'), { voiceLost: true });
        return;
      case 'ready':
        return;
    }
  }

  #onSpeechStarted(itemId: string): void {
    this.#caller.started(itemId, this.#d.now());
    this.policy.cancelSilence();
    this.policy.opening({ type: 'speech_started' });
    // The provider answers a turn on its own: a caller who speaks before the greeting is answered by
    // it, so the opening is over, unless it is still listening for a machine.
    if (!this.policy.openingScreening) this.policy.opening({ type: 'caller_turn', machine: false, words: 1 });
    if (this.policy.pendingReason !== undefined) return;
    // Words over the notice (whatever `interruptions` says): it plays on, our next requests (the
    // greeting's question) are dropped, and the provider's own reply answers the caller once it ends.
    if (this.policy.notice.playing) {
      this.#question = '';
      return this.#responses.dropQueued();
    }
    const { interruptions } = this.#d.context.config.advanced;
    const allowed = interruptions === 'anytime' || (interruptions === 'after_greeting' && this.#greetingDone);
    if (allowed && this.#playback.audible) this.#bargeIn();
  }

  #onCallerWords(itemId: string, text: string): void {
    const said = this.#caller.words(itemId, text);
    if (!said) return;
    this.policy.log.user(text.trim(), said.startAt, said.endAt ?? this.#d.now());
    const machine = this.policy.voicemail.onCallerTurn(text, this.policy.log.userTurns);
    this.policy.opening({ type: 'caller_turn', machine, words: words(text).length });
    if (!machine) this.policy.callerSpoke();
  }

  #onResponseCreated(responseId: string, tag: string | undefined): void {
    this.policy.cancelSilence();
    const reply = this.#responses.created(responseId, tag);
    if (reply.requested) return;
    reply.turn = this.#caller.takeTurn();
    // A reply the provider started on its own while we end the call would talk over the goodbye; one
    // while an outbound call still listens for a machine would talk over it.
    if (this.policy.pendingReason !== undefined || this.policy.openingScreening) return this.#responses.cancel(reply);
    if (this.#flow?.callerTurn(reply)) return;
    // Nor may it speak before the notice: it is asked again, behind the notice.
    if (this.policy.notice.due) {
      this.#responses.cancel(reply);
      void this.#request('reply');
    }
  }

  #onOutput(event: Extract<S2sEvent, { type: 'audio' | 'transcript_delta' | 'transcript_done' }>): void {
    const reply = this.#responses.get(event.responseId);
    if (!reply || reply.cancelled) return; // audio still in flight after a barge-in or cancel
    const { utterance, created } = this.#playback.item(event.itemId, reply.kind);
    if (created) {
      reply.utterances.push(utterance);
      reply.items.push(event.itemId);
      this.policy.log.utterance(utterance);
      if (reply.kind === 'notice') this.policy.notice.saying(utterance);
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
      if (reply.kind === 'notice' && reply.utterances.length === 0) this.policy.notice.dropped();
      if (reply.kind === 'notice' && status !== 'completed') this.#noticeCut(reply);
      for (const itemId of reply.items) this.#playback.flush(itemId);
      void Promise.all(reply.utterances.map((u) => u.done)).then(() => this.#afterReply(reply, status));
    }
    this.#responses.done(responseId);
  }

  /** The provider ended the notice early (failed, incomplete): what played is not the whole notice, and it is asked again first. */
  #noticeCut(reply: Reply): void {
    for (const utterance of reply.utterances) utterance.interrupted = true;
    if (this.policy.pendingReason === undefined && !reply.cancelled) this.#requestNotice('', { first: true });
  }

  /**
   * The notice has played: the provider's barge-in comes back. Words said over it were already
   * given to the provider, whose own reply answers them (our unsent requests were dropped then).
   */
  #afterNotice(): void {
    const { notice } = this.policy;
    if (notice.playing) return;
    const question = this.#question;
    this.#question = '';
    if (question !== '' && this.policy.pendingReason === undefined) void this.#request('greeting', verbatim(question));
    if (notice.heard && !this.#providerInterrupts && this.#d.context.config.advanced.interruptions !== 'never') {
      this.#providerInterrupts = true;
      this.#session?.setInterruptResponse(true);
    }
  }

  /** A reply has played to the end (or was cut): act on its tools, end phrases, or wait for the caller. */
  #afterReply(reply: Reply, status: string): void {
    this.#responses.settle(reply);
    if (reply.kind === 'notice') this.#afterNotice();
    if (reply.utterances.length > 0) this.#greetingDone = true;
    if (this.policy.pendingReason !== undefined || reply.cancelled || status !== 'completed') return;
    if (this.#flow?.afterReply(reply)) return;
    const text = reply.utterances.map((u) => u.text).join(' ');
    if (this.policy.afterReply(text, reply.calls)) return;
    this.policy.armSilence();
  }

  /** Barge-in: clear the carrier, stop the response, truncate each item to what the caller heard. Never during the notice. */
  #bargeIn(): void {
    if (this.policy.notice.playing) return;
    const cut = this.#playback.interrupt();
    for (const reply of this.#responses.all())
      if (this.#responses.isActive(reply) || reply.utterances.some((u) => cut.some((c) => c.utterance === u)))
        this.#responses.cancel(reply);
    for (const item of cut) if (item.utterance.bytesReceived > 0) this.#session?.truncate(item.itemId, item.heardMs);
    if (cut.length === 0) return;
    if (cut.some((item) => heardText(item.utterance) !== '')) this.#d.counters.interruptions++;
    this.#greetingDone = true;
    this.#d.log.info('call.barge_in', { call_id: this.#d.context.call.id, heard_ms: cut[0]!.heardMs });
  }

  /** Nothing to wait for: Realtime's transcription of the caller's last words arrives on its own. */
  callerHungUp(): Promise<void> {
    return Promise.resolve();
  }

  /** The call's run of its workflow (undefined without one). */
  workflow(): CallWorkflow | undefined {
    return this.#flow?.view();
  }

  /** The model is OpenAI Realtime whatever the config names (its sandbox when the configured model is a sandbox). */
  modelLabel(configured: string): string {
    return isSandboxLabel(configured) ? sandboxLabel('openai-realtime') : 'openai-realtime';
  }

  /** Stops timers and closes the provider session (the session is tearing down). */
  close(): void {
    this.policy.close();
    this.#off?.();
    this.#abort.abort();
    this.#playback.close();
  }

  #silence(): void {
    this.#playback.interrupt();
    for (const reply of this.#responses.all()) this.#responses.cancel(reply);
  }
}
