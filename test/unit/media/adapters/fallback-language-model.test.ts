import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FallbackLanguageModel } from '../../../../media-service/src/adapters/fallback-language-model';
import type { LanguageModel, LlmChunk, LlmRequest, LlmStream } from '../../../../media-service/src/ports/language-model';
import { ProviderError } from '../../../../shared/errors';

/**
 * The stall watch, on fake timers: one timer per stream that sleeps again while chunks come in
 * time. The model below keeps the port's contract (an abort rejects the pending chunk with the
 * signal's reason), as the real adapter does.
 */

const LIMITS = { firstChunkMs: 3500, gapMs: 1500 };

/** A model whose chunks arrive after the given waits (ms after the previous chunk was asked for). */
function scriptedModel(waits: readonly number[]): LanguageModel & { aborts: unknown[] } {
  const aborts: unknown[] = [];
  return {
    aborts,
    stream(request: LlmRequest): LlmStream {
      request.signal.addEventListener('abort', () => aborts.push(request.signal.reason), { once: true });
      return {
        firstTokenMs: undefined,
        serviceTier: undefined,
        async *[Symbol.asyncIterator](): AsyncIterator<LlmChunk> {
          for (const [index, wait] of waits.entries()) {
            await new Promise<void>((resolve, reject) => {
              const timer = setTimeout(resolve, wait);
              request.signal.addEventListener('abort', () => (clearTimeout(timer), reject(request.signal.reason)), { once: true });
            });
            yield { type: 'text', text: `w${index} ` };
          }
          yield { type: 'done', finishReason: 'stop' };
        },
      };
    },
  };
}

function request(): LlmRequest {
  return {
    model: 'm',
    messages: [{ role: 'user', content: 'hi' }],
    temperature: 0,
    maxTokens: 10,
    priority: false,
    race: false,
    signal: new AbortController().signal,
  };
}

/** Reads the stream to its end; `pauseMs` is the consumer's own time per chunk. */
async function read(model: LanguageModel, pauseMs = 0): Promise<{ texts: string[]; error?: unknown }> {
  const texts: string[] = [];
  try {
    for await (const chunk of model.stream(request())) {
      if (chunk.type === 'text') texts.push(chunk.text);
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
    return { texts };
  } catch (error) {
    return { texts, error };
  }
}

describe('FallbackLanguageModel stall watch', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  it('stalls when the first chunk takes longer than its limit, and aborts the request with the stall', async () => {
    const primary = scriptedModel([5000]);
    const faults: string[] = [];
    const model = new FallbackLanguageModel({ primary, stall: LIMITS, onFault: (kind) => faults.push(kind) });
    const reading = read(model);
    await vi.advanceTimersByTimeAsync(3499);
    expect(primary.aborts).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    const { texts, error } = await reading;
    expect(texts).toEqual([]);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toBe('The model sent nothing for 3500 ms before its first chunk (a stall).');
    expect((error as ProviderError).retryable).toBe(true);
    expect(primary.aborts).toEqual([error]);
    expect(faults).toEqual(['model_errors']);
  });

  it('stalls on a gap between chunks longer than its limit, counting from the last chunk', async () => {
    const primary = scriptedModel([100, 1400, 1600]);
    const reading = read(new FallbackLanguageModel({ primary, stall: LIMITS }));
    await vi.advanceTimersByTimeAsync(100 + 1400 + 1499);
    expect(primary.aborts).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    const { texts, error } = await reading;
    expect(texts).toEqual(['w0 ', 'w1 ']);
    expect((error as ProviderError).message).toBe('The model sent nothing for 1500 ms after 2 chunks (a stall).');
  });

  it('lets a long stream through whose every gap is within its limit', async () => {
    // 3.4 s to the first chunk, then 1.4 s gaps: 17.4 s in all, far past both limits, never a stall.
    const primary = scriptedModel([3400, ...Array<number>(10).fill(1400)]);
    const reading = read(new FallbackLanguageModel({ primary, stall: LIMITS }));
    await vi.advanceTimersByTimeAsync(3400 + 10 * 1400);
    const { texts, error } = await reading;
    expect(error).toBeUndefined();
    expect(texts).toHaveLength(11);
    expect(primary.aborts).toEqual([]);
  });

  it('does not count the time the consumer takes between chunks', async () => {
    const primary = scriptedModel([10, 10, 10]);
    const reading = read(new FallbackLanguageModel({ primary, stall: LIMITS }), 4000);
    await vi.advanceTimersByTimeAsync(4 * 4010);
    const { texts, error } = await reading;
    expect(error).toBeUndefined();
    expect(texts).toEqual(['w0 ', 'w1 ', 'w2 ']);
  });

  it('leaves no timer behind when the stream ends or the consumer stops early', async () => {
    await expect(
      (async () => {
        const reading = read(new FallbackLanguageModel({ primary: scriptedModel([10]), stall: LIMITS }));
        await vi.advanceTimersByTimeAsync(10);
        return reading;
      })(),
    ).resolves.toEqual({ texts: ['w0 '] });
    expect(vi.getTimerCount()).toBe(0);
    const model = new FallbackLanguageModel({ primary: scriptedModel([10, 10]), stall: LIMITS });
    const stopping = (async () => {
      for await (const chunk of model.stream(request())) if (chunk.type === 'text') break;
    })();
    await vi.advanceTimersByTimeAsync(10);
    await stopping;
    expect(vi.getTimerCount()).toBe(0);
  });
});
