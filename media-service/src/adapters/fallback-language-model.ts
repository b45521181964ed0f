import { ProviderError } from '../../../shared/errors';
import type { LanguageModel, LlmChunk, LlmRequest, LlmStream } from '../ports/language-model';
import type { FaultListener } from '../ports/provider-faults';

/**
 * One call's model as the conversation sees it (docs/design.md "Provider faults"): the assistant's
 * model, watched for stalls, and `model.fallback` taking over for the rest of the call once the
 * primary fails with a 5xx, a 408 or 429, a connection error, a cut stream or a stall. A 4xx (a bad
 * key, a refused `custom_url`) is the business's to fix and is not hidden behind the fallback. With
 * no fallback (or when it fails too) the error reaches the conversation, whose failure path speaks
 * the safety line and ends the call `error`.
 *
 * A stall is a stream that sends nothing for {@link STALL_FIRST_CHUNK_MS} before its first chunk
 * or {@link STALL_GAP_MS} between two chunks; the stalled request is aborted.
 *
 * @example
 * ```ts
 * const model = new FallbackLanguageModel({ primary, fallback: { model: platform, name: 'gpt-4.1-mini' }, tag: callSid, onFault });
 * ```
 */

/**
 * 3.5 s before the first chunk: reasoning models can think for 2–3 s before the first token, and
 * the caller already hears a filler at 700 ms (`fillerAfterMs`), so the wait is not silent.
 */
export const STALL_FIRST_CHUNK_MS = 3500;

/**
 * 1.5 s between chunks: a streaming model sends tokens every 10–50 ms, so a 1.5 s gap is no slow
 * token; the safety line (or the fallback's first words) then starts within 2 s of the last word.
 */
export const STALL_GAP_MS = 1500;

/** Options of {@link FallbackLanguageModel}. */
export interface FallbackLanguageModelOptions {
  primary: LanguageModel;
  /** `model.fallback`, built: the client and the model name its requests carry. */
  fallback?: { model: LanguageModel; name: string };
  /** The call SID, put on every request (`LlmRequest.tag`; only a sandbox is sent it). */
  tag?: string;
  onFault?: FaultListener;
  /** Stall limits in ms (tests shorten them); default {@link STALL_FIRST_CHUNK_MS}, {@link STALL_GAP_MS}. */
  stall?: { firstChunkMs: number; gapMs: number };
}

/** Whether a failure is the provider's (worth the fallback) rather than the request's or the business's. */
export function isProviderOutage(error: unknown): boolean {
  // `retryable` is decided once (shared/errors.ts): 5xx, 408, 429 and network failures; a refused custom_url is not.
  return error instanceof ProviderError && error.retryable;
}

/** The model of one call: primary, watched, then the fallback for the rest of the call. */
export class FallbackLanguageModel implements LanguageModel {
  readonly #o: FallbackLanguageModelOptions;
  #failedOver = false;

  constructor(options: FallbackLanguageModelOptions) {
    this.#o = options;
  }

  stream(request: LlmRequest): LlmStream {
    return new WatchedStream(this, request);
  }

  /** Sends `request` to the model in use now (the fallback once the primary failed), watched for stalls. */
  open(request: LlmRequest): Watched {
    const fallback = this.#failedOver ? this.#o.fallback : undefined;
    const tagged = { ...request, ...(this.#o.tag !== undefined && { tag: this.#o.tag }), ...(fallback && { model: fallback.name }) };
    return new Watched(
      fallback?.model ?? this.#o.primary,
      tagged,
      this.#o.stall ?? { firstChunkMs: STALL_FIRST_CHUNK_MS, gapMs: STALL_GAP_MS },
    );
  }

  /** The model in use failed: true when the fallback takes over now (counted), false when the error stands (counted). */
  failOver(error: unknown): boolean {
    const fault = error instanceof Error ? error.message : String(error);
    if (!this.#failedOver && this.#o.fallback && isProviderOutage(error)) {
      this.#failedOver = true;
      this.#o.onFault?.('model_fallbacks', `${fault} The fallback ${this.#o.fallback.name} answers from now on.`);
      return true;
    }
    this.#o.onFault?.('model_errors', fault);
    return false;
  }
}

/**
 * One request's stream, with the stall watch and a controller to abort it when it stalls.
 *
 * The watch is one timer per stream, not one per chunk: each wait for a chunk only notes when it
 * began, and the timer, when it fires, either finds the wait over its limit or sleeps again for the
 * rest of it. While chunks flow it fires about once per limit (it was a timer and a promise race
 * per chunk, and a reply streams tens of chunks). A stall aborts the request with the stall's error, and the
 * model's iteration then rejects with it (`LlmRequest.signal`: "iteration then rejects with the
 * signal's reason"). Only the time spent waiting for the model counts, never the caller's.
 */
class Watched {
  readonly stream: LlmStream;
  readonly #controller = new AbortController();
  readonly #limits: { firstChunkMs: number; gapMs: number };
  readonly #turn: AbortSignal;
  #chunks = 0;
  /** When the wait for the next chunk began; `undefined` while no chunk is awaited. */
  #waitingSince: number | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** When the pending timer fires. */
  #timerAt = 0;
  #stall: ProviderError | undefined;

  constructor(model: LanguageModel, request: LlmRequest, limits: { firstChunkMs: number; gapMs: number }) {
    this.#limits = limits;
    this.#turn = request.signal;
    const forward = () => this.#controller.abort(request.signal.reason);
    if (request.signal.aborted) forward();
    else request.signal.addEventListener('abort', forward, { once: true });
    this.stream = model.stream({ ...request, signal: this.#controller.signal });
  }

  /** The chunks, each within its stall limit; a stall aborts the request and throws a retryable `ProviderError`. */
  async *chunks(): AsyncGenerator<LlmChunk> {
    const iterator = this.stream[Symbol.asyncIterator]();
    try {
      for (;;) {
        this.#wait();
        let next: IteratorResult<LlmChunk>;
        try {
          next = await iterator.next();
        } catch (error) {
          throw this.#stall ?? error;
        }
        this.#waitingSince = undefined;
        if (this.#stall) throw this.#stall;
        if (next.done) return;
        this.#chunks += 1;
        yield next.value;
      }
    } finally {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      void iterator.return?.();
    }
  }

  /** A wait for a chunk begins: noted, and the timer armed unless one is due by its limit already. */
  #wait(): void {
    const now = performance.now();
    this.#waitingSince = now;
    const ms = this.#limit();
    // Only the first gap after the first chunk finds a timer due later than its limit (3.5 s > 1.5 s).
    if (this.#timer !== undefined && this.#timerAt <= now + ms) return;
    clearTimeout(this.#timer);
    this.#arm(ms);
  }

  #arm(ms: number): void {
    this.#timerAt = performance.now() + ms;
    this.#timer = setTimeout(() => this.#check(), ms);
  }

  /** The limit of the wait in progress: before the first chunk, or between two. */
  #limit(): number {
    return this.#chunks === 0 ? this.#limits.firstChunkMs : this.#limits.gapMs;
  }

  /** The timer fired: a stall when the wait in progress is over its limit, else sleep for the rest of it. */
  #check(): void {
    this.#timer = undefined;
    if (this.#waitingSince === undefined || this.#stall) return; // the next wait arms it again
    const ms = this.#limit();
    const left = this.#waitingSince + ms - performance.now();
    if (left > 0) return this.#arm(Math.ceil(left));
    const where = this.#chunks === 0 ? 'before its first chunk' : `after ${this.#chunks} chunks`;
    this.#stall = new ProviderError('llm', `The model sent nothing for ${ms} ms ${where} (a stall).`, undefined, { retryable: true });
    if (!this.#turn.aborted) this.#controller.abort(this.#stall);
  }
}

/**
 * The stream the conversation iterates: the primary's chunks, and on a provider failure the
 * fallback's reply. Words the caller already heard are not said twice: while the fallback's reply
 * repeats them character for character it is skipped; from the first character that differs it is said.
 */
class WatchedStream implements LlmStream {
  readonly #owner: FallbackLanguageModel;
  readonly #request: LlmRequest;
  #current: Watched;

  constructor(owner: FallbackLanguageModel, request: LlmRequest) {
    this.#owner = owner;
    this.#request = request;
    this.#current = owner.open(request);
  }

  get firstTokenMs(): number | undefined {
    return this.#current.stream.firstTokenMs;
  }

  get serviceTier(): string | undefined {
    return this.#current.stream.serviceTier;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<LlmChunk> {
    let said = '';
    let toolCalled = false;
    try {
      for await (const chunk of this.#current.chunks()) {
        if (chunk.type === 'text') said += chunk.text;
        if (chunk.type === 'tool_call') toolCalled = true;
        yield chunk;
      }
      return;
    } catch (error) {
      // A turn the conversation cancelled is no fault; a reply whose tool calls were handed over cannot be redone.
      if (this.#request.signal.aborted || toolCalled || !this.#owner.failOver(error)) throw error;
    }
    this.#current = this.#owner.open(this.#request);
    let repeat = said;
    try {
      for await (const chunk of this.#current.chunks()) {
        if (chunk.type !== 'text' || repeat === '') {
          yield chunk;
          continue;
        }
        const same = commonPrefix(repeat, chunk.text);
        repeat = same === chunk.text.length ? repeat.slice(same) : '';
        if (same < chunk.text.length) yield { type: 'text', text: chunk.text.slice(same) };
      }
    } catch (error) {
      if (!this.#request.signal.aborted) this.#owner.failOver(error);
      throw error;
    }
  }
}

/** Length of the common start of two texts. */
function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}
