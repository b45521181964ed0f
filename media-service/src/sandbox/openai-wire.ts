import * as v from 'valibot';

/**
 * The slice of the OpenAI chat-completions wire format (docs/protocols.md "OpenAI") the sandbox reads and
 * writes: the request body it validates, and the `chat.completion.chunk` / `chat.completion`
 * objects it answers with, field for field as openai-node parses them.
 */

const ContentSchema = v.optional(
  v.nullable(v.union([v.string(), v.array(v.looseObject({ type: v.string(), text: v.optional(v.string()) }))])),
);

const MessageSchema = v.looseObject({
  role: v.picklist(['system', 'developer', 'user', 'assistant', 'tool']),
  content: ContentSchema,
  tool_calls: v.optional(
    v.array(
      v.looseObject({ id: v.string(), type: v.literal('function'), function: v.looseObject({ name: v.string(), arguments: v.string() }) }),
    ),
  ),
  tool_call_id: v.optional(v.string()),
});

const ToolSchema = v.looseObject({
  type: v.literal('function'),
  function: v.looseObject({
    name: v.string(),
    description: v.optional(v.string()),
    parameters: v.optional(v.record(v.string(), v.unknown())),
  }),
});

const ResponseFormatSchema = v.variant('type', [
  v.looseObject({ type: v.literal('text') }),
  v.looseObject({ type: v.literal('json_object') }),
  v.looseObject({
    type: v.literal('json_schema'),
    json_schema: v.looseObject({
      name: v.string(),
      schema: v.optional(v.record(v.string(), v.unknown())),
      strict: v.optional(v.nullable(v.boolean())),
    }),
  }),
]);

/** A chat-completions request body (unknown fields are kept, as the real API ignores none we care about). */
export const ChatRequestSchema = v.looseObject({
  model: v.pipe(v.string(), v.minLength(1)),
  messages: v.pipe(v.array(MessageSchema), v.minLength(1)),
  stream: v.optional(v.nullable(v.boolean())),
  stream_options: v.optional(v.nullable(v.looseObject({ include_usage: v.optional(v.boolean()) }))),
  tools: v.optional(v.array(ToolSchema)),
  service_tier: v.optional(v.nullable(v.string())),
  temperature: v.optional(v.nullable(v.number())),
  max_completion_tokens: v.optional(v.nullable(v.number())),
  max_tokens: v.optional(v.nullable(v.number())),
  response_format: v.optional(ResponseFormatSchema),
});

/** A parsed chat-completions request. */
export type ChatRequest = v.InferOutput<typeof ChatRequestSchema>;

/** One message of a parsed request. */
export type ChatRequestMessage = ChatRequest['messages'][number];

/** The text of a message, whether sent as a string or as content parts. */
export function messageText(message: ChatRequestMessage): string {
  const content = message.content;
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => part.text ?? '').join('');
}

/** Fields shared by every chunk and completion of one response. */
export interface ResponseMeta {
  id: string;
  created: number;
  model: string;
  serviceTier: string;
}

/** The tier a response reports: `priority` (and `fast`) echo as `priority`, anything else as `default`. */
export function echoedServiceTier(requested: string | null | undefined): string {
  return requested === 'priority' || requested === 'fast' ? 'priority' : 'default';
}

/** One `chat.completion.chunk` with a single choice. */
export function chunk(meta: ResponseMeta, delta: Record<string, unknown>, finishReason: string | null = null): Record<string, unknown> {
  return {
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    service_tier: meta.serviceTier,
    system_fingerprint: 'fp_sandbox',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    usage: null,
  };
}

/** Token counts in the wire shape. */
export function usage(prompt: number, completion: number): Record<string, unknown> {
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

/** The final chunk sent when `stream_options.include_usage` is set: no choices, usage filled. */
export function usageChunk(meta: ResponseMeta, prompt: number, completion: number): Record<string, unknown> {
  return { ...chunk(meta, {}), choices: [], usage: usage(prompt, completion) };
}

/** A non-streamed `chat.completion`. */
export function completion(
  meta: ResponseMeta,
  message: { content: string | null; toolCalls: { id: string; name: string; arguments: string }[] },
  finishReason: string,
  tokens: { prompt: number; completion: number },
): Record<string, unknown> {
  const toolCalls = message.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    service_tier: meta.serviceTier,
    system_fingerprint: 'fp_sandbox',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: message.content,
          refusal: null,
          annotations: [],
          ...(toolCalls.length > 0 && { tool_calls: toolCalls }),
        },
        logprobs: null,
        finish_reason: finishReason,
      },
    ],
    usage: usage(tokens.prompt, tokens.completion),
  };
}

/** The error body OpenAI sends with a non-2xx status. */
export function errorBody(status: number, message: string): Record<string, unknown> {
  const type = status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error';
  const code = status === 401 ? 'invalid_api_key' : status === 429 ? 'rate_limit_exceeded' : null;
  return { error: { message, type, param: null, code } };
}

/** Rough token count (4 characters a token), enough for usage numbers that move with the input. */
export function approxTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
