import type { LlmMessage, LlmRequest, LlmToolCall } from '../ports/language-model';
import type { CallContext } from './call-context';
import type { Utterance } from './speaker';
import { heardText } from './transcript-log';

/** One assistant message in the history, as the model gets it back. */
export type AssistantMessage = Extract<LlmMessage, { role: 'assistant' }>;

/** Asks the model to open the call when it writes the greeting (`model_generated`). */
const GREETING_CUE: LlmMessage[] = [{ role: 'system', content: 'The call has just connected. Greet the caller briefly.' }];

/**
 * The model's view of a standard call: the system prompt, then each side's words, with the
 * assistant's cut to what the caller heard after a barge-in (docs/protocols.md "Lessons from open-source voice pipelines").
 */
export class ChatHistory {
  readonly #context: CallContext;
  readonly #messages: LlmMessage[] = [];
  /** Adds what the call's current workflow node asks (its instructions, `next_step`); none without a workflow. */
  readonly #steer: ((request: LlmRequest) => LlmRequest) | undefined;

  constructor(context: CallContext, steer?: (request: LlmRequest) => LlmRequest) {
    this.#context = context;
    this.#steer = steer;
  }

  /** Appends a caller or assistant message. */
  push(message: LlmMessage): void {
    this.#messages.push(message);
  }

  /** What the assistant said in a reply (with the tools it called); returned so a barge-in can cut it. */
  said(utterance: Utterance, toolCalls: LlmToolCall[]): AssistantMessage {
    const message: AssistantMessage = {
      role: 'assistant',
      content: utterance.text === '' ? null : utterance.text,
      ...(toolCalls.length > 0 && { toolCalls }),
    };
    this.#messages.push(message);
    return message;
  }

  /**
   * A tool call's result (JSON text), for the model's next round: placed right after the assistant
   * message that called it (and its other results), so caller words that arrived while the tool
   * ran come after it, as the chat API requires.
   */
  toolResult(toolCallId: string, output: string): void {
    const caller = this.#messages.findIndex((m) => m.role === 'assistant' && m.toolCalls?.some((call) => call.id === toolCallId));
    let at = caller < 0 ? this.#messages.length : caller + 1;
    while (at < this.#messages.length && this.#messages[at]!.role === 'tool') at++;
    this.#messages.splice(at, 0, { role: 'tool', toolCallId, content: output });
  }

  /** Barge-in: `message` becomes what the caller heard of `utterance` (dropped when nothing was). */
  cutToHeard(message: AssistantMessage, utterance: Utterance): void {
    const index = this.#messages.indexOf(message);
    if (index < 0) return;
    const heard = heardText(utterance);
    if (heard === '') this.#messages.splice(index, 1);
    else this.#messages[index] = { role: 'assistant', content: heard };
  }

  /** A reply superseded before anyone heard it: gone from the history. */
  forget(message: AssistantMessage): void {
    const index = this.#messages.indexOf(message);
    if (index >= 0) this.#messages.splice(index, 1);
  }

  /** The model request for the next reply; `extra` messages go last (a greeting cue, an eager guess). */
  request(signal: AbortSignal, extra: readonly LlmMessage[] = []): LlmRequest {
    const { config, script, tools } = this.#context;
    const request: LlmRequest = {
      model: config.model.model,
      messages: [{ role: 'system', content: script.systemPrompt }, ...this.#messages, ...extra],
      ...(tools.length > 0 && { tools }),
      temperature: config.model.temperature,
      maxTokens: config.model.max_tokens,
      priority: config.model.priority,
      race: config.model.race,
      signal,
    };
    return this.#steer ? this.#steer(request) : request;
  }

  /** The request that asks the model to greet the caller. */
  greetingRequest(signal: AbortSignal): LlmRequest {
    return this.request(signal, GREETING_CUE);
  }
}
