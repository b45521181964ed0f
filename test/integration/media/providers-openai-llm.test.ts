import { getEventListeners } from 'node:events';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ProviderError } from '../../../shared/errors';
import { pinnedFetch } from '../../../shared/security/pinned-fetch';
import { OpenAiLanguageModel } from '../../../media-service/src/adapters/openai-language-model';
import type { LlmChunk, LlmRequest } from '../../../media-service/src/ports/language-model';
import { OpenAiSandboxServer } from '../../../media-service/src/sandbox/openai-server';
import { SANDBOX_OPENAI_API_KEY } from '../../../media-service/src/sandbox/openai-auth';

/**
 * The real chat-completions adapter (through the real openai SDK) against the sandbox OpenAI
 * server on loopback. ajv (present through @seriousme/openapi-schema-validator) checks the
 * json_schema answers independently of the sandbox's own generator.
 */

let openai: OpenAiSandboxServer;

beforeAll(async () => {
  openai = await OpenAiSandboxServer.start({ ttftMs: 40, tokenIntervalMs: 2 });
});

afterAll(async () => {
  await openai.close();
});

function llm() {
  return new OpenAiLanguageModel({ provider: 'openai', apiKey: SANDBOX_OPENAI_API_KEY, baseURL: openai.baseUrl });
}

function request(extra: Partial<LlmRequest> = {}): LlmRequest {
  return {
    model: 'gpt-4.1-mini',
    messages: [
      { role: 'system', content: 'You are the receptionist of Acme Dental.' },
      { role: 'user', content: 'What are your opening hours?' },
    ],
    temperature: 0.4,
    maxTokens: 300,
    priority: false,
    race: false,
    signal: new AbortController().signal,
    ...extra,
  };
}

async function drain(stream: AsyncIterable<LlmChunk>): Promise<LlmChunk[]> {
  const chunks: LlmChunk[] = [];
  for await (const c of stream) chunks.push(c);
  return chunks;
}

function text(chunks: LlmChunk[]): string {
  return chunks.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

describe('OpenAiLanguageModel against the sandbox chat completions', () => {
  it('streams text deltas, then usage, then done; measures the first token; sends the documented body', async () => {
    // Arrange
    const before = openai.requests.length;
    // Act
    const stream = llm().stream(request());
    const chunks = await drain(stream);
    // Assert
    expect(text(chunks)).toBe("We're open Monday through Friday from nine to five, and Saturday mornings until noon.");
    expect(chunks.filter((c) => c.type === 'text').length).toBeGreaterThan(5);
    const textChunks = chunks.filter((c) => c.type === 'text').length;
    expect(chunks.slice(-2)).toEqual([
      { type: 'usage', input: expect.any(Number), output: textChunks },
      { type: 'done', finishReason: 'stop' },
    ]);
    expect(stream.firstTokenMs).toBeGreaterThanOrEqual(35);
    expect(stream.serviceTier).toBe('default');
    expect(openai.requests).toHaveLength(before + 1);
    const seen = openai.requests.at(-1)!;
    expect(seen.authorization).toBe(`Bearer ${SANDBOX_OPENAI_API_KEY}`);
    expect(seen.body).toMatchObject({
      model: 'gpt-4.1-mini',
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.4,
      max_completion_tokens: 300,
    });
    expect(seen.body).not.toHaveProperty('service_tier');
    expect(seen.body).not.toHaveProperty('max_tokens');
  });

  it('assembles streamed tool-call fragments into whole calls and maps history with tool calls', async () => {
    // Arrange
    openai.script.enqueue({
      toolCalls: [
        { name: 'book_appointment', arguments: '{"day":"Tuesday","time":"10:00","service":"cleaning"}' },
        { name: 'send_sms', arguments: '{"to":"+15550100002"}' },
      ],
    });
    const messages: LlmRequest['messages'] = [
      { role: 'user', content: 'Where is my order?' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'lookup_order', arguments: '{"id":7}' }] },
      { role: 'tool', toolCallId: 'call_1', content: '{"status":"shipped"}' },
      { role: 'user', content: 'Book me in for Tuesday.' },
    ];
    const tools = [
      { name: 'book_appointment', description: 'Books a visit.', parameters: { type: 'object', properties: { day: { type: 'string' } } } },
    ];
    // Act
    const chunks = await drain(llm().stream(request({ messages, tools })));
    // Assert
    expect(chunks.filter((c) => c.type === 'tool_call')).toEqual([
      {
        type: 'tool_call',
        call: {
          id: expect.stringMatching(/^call_/),
          name: 'book_appointment',
          arguments: '{"day":"Tuesday","time":"10:00","service":"cleaning"}',
        },
      },
      { type: 'tool_call', call: { id: expect.stringMatching(/^call_/), name: 'send_sms', arguments: '{"to":"+15550100002"}' } },
    ]);
    expect(chunks.at(-1)).toEqual({ type: 'done', finishReason: 'tool_calls' });
    const body = openai.requests.at(-1)!.body as { messages: unknown[]; tools: unknown[] };
    expect(body.messages[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup_order', arguments: '{"id":7}' } }],
    });
    expect(body.messages[2]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: '{"status":"shipped"}' });
    expect(body.tools).toEqual([{ type: 'function', function: tools[0] }]);
  });

  it('says goodbye and calls end_call when the caller says goodbye and the tool is offered', async () => {
    // Arrange
    const tools = [
      { name: 'end_call', description: 'Ends the call.', parameters: { type: 'object', properties: {}, additionalProperties: false } },
    ];
    // Act
    const chunks = await drain(llm().stream(request({ messages: [{ role: 'user', content: "No, that's all, goodbye." }], tools })));
    // Assert
    expect(text(chunks)).toBe('Thank you for calling. Have a great day, goodbye!');
    expect(chunks.find((c) => c.type === 'tool_call')).toMatchObject({ call: { name: 'end_call', arguments: '{}' } });
  });

  it('race: sends two identical requests, streams the faster one and aborts the other', async () => {
    // Arrange
    const first = openai.requests.length;
    openai.setTiming({ ttftMs: (r) => ((r.index - first) % 2 === 0 ? 600 : 30) });
    // Act
    const stream = llm().stream(request({ race: true }));
    const chunks = await drain(stream);
    openai.setTiming({ ttftMs: 40 });
    // Assert
    const pair = openai.requests.slice(first);
    expect(pair).toHaveLength(2);
    expect(pair[0]!.body).toEqual(pair[1]!.body);
    expect(text(chunks)).toContain('Monday through Friday');
    expect(stream.firstTokenMs).toBeLessThan(500);
    await vi.waitFor(() => expect(pair.map((r) => r.closedEarly).sort()).toEqual([false, true]));
    expect(pair.find((r) => !r.closedEarly)!.completed).toBe(true);
  });

  it('race: aborting the turn before either request answers cancels both', async () => {
    // Arrange
    const first = openai.requests.length;
    openai.setTiming({ ttftMs: 5000 });
    const controller = new AbortController();
    const stream = llm().stream(request({ race: true, signal: controller.signal }));
    await vi.waitFor(() => expect(openai.requests.length - first).toBe(2));
    // Act
    controller.abort(new Error('barge-in'));
    const error = await drain(stream).catch((e: unknown) => e);
    openai.setTiming({ ttftMs: 40 });
    // Assert
    expect(error).toEqual(new Error('barge-in'));
    await vi.waitFor(() => expect(openai.requests.slice(first).map((r) => r.closedEarly)).toEqual([true, true]));
  });

  it('a raced stream read to its end leaves no listener on the turn signal', async () => {
    // Arrange
    const signal = new AbortController().signal;
    // Act
    const chunks = await drain(llm().stream(request({ race: true, signal })));
    // Assert
    expect(chunks.at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('priority: sends service_tier "priority" and reports the echoed tier', async () => {
    // Act
    const stream = llm().stream(request({ priority: true }));
    await drain(stream);
    // Assert
    expect(openai.requests.at(-1)!.body).toMatchObject({ service_tier: 'priority' });
    expect(stream.serviceTier).toBe('priority');
  });

  it('custom provider: sends through the guarded fetch to the custom base URL, with its key and max_tokens, and never OpenAI’s service_tier', async () => {
    // Arrange
    const business = await OpenAiSandboxServer.start({ apiKey: 'biz-secret', ttftMs: 5 });
    const customUrl = business.baseUrl;
    const fetch = pinnedFetch({ policy: { allowPrivate: true, requireHttps: false } });
    const custom = new OpenAiLanguageModel({ provider: 'custom', customUrl, apiKey: 'biz-secret', fetch });
    // Act
    const chunks = await drain(custom.stream(request({ model: 'my-llama', priority: true })));
    await business.close();
    // Assert
    expect(text(chunks)).toContain('Monday');
    expect(business.requests).toHaveLength(1);
    expect(business.requests[0]).toMatchObject({ authorization: 'Bearer biz-secret', body: { model: 'my-llama', max_tokens: 300 } });
    expect(business.requests[0]!.body).not.toHaveProperty('service_tier');
    expect(business.requests[0]!.body).not.toHaveProperty('max_completion_tokens');
  });

  it('custom provider: a refused URL fails, not retryable and saying why, before any request is sent', async () => {
    // Arrange
    const before = openai.requests.length;
    const fetch = pinnedFetch({ policy: { allowPrivate: false, requireHttps: false } });
    const custom = new OpenAiLanguageModel({ provider: 'custom', customUrl: openai.baseUrl, apiKey: 'k', fetch });
    // Act
    const error = await drain(custom.stream(request())).catch((e: unknown) => e);
    // Assert
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ provider: 'custom_llm', retryable: false });
    expect((error as Error).message).toMatch(/^custom_url refused: .*loopback/);
    expect(openai.requests).toHaveLength(before);
  });

  it.each([
    { status: 500, retryable: true },
    { status: 429, retryable: true },
    { status: 400, retryable: false },
    { status: 401, retryable: false },
  ])('maps HTTP $status to a ProviderError (retryable: $retryable) without retrying', async ({ status, retryable }) => {
    // Arrange
    const before = openai.requests.length;
    openai.failNext({ kind: 'status', status });
    // Act
    const error = await drain(llm().stream(request())).catch((e: unknown) => e);
    // Assert
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ provider: 'openai', statusCode: status, retryable });
    expect(openai.requests).toHaveLength(before + 1);
  });

  it.each([
    { failure: { kind: 'cut', afterTokens: 3 } as const, label: 'a stream that ends mid-way' },
    { failure: { kind: 'cut', afterTokens: 3, how: 'destroy' } as const, label: 'a dropped connection' },
    { failure: { kind: 'garbage' } as const, label: 'garbage SSE' },
  ])('turns $label into a retryable ProviderError after the text already streamed', async ({ failure }) => {
    // Arrange
    openai.failNext(failure);
    const chunks: LlmChunk[] = [];
    // Act
    const error = await (async () => {
      for await (const c of llm().stream(request())) chunks.push(c);
    })().catch((e: unknown) => e);
    // Assert
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ retryable: true, statusCode: undefined });
    expect(chunks.some((c) => c.type === 'done')).toBe(false);
  });

  it('abort cancels: iteration rejects with the abort reason and the server sees the request closed', async () => {
    // Arrange
    openai.setTiming({ tokenIntervalMs: 40 });
    const controller = new AbortController();
    const stream = llm().stream(request({ signal: controller.signal }));
    const chunks: LlmChunk[] = [];
    // Act
    const error = await (async () => {
      for await (const c of stream) {
        chunks.push(c);
        if (chunks.length === 2) controller.abort(new Error('barge-in'));
      }
    })().catch((e: unknown) => e);
    openai.setTiming({ tokenIntervalMs: 2 });
    // Assert
    expect(error).toEqual(new Error('barge-in'));
    expect(chunks.length).toBeLessThan(5);
    await vi.waitFor(() => expect(openai.requests.at(-1)!.closedEarly).toBe(true));
  });

  it('json_schema mode returns JSON that validates against the schema, drawn from the conversation', async () => {
    // Arrange
    const schema = {
      type: 'object',
      additionalProperties: false,
      required: ['summary', 'success_evaluation', 'structured_data'],
      properties: {
        summary: { type: 'string' },
        success_evaluation: { type: 'integer', minimum: 1, maximum: 10 },
        structured_data: {
          type: 'object',
          additionalProperties: false,
          required: ['caller_name', 'appointment_date', 'service', 'party_size', 'wants_callback'],
          properties: {
            caller_name: { type: ['string', 'null'] },
            appointment_date: { anyOf: [{ type: 'string', format: 'date' }, { type: 'null' }] },
            service: { anyOf: [{ type: 'string', enum: ['cleaning', 'whitening', 'checkup'] }, { type: 'null' }] },
            party_size: { type: ['number', 'null'] },
            wants_callback: { type: ['boolean', 'null'] },
          },
        },
      },
    };
    const transcript = [
      'assistant: Thanks for calling Acme Dental, how can I help?',
      'user: Hi, my name is Jane Doe and I would like a cleaning on 2026-03-14.',
      'assistant: Perfect, you are booked for a cleaning. How many people is the party size?',
      'user: The party size is 2. Thanks, goodbye!',
    ].join('\n');
    const client = new OpenAI({ apiKey: SANDBOX_OPENAI_API_KEY, baseURL: openai.baseUrl, maxRetries: 0 });
    // Act
    const response = await client.chat.completions.create({
      model: 'gpt-4.1-mini',
      messages: [
        { role: 'system', content: 'Analyse the call transcript.' },
        { role: 'user', content: transcript },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'call_analysis', schema, strict: true } },
    });
    const value = JSON.parse(response.choices[0]!.message.content!) as Record<string, unknown>;
    // Assert
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    expect(ajv.validate(schema, value), JSON.stringify(ajv.errors)).toBe(true);
    expect(value.structured_data).toEqual({
      caller_name: 'Jane Doe',
      appointment_date: '2026-03-14',
      service: 'cleaning',
      party_size: 2,
      wants_callback: null,
    });
    expect(value.success_evaluation).toBe(8);
    expect(value.summary).toContain('Jane Doe');
  });
});
