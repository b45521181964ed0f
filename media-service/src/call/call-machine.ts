import type { AssistantConfig } from '../../../shared/domain/assistant-config';
import type { EndedReason, TranscriptEntry } from '../../../shared/domain/call';
import { noticesDue } from '../../../shared/domain/call-script';
import type { AnsweredBy } from '../ports/telephony';
import { callStart, reduceCall } from './rules/call';
import type { CallEffect, CallEvent, CallSettings, CallState, Facts, NamedCall, TimerName } from './rules/call-types';
import type { WorkflowRules } from './rules/workflow-slot';
import type { ConversationBaseDeps } from './session-types';
import { TimerSet } from './timer-set';
import { TranscriptLog } from './transcript-log';
import { transferCall } from './transfer';

/** The effects a conversation kind carries out with its own voice and model; the machine does the rest. */
export type VoiceEffect<Call extends NamedCall> = Exclude<
  CallEffect<Call>,
  {
    type:
      | 'arm'
      | 'cancel'
      | 'cancel_timers'
      | 'finish'
      | 'transcript'
      | 'provider_failed'
      | 'run_tools'
      | 'run_workflow_tool'
      | 'record_end_call'
      | 'transfer'
      | 'workflow_transfer'
      | 'workflow_log';
  }
>;

/**
 * A conversation kind as the call's executor: what it knows of its media now, and how it carries
 * out the effects that need its voice and model. `workflowTransfer` puts a workflow's transfer into
 * the model's context as a tool call (a failed transfer's result answers it) and returns that call.
 */
export interface CallVoice<Call extends NamedCall> {
  facts(): Facts;
  apply(effect: VoiceEffect<Call>): void;
  workflowTransfer(number: string | null): Call;
}

/** Whether each notice a call owed was heard in full (null: that notice was not due on this call). */
export interface NoticeOutcome {
  recording_notice_heard: boolean | null;
  ai_disclosure_heard: boolean | null;
}

/** A voicemail's notices were owed to nobody (docs/decisions.md "What a voicemail owes the law"). */
const NO_NOTICES: NoticeOutcome = { recording_notice_heard: null, ai_disclosure_heard: null };

/** What the call record keeps of the notices: `notice` the words due ('' for none), `heard` whether they were heard in full. */
export function noticeOutcome(config: AssistantConfig, notice: string, heard: boolean): NoticeOutcome {
  const due = notice === '' ? { recording: false, disclosure: false } : noticesDue(config);
  return { recording_notice_heard: due.recording ? heard : null, ai_disclosure_heard: due.disclosure ? heard : null };
}

/**
 * One call's rules at work (docs/design.md "The call engine"): holds the call's one
 * {@link CallState}, feeds each event to the reducer (`./rules/call.ts`) and carries out its
 * effects: the timers, the transcript, tools, transfers and the hang-up here, the rest through the
 * conversation's {@link CallVoice}. Both conversation kinds drive their call through one.
 */
export class CallMachine<Call extends NamedCall = NamedCall> {
  readonly #d: ConversationBaseDeps;
  readonly settings: CallSettings;
  #state: CallState;
  #voice: CallVoice<Call> | undefined;
  /** The call's named timers. */
  readonly timers: TimerSet;
  /** What each side said (docs/design.md "Resources"). */
  readonly log: TranscriptLog;
  readonly #finished: Promise<void>;
  #resolveFinished!: () => void;

  constructor(deps: ConversationBaseDeps, mode: CallSettings['mode'], workflow: WorkflowRules | undefined) {
    this.#d = deps;
    this.timers = new TimerSet(deps.timers);
    this.log = new TranscriptLog(deps.t0, deps.tap);
    this.settings = callSettings(deps, mode, workflow);
    this.#state = callStart(this.settings);
    this.#finished = new Promise((resolve) => (this.#resolveFinished = resolve));
  }

  /** The conversation that carries out the voice's effects (set once, before the first event). */
  attach(voice: CallVoice<Call>): void {
    this.#voice = voice;
  }

  get state(): CallState {
    return this.#state;
  }

  /** The reason the call is ending, once decided (a carrier `stop` then keeps it). */
  get pendingReason(): EndedReason | undefined {
    return this.#state.ending.reason;
  }

  /** What the conversation knows of its media now. */
  facts(): Facts {
    return this.#voice!.facts();
  }

  /**
   * Feeds one event and carries out its effects in order. An effect may feed another event at once
   * (nested): the state is stored first, so the nested event sees it.
   */
  dispatch(event: CallEvent<Call>): void {
    const step = reduceCall(this.settings, this.#state, event, this.#d.now());
    this.#state = step.state;
    for (const effect of step.effects) this.#carryOut(effect);
  }

  /** A reply played to the end: its text and tool calls. */
  replyDone(text: string, calls: readonly Call[]): void {
    const toolFiller = calls.length > 0 ? (this.#d.tools.fillerFor(calls) ?? '') : '';
    this.dispatch({ type: 'reply_done', text, calls, toolFiller, facts: this.facts() });
  }

  onDtmf(digit: string): void {
    this.dispatch({ type: 'digit', digit, facts: this.facts() });
  }

  onAmd(answeredBy: AnsweredBy): void {
    this.dispatch({ type: 'amd', answeredBy });
  }

  /** Ends the call (optional goodbye); resolves once the session was told to hang up (at once when the ending was already decided). */
  endCall(reason: EndedReason, options: { goodbye: boolean }): Promise<void> {
    if (this.pendingReason !== undefined) return Promise.resolve();
    this.dispatch({ type: 'end', reason, goodbye: options.goodbye });
    return this.#finished;
  }

  /** The transcript (docs/design.md "Resources"): what each side said, assistant text cut to what was heard. */
  transcript(): TranscriptEntry[] {
    return this.log.entries(this.#d.now());
  }

  /** Whether each notice due was heard in full; null on a voicemail, where nobody was there to hear it. */
  notices(): NoticeOutcome {
    if (this.pendingReason === 'voicemail') return NO_NOTICES;
    return noticeOutcome(this.#d.context.config, this.settings.notice, this.#state.notice.heard);
  }

  /** Stops every timer (the session is tearing down). */
  close(): void {
    this.timers.clear();
  }

  #carryOut(effect: CallEffect<Call>): void {
    const d = this.#d;
    switch (effect.type) {
      case 'arm':
        return this.timers.set(effect.timer, effect.ms, () => this.#timer(effect.timer));
      case 'cancel':
        return this.timers.cancel(effect.timer);
      case 'cancel_timers':
        return this.timers.clear(['transfer']);
      case 'finish':
        d.finish(effect.reason);
        return this.#resolveFinished();
      case 'transcript':
        if (effect.role === 'user') return this.log.user(effect.words.text, effect.words.startAt, effect.words.endAt);
        return this.log.tool(effect.line, d.now());
      case 'provider_failed':
        return d.log.error('call.provider.failed', { call_id: d.context.call.id, error: effect.error.message });
      case 'run_tools':
        return void this.#runTools(effect.calls);
      case 'run_workflow_tool':
        return void this.#runWorkflowTool(effect.name, effect.args);
      case 'record_end_call':
        return void d.tools.record(effect.call, { ok: true, result: 'call ended' }, d.now());
      case 'transfer':
        return void this.#transfer(effect.call);
      case 'workflow_log':
        if (effect.event === 'stuck')
          return d.log.info('call.workflow.stuck', { call_id: d.context.call.id, node: effect.node, to: effect.to ?? null });
        return d.log.warn('call.workflow.runaway', { call_id: d.context.call.id, node: effect.node });
      case 'workflow_transfer':
        return this.replyDone('', [this.#voice!.workflowTransfer(effect.number)]);
      default:
        return this.#voice!.apply(effect);
    }
  }

  #timer(name: TimerName): void {
    this.dispatch({ type: 'timer', name, facts: this.facts() });
  }

  /** Runs a reply's tools together; their results go back as one event. */
  async #runTools(calls: readonly Call[]): Promise<void> {
    const ran = await Promise.all(calls.map((call) => this.#d.tools.runWithLine(call)));
    this.dispatch({
      type: 'tools_done',
      calls,
      outputs: ran.map((r) => r.output),
      lines: ran.map((r) => r.line),
    });
  }

  /** A workflow's tool node: run on the call's runner, its line in the transcript, its output back to the run. */
  async #runWorkflowTool(name: string, args: string): Promise<void> {
    const { output, line } = await this.#d.tools.runWithLine({ name, arguments: args });
    this.log.tool(line, this.#d.now());
    const parsed = JSON.parse(output) as Record<string, unknown>;
    this.dispatch({ type: 'workflow_tool_done', ok: !Object.hasOwn(parsed, 'error'), output: parsed, facts: this.facts() });
  }

  /** Recorded first: the carrier may stop the stream (and the session record the call) before the redirect's reply. */
  async #transfer(call: Call): Promise<void> {
    const d = this.#d;
    this.log.tool(`transfer to ${d.context.transferNumber}`, d.now());
    const action = d.tools.record(call, { ok: true, result: 'transferred' }, d.now());
    if (await transferCall(d, this.timers)) return;
    if (action) Object.assign(action, { ok: false, result: '', error: 'The transfer failed.' });
    this.dispatch({ type: 'transfer_failed', call, facts: this.facts() });
  }
}

/** The rules' settings for this call, from its assistant's config and script, its direction and the session's tuning. */
function callSettings(deps: ConversationBaseDeps, mode: CallSettings['mode'], workflow: WorkflowRules | undefined): CallSettings {
  const { call, config, script } = deps.context;
  const { advanced } = config;
  const { tuning } = deps;
  const screen = call.direction === 'outbound' && advanced.voicemail_detection;
  const noticeOwed = noticesDue(config);
  return {
    mode,
    opening: {
      mode: config.first_message_mode,
      greetingDelayMs: advanced.greeting_delay_ms,
      greetAfterSilenceMs: advanced.greet_after_silence_s * 1000,
      screen,
      screenMs: Math.max(advanced.greeting_delay_ms, tuning.screenMs),
    },
    silence: { timeoutMs: advanced.silence_timeout_s * 1000, messages: script.idleMessages, max: advanced.idle_max },
    keypad: { enabled: advanced.keypad, idleMs: tuning.dtmfIdleMs, neverInterrupt: advanced.interruptions === 'never' },
    voicemail: { enabled: screen, message: script.voicemailMessage, quietMs: tuning.voicemailQuietMs },
    notice: noticeOwed.recording || noticeOwed.disclosure ? script.notice : '',
    greeting: { modelGenerated: config.first_message_mode === 'model_generated', text: script.firstMessage },
    interruptions: advanced.interruptions,
    interruptMinWords: advanced.interrupt_min_words,
    eager: config.transcriber.eager,
    endCallMessage: script.endCallMessage,
    safetyFallback: advanced.safety_fallback,
    fallbackLine: script.fallback,
    transferFailedLine: script.transferFailed,
    endCallPhrases: advanced.end_call_phrases,
    goodbyeMaxMs: tuning.goodbyeMaxMs,
    toolFillerAfterMs: tuning.toolFillerAfterMs,
    t0: deps.t0,
    workflow,
  };
}
