import * as v from 'valibot';
import { issuesToItems } from '../../../shared/domain/validation-errors';
import { ACTION_LIMITS, clipActionText, recordedArguments, type ToolAction } from '../../../shared/domain/tool-action';
import type { Logger } from '../../../shared/log';
import type { SessionTimers } from '../call/session-types';
import type { FaultListener } from '../ports/provider-faults';
import { ToolFailureError, ToolRefusal, type RunnableTool, type ToolContext, type ToolResult } from './tool-types';

/** A tool call as a conversation reports it: the name and the model's JSON arguments. */
export interface RequestedTool {
  readonly name: string;
  readonly arguments: string;
}

/** What one call's tools need: the tools it offers, who the call is, the clock and timers. */
export interface ToolRunnerDeps {
  tools: readonly RunnableTool<any>[];
  context: Omit<ToolContext, 'signal' | 'invocation' | 'knownBookings'>;
  /** Monotonic clock, ms. */
  now: () => number;
  /** Clock ms of the call's start (`at_ms` is relative to it). */
  t0: number;
  timers: SessionTimers;
  log: Logger;
  /** Hears each tool timeout (the call counts them in `metrics.faults`). */
  onFault?: FaultListener;
  /** Told each action as it is recorded (a watched call: `../call/call-observer.ts`). */
  onRecord?: (action: ToolAction) => void;
}

/** An outcome of one call, before it is recorded. */
type Outcome = { ok: true; result: ToolResult } | { ok: false; error: string };

/**
 * Runs one call's built-in tools (docs/design.md "How a call runs tools") and keeps its `actions`: each call's
 * arguments are validated, the handler runs with a timeout and an abort signal (the call ending
 * aborts it too), and whatever happens the model gets an answer in plain words, never silence.
 * Errors are logged by kind only: arguments and results are call content.
 */
export class ToolRunner {
  readonly #d: ToolRunnerDeps;
  readonly #actions: ToolAction[] = [];
  readonly #closed = new AbortController();
  readonly #knownBookings = new Set<number>();
  #dropped = 0;
  #invocations = 0;

  constructor(deps: ToolRunnerDeps) {
    this.#d = deps;
  }

  /** Runs the tool a model asked for; resolves with the JSON text the model gets back (never rejects). */
  async run(call: RequestedTool): Promise<string> {
    return (await this.runWithLine(call)).output;
  }

  /**
   * {@link run}, with the call transcript's line for it: the tool's name and its short result
   * (ids, counts, yes/no), or that it failed; never its arguments.
   */
  async runWithLine(call: RequestedTool): Promise<{ output: string; line: string }> {
    const at = this.#d.now();
    const outcome = await this.#outcome(call);
    this.record(call, outcome.ok ? { ok: true, result: outcome.result.summary } : outcome, at);
    return {
      output: JSON.stringify(outcome.ok ? outcome.result.output : { error: outcome.error }),
      line: clipActionText(outcome.ok ? `${call.name}: ${outcome.result.summary}` : `${call.name} failed`),
    };
  }

  /**
   * Records a tool call (the engine's own `end_call` and `transfer` too); returns the entry, which
   * the caller may still correct (a transfer recorded before its outcome), or undefined when full.
   */
  record(call: RequestedTool, outcome: { ok: true; result: string } | { ok: false; error: string }, at: number): ToolAction | undefined {
    if (this.#actions.length >= ACTION_LIMITS.maxActions) {
      if (this.#dropped++ === 0)
        this.#d.log.warn('call.tool.actions_full', { call_id: this.#d.context.callId, max: ACTION_LIMITS.maxActions });
      return undefined;
    }
    const action: ToolAction = {
      name: clipActionText(call.name, 64),
      arguments: recordedArguments(call.arguments),
      ok: outcome.ok,
      result: outcome.ok ? clipActionText(outcome.result) : '',
      error: outcome.ok ? null : clipActionText(outcome.error),
      at_ms: Math.max(0, Math.round(at - this.#d.t0)),
      duration_ms: Math.max(0, Math.round(this.#d.now() - at)),
    };
    this.#actions.push(action);
    this.#d.onRecord?.(action);
    return action;
  }

  /** The call's tool calls so far, in order (at most `ACTION_LIMITS.maxActions`). */
  actions(): ToolAction[] {
    return this.#actions.map((action) => ({ ...action }));
  }

  /** The filler line to say while these calls run: the first one's own (a custom tool's), else undefined. */
  fillerFor(calls: readonly RequestedTool[]): string | undefined {
    for (const call of calls) {
      const filler = this.#d.tools.find((tool) => tool.definition.name === call.name)?.filler;
      if (filler) return filler;
    }
    return undefined;
  }

  /** The call is over: tools still running are aborted (and answer with their error). */
  close(): void {
    this.#closed.abort();
  }

  async #outcome(call: RequestedTool): Promise<Outcome> {
    const tool = this.#d.tools.find((candidate) => candidate.definition.name === call.name);
    if (!tool) return { ok: false, error: `The tool ${call.name} is not available on this call.` };
    const args = parseArguments(tool, call.arguments);
    if (!args.ok) return args;
    const controller = new AbortController();
    const abort = () => controller.abort();
    this.#closed.signal.addEventListener('abort', abort);
    let timer: unknown;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = this.#d.timers.setTimeout(() => resolve('timeout'), tool.timeoutMs)));
    try {
      const context = {
        ...this.#d.context,
        knownBookings: this.#knownBookings,
        signal: controller.signal,
        invocation: ++this.#invocations,
      };
      const result = await Promise.race([tool.execute(args.value, context), timedOut]);
      if (result !== 'timeout') return { ok: true, result };
      this.#d.log.warn('call.tool.timeout', { call_id: this.#d.context.callId, tool: tool.definition.name, timeout_ms: tool.timeoutMs });
      this.#d.onFault?.('tool_timeouts', `${tool.definition.name} ran past ${tool.timeoutMs} ms.`);
      return { ok: false, error: tool.unavailable };
    } catch (error) {
      if (error instanceof ToolRefusal) {
        this.#d.log.info('call.tool.refused', { call_id: this.#d.context.callId, tool: tool.definition.name });
        return { ok: false, error: error.message };
      }
      const failure = error instanceof ToolFailureError ? error : undefined;
      const kind = failure?.kind ?? (error instanceof Error ? error.name : typeof error);
      // A call that ended mid-tool is no failure of the tool's: noted, not raised as an error.
      if (kind === 'call_ended') this.#d.log.info('call.tool.cut_short', { call_id: this.#d.context.callId, tool: tool.definition.name });
      else this.#d.log.error('call.tool.failed', { call_id: this.#d.context.callId, tool: tool.definition.name, error: kind });
      return { ok: false, error: failure?.message ?? tool.unavailable };
    } finally {
      controller.abort();
      this.#d.timers.clearTimeout(timer);
      this.#closed.signal.removeEventListener('abort', abort);
    }
  }
}

/**
 * The longest arguments text a tool call may have (the longest built-in's, email_caller's, is under
 * 5,000). A model behind a business's own `custom_url` can send any length, and checking a huge
 * value against a schema (`uniqueItems` compares every pair) would hold the event loop every call
 * on the process shares.
 */
export const TOOL_ARGUMENTS_MAX_CHARS = 8192;

/** The model's JSON arguments, validated; invalid ones are described by field, never echoing the values. */
function parseArguments(tool: RunnableTool<any>, json: string): { ok: true; value: unknown } | { ok: false; error: string } {
  if (json.length > TOOL_ARGUMENTS_MAX_CHARS)
    return {
      ok: false,
      error: `The arguments were longer than ${TOOL_ARGUMENTS_MAX_CHARS} characters. Call the tool again with shorter ones.`,
    };
  let input: unknown;
  try {
    input = JSON.parse(json === '' ? '{}' : json);
  } catch {
    return { ok: false, error: 'The arguments were not valid JSON. Call the tool again with a JSON object.' };
  }
  const parsed = v.safeParse(tool.args, input, { abortPipeEarly: true });
  const problems = parsed.success
    ? [tool.checkArgs?.(parsed.output) ?? null].filter((problem) => problem !== null)
    : issuesToItems(parsed.issues, []).map((item) => `${item.loc.join('.') || 'arguments'}: ${item.msg}`);
  if (parsed.success && problems.length === 0) return { ok: true, value: parsed.output };
  return {
    ok: false,
    error: `The arguments were not valid (${problems.slice(0, 5).join('; ')}). Ask the caller, then call the tool again.`,
  };
}
