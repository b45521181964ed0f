/**
 * Streaming chat completion with tool calls, as one assistant turn needs it. Plain TS so the
 * pipeline never sees a vendor type; tool-call fragments are assembled by the adapter, so a
 * consumer only ever sees whole calls.
 */

/** A tool call the model made, with its arguments as the JSON text the model produced. */
export interface LlmToolCall {
  id: string;
  name: string;
  /** JSON text; parse (and validate) it before use, models can emit invalid JSON. */
  arguments: string;
}

/** One conversation message. */
export type LlmMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; toolCalls?: readonly LlmToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

/** A function the model may call, described by a JSON Schema for its arguments. */
export interface LlmToolDefinition {
  name: string;
  description: string;
  /** JSON Schema (an `object` schema) of the arguments. */
  parameters: Record<string, unknown>;
}

/** One completion request (one assistant turn). */
export interface LlmRequest {
  /** Provider model name, e.g. `gpt-4.1-mini`. */
  model: string;
  messages: readonly LlmMessage[];
  tools?: readonly LlmToolDefinition[];
  temperature: number;
  /** Upper bound on generated tokens. */
  maxTokens: number;
  /** Ask for the provider's priority tier (faster throughput, higher price). */
  priority: boolean;
  /** Hedge: start two identical requests, keep the one whose first token comes first. */
  race: boolean;
  /** Aborting stops generation; iteration then rejects with the signal's reason. */
  signal: AbortSignal;
  /** Request label (the call SID); only the sandbox is sent it, where a fault number's fault reads it. */
  tag?: string;
}

/** Why generation stopped. */
export type LlmFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'other';

/** One item of the stream. `done` is always last on success. */
export type LlmChunk =
  | { type: 'text'; text: string }
  | { type: 'tool_call'; call: LlmToolCall }
  | { type: 'usage'; input: number; output: number }
  | { type: 'done'; finishReason: LlmFinishReason };

/**
 * The response stream. Iterate once. Failures reject the iteration with a `ProviderError`
 * (or the abort reason when `signal` was aborted).
 */
export interface LlmStream extends AsyncIterable<LlmChunk> {
  /** Milliseconds from sending the request to the first text or tool-call token; `undefined` until then. */
  readonly firstTokenMs: number | undefined;
  /** The service tier the provider reports it used (may differ from the one asked for). */
  readonly serviceTier: string | undefined;
}

/** Streams completions. */
export interface LanguageModel {
  /**
   * Sends the request(s) at once (so an eager end-of-turn can start generation before the turn is
   * final) and returns the stream; chunks wait until iterated. Abort `signal` to discard it.
   */
  stream(request: LlmRequest): LlmStream;
}
