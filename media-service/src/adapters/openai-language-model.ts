import OpenAI, { APIError } from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { ProviderError } from '../../../shared/errors';
import { RedirectRefusedError, ResponseTooLargeError } from '../../../shared/security/pinned-fetch';
import { BlockedUrlError } from '../../../shared/security/ssrf';
import { ChatChunkReader } from './chat-chunk-reader';
import type { LanguageModel, LlmChunk, LlmFinishReason, LlmMessage, LlmRequest, LlmStream, LlmToolCall } from '../ports/language-model';

/**
 * OpenAI chat completions, streamed with tools (docs/protocols.md "OpenAI"), through the `openai` SDK with
 * `maxRetries: 0` (a hidden retry on the hot path costs seconds the caller hears; failures are
 * `ProviderError`s the session decides about).
 *
 * - The SDK builds, sends and checks each request (`.asResponse()`: HTTP errors are its `APIError`s);
 *   the SSE body is read by `ChatChunkReader`, one plain iterator instead of the SDK's five stacked
 *   async generators per token (the media thread's largest per-turn cost after the sockets).
 * - `stream_options.include_usage` for token accounting; `service_tier: "priority"` when asked
 *   (the response echoes the tier actually used, exposed as `serviceTier`).
 * - Token limit: `max_completion_tokens` for OpenAI (`max_tokens` is deprecated there and rejected
 *   by o-series/reasoning models); `max_tokens` for custom OpenAI-compatible servers, which
 *   widely accept it and often do not know the newer name.
 * - `race`: two identical requests; whichever yields its first token first is streamed and the
 *   other is aborted ("hedged requests", Dean & Barroso, The Tail at Scale). Both are billed.
 * - `provider: "custom"`: the same client against the business's `custom_url` and stored key,
 *   sending through the injected guarded `fetch` (`shared/security/pinned-fetch.ts`): every request
 *   is checked against SSRF and connected to the address the check approved, and redirects are
 *   refused. A refusal ends the turn with a non-retryable `ProviderError` that says why.
 */
export type OpenAiLanguageModelOptions = CommonOptions &
  (
    | {
        provider: 'openai';
        apiKey: string;
        /** Defaults to https://api.openai.com/v1; the sandbox's `baseUrl` in dev and tests. */ baseURL?: string;
      }
    | {
        provider: 'custom';
        /** The business's OpenAI-compatible base URL (`model.custom_url`). */
        customUrl: string;
        /** The business's stored key for it. */
        apiKey: string;
        /** The SSRF-guarded, address-pinned, redirect-refusing fetch every request goes through. */
        fetch: typeof fetch;
      }
  );

interface CommonOptions {
  /** Request timeout (default 30 s); a turn is normally bounded by its abort signal first. */
  timeoutMs?: number;
  /** Monotonic clock in ms, for `firstTokenMs` (injected by tests). */
  now?: () => number;
  /** Adds `?tag=<call SID>` (`LlmRequest.tag`) to each request so the sandbox knows the call; never set against the real API. */
  sendTag?: boolean;
}

/** One request read up to its first token. */
interface AttemptHead {
  /** Chunks up to and including the first token. */
  head: ChatCompletionChunk[];
  rest: AsyncIterator<ChatCompletionChunk>;
  firstAt: number;
}

/** The request that is streamed, with what cancels it. */
interface Attempt extends AttemptHead {
  controller: AbortController;
  /** Stops forwarding the turn's abort to this stream's requests. */
  release: () => void;
}

/** The chat-completions adapter; one instance per API key / base URL. */
export class OpenAiLanguageModel implements LanguageModel {
  readonly #client: OpenAI;
  readonly #options: OpenAiLanguageModelOptions;
  readonly #now: () => number;

  constructor(options: OpenAiLanguageModelOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => performance.now());
    this.#client = new OpenAI({
      apiKey: options.apiKey,
      baseURL: options.provider === 'custom' ? options.customUrl : (options.baseURL ?? 'https://api.openai.com/v1'),
      maxRetries: 0,
      timeout: options.timeoutMs ?? 30_000,
      logLevel: 'off',
      ...(options.provider === 'custom' && { fetch: options.fetch }),
    });
  }

  /** Sends the request(s) now and returns the stream of chunks. */
  stream(request: LlmRequest): LlmStream {
    const attempt = (signal: AbortSignal) => this.#attempt(request, signal);
    return new OpenAiStream(request, attempt, this.#providerName(), this.#now);
  }

  #providerName(): string {
    return this.#options.provider === 'custom' ? 'custom_llm' : 'openai';
  }

  #body(request: LlmRequest): ChatCompletionCreateParamsStreaming {
    const limit = this.#options.provider === 'custom' ? { max_tokens: request.maxTokens } : { max_completion_tokens: request.maxTokens };
    const tools = (request.tools ?? []).map((t) => ({
      type: 'function' as const,
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
    return {
      model: request.model,
      messages: request.messages.map(toWireMessage),
      stream: true,
      stream_options: { include_usage: true },
      temperature: request.temperature,
      ...limit,
      // Priority processing is OpenAI's; an OpenAI-compatible server may reject the field.
      ...(request.priority && this.#options.provider === 'openai' && { service_tier: 'priority' as const }),
      ...(tools.length > 0 && { tools }),
    };
  }

  /** One request, read up to its first token (or its end). */
  async #attempt(request: LlmRequest, signal: AbortSignal): Promise<AttemptHead> {
    const query = this.#options.sendTag && request.tag !== undefined ? { query: { tag: request.tag } } : {};
    const response = await this.#client.chat.completions.create(this.#body(request), { signal, ...query }).asResponse();
    if (!response.body)
      throw new ProviderError(this.#providerName(), 'The LLM answered a streaming request without a body.', response.status, {
        retryable: true,
      });
    const rest = new ChatChunkReader(response.body, this.#providerName());
    const head: ChatCompletionChunk[] = [];
    for (;;) {
      const next = await rest.next();
      if (next.done) break;
      head.push(next.value);
      if (isToken(next.value)) break;
    }
    return { head, rest, firstAt: this.#now() };
  }
}

/** The guarded fetch's refusal behind an SDK connection error (the SDK wraps what fetch throws as its `cause`). */
function guardRefusal(error: unknown): Error | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (e instanceof BlockedUrlError || e instanceof RedirectRefusedError || e instanceof ResponseTooLargeError) return e;
  }
  return undefined;
}

function isToken(c: ChatCompletionChunk): boolean {
  return c.choices.some((choice) => (choice.delta?.content ?? '') !== '' || (choice.delta?.tool_calls?.length ?? 0) > 0);
}

function toWireMessage(m: LlmMessage): ChatCompletionMessageParam {
  switch (m.role) {
    case 'system':
    case 'user':
      return { role: m.role, content: m.content };
    case 'tool':
      return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
    case 'assistant': {
      const calls = (m.toolCalls ?? []).map((c) => ({
        id: c.id,
        type: 'function' as const,
        function: { name: c.name, arguments: c.arguments },
      }));
      return { role: 'assistant', content: m.content, ...(calls.length > 0 && { tool_calls: calls }) };
    }
  }
}

class OpenAiStream implements LlmStream {
  firstTokenMs: number | undefined;
  serviceTier: string | undefined;
  readonly #request: LlmRequest;
  readonly #provider: string;
  readonly #opened: Promise<Attempt>;
  #consumed = false;

  constructor(request: LlmRequest, attempt: (signal: AbortSignal) => Promise<AttemptHead>, provider: string, now: () => number) {
    this.#request = request;
    this.#provider = provider;
    const startedAt = now();
    this.#opened = openAttempts(request, attempt).then((winner) => {
      this.firstTokenMs = Math.round(winner.firstAt - startedAt);
      return winner;
    });
    this.#opened.catch(() => undefined); // surfaced on iteration; never an unhandled rejection
  }

  async *[Symbol.asyncIterator](): AsyncIterator<LlmChunk> {
    if (this.#consumed) throw new Error('An LLM stream can be iterated only once.');
    this.#consumed = true;
    let attempt: Attempt | undefined;
    let complete = false;
    const assembler = new ChunkAssembler();
    try {
      attempt = await this.#opened;
      for (const c of attempt.head) yield* this.#translate(c, assembler);
      for (let next = await attempt.rest.next(); !next.done; next = await attempt.rest.next())
        yield* this.#translate(next.value, assembler);
      this.#request.signal.throwIfAborted();
      yield* assembler.finish(this.#provider);
      complete = true;
    } catch (error) {
      throw this.#mapError(error);
    } finally {
      // A response read to its end needs no abort; one left early (error, consumer stopped) is cancelled.
      if (!complete) attempt?.controller.abort(STOPPED);
      attempt?.release();
    }
  }

  *#translate(c: ChatCompletionChunk, assembler: ChunkAssembler): Generator<LlmChunk> {
    if (c.service_tier) this.serviceTier = c.service_tier;
    yield* assembler.push(c);
  }

  #mapError(error: unknown): unknown {
    if (this.#request.signal.aborted) return this.#request.signal.reason;
    if (error instanceof ProviderError) return error;
    if (error instanceof AggregateError) return this.#mapError(error.errors[0]);
    const refused = guardRefusal(error);
    if (refused)
      return new ProviderError(this.#provider, `custom_url refused: ${refused.message}`, undefined, { retryable: false, cause: refused });
    if (error instanceof APIError) return new ProviderError(this.#provider, error.message, error.status, { cause: error });
    const message = error instanceof Error ? error.message : String(error);
    return new ProviderError(this.#provider, `LLM stream failed: ${message}`, undefined, { retryable: true, cause: error });
  }
}

/**
 * Abort reasons made once: `abort()` without a reason builds a new DOMException with a stack trace,
 * and every raced turn aborts at least one request on the media thread.
 */
const RACE_LOST = new Error('The other raced request answered first.');
const STOPPED = new Error('The LLM stream was left before its end.');

/**
 * Starts one request, or two raced ones; the loser of a race is aborted as soon as the winner is
 * known. The turn's signal reaches every request through one listener (not `AbortSignal.any`, which
 * costs a composite signal per request); the winner's `release` removes it once the stream is done.
 */
async function openAttempts(request: LlmRequest, attempt: (signal: AbortSignal) => Promise<AttemptHead>): Promise<Attempt> {
  const controllers = Array.from({ length: request.race ? 2 : 1 }, () => new AbortController());
  const turn = request.signal;
  const cancelAll = () => controllers.forEach((c) => c.abort(turn.reason));
  const release = () => turn.removeEventListener('abort', cancelAll);
  if (turn.aborted) cancelAll();
  else turn.addEventListener('abort', cancelAll, { once: true });
  const attempts = controllers.map(async (controller) => ({ ...(await attempt(controller.signal)), controller, release }));
  try {
    const winner = await Promise.any(attempts);
    for (const c of controllers) if (c !== winner.controller) c.abort(RACE_LOST);
    return winner;
  } catch (error) {
    release();
    for (const c of controllers) c.abort(STOPPED);
    throw error;
  }
}

/** Assembles streamed tool-call fragments and holds `done` until usage has arrived. */
class ChunkAssembler {
  readonly #calls = new Map<number, LlmToolCall>();
  #finish: string | undefined;

  *push(c: ChatCompletionChunk): Generator<LlmChunk> {
    if (c.usage) yield { type: 'usage', input: c.usage.prompt_tokens, output: c.usage.completion_tokens };
    const choice = c.choices[0];
    if (!choice) return;
    const text = choice.delta?.content;
    if (text) yield { type: 'text', text };
    for (const fragment of choice.delta?.tool_calls ?? []) {
      const call = this.#calls.get(fragment.index) ?? { id: '', name: '', arguments: '' };
      if (fragment.id) call.id = fragment.id;
      if (fragment.function?.name) call.name += fragment.function.name;
      if (fragment.function?.arguments) call.arguments += fragment.function.arguments;
      this.#calls.set(fragment.index, call);
    }
    if (choice.finish_reason) {
      this.#finish = choice.finish_reason;
      yield* this.#flushCalls();
    }
  }

  /** At the end of the stream: `done`, or an error when the stream stopped before a finish reason. */
  *finish(provider: string): Generator<LlmChunk> {
    if (this.#finish === undefined) {
      throw new ProviderError(provider, 'The LLM stream ended before a finish reason (cut mid-way).', undefined, { retryable: true });
    }
    yield { type: 'done', finishReason: finishReason(this.#finish) };
  }

  *#flushCalls(): Generator<LlmChunk> {
    const ordered = [...this.#calls.entries()].sort(([a], [b]) => a - b);
    for (const [index, call] of ordered) yield { type: 'tool_call', call: { ...call, id: call.id || `call_${index}` } };
    this.#calls.clear();
  }
}

function finishReason(raw: string): LlmFinishReason {
  if (raw === 'function_call') return 'tool_calls';
  return raw === 'stop' || raw === 'length' || raw === 'tool_calls' || raw === 'content_filter' ? raw : 'other';
}
