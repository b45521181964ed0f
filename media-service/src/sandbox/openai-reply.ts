import type { ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { chunk, completion, usageChunk, type ChatRequest, type ResponseMeta } from './openai-wire';
import type { SandboxLlmFailure } from './openai-server';
import type { SandboxLlmReply } from './sandbox-llm-script';

/**
 * Turns a sandbox reply into what OpenAI would send: the token-by-token chunk sequence of a
 * stream (role chunk, content deltas, tool-call header then argument fragments, finish chunk,
 * usage chunk, `[DONE]`) or one completion, paced by time-to-first-token and token interval.
 */

/** A reply cut into wire tokens, with the finish reason the limits imply. */
export interface ReplyPlan {
  text: string;
  textTokens: string[];
  toolCalls: { id: string; name: string; arguments: string; fragments: string[] }[];
  finishReason: 'stop' | 'length' | 'tool_calls';
  completionTokens: number;
}

/** Pacing of one response. */
export interface ReplyTiming {
  ttftMs: number;
  tokenIntervalMs: number;
}

/** Splits the reply into tokens (a word with its leading space) and applies the token limit. */
export function planReply(reply: SandboxLlmReply, request: ChatRequest, requestIndex: number): ReplyPlan {
  const limit = request.max_completion_tokens ?? request.max_tokens ?? Number.POSITIVE_INFINITY;
  const allTokens = (reply.text ?? '').match(/\s*\S+/g) ?? [];
  const truncated = allTokens.length > limit;
  const textTokens = truncated ? allTokens.slice(0, limit) : allTokens;
  const toolCalls = truncated
    ? []
    : (reply.toolCalls ?? []).map((call, i) => ({
        id: call.id ?? `call_sandbox_${requestIndex}_${i}`,
        name: call.name,
        arguments: call.arguments,
        fragments: fragments(call.arguments),
      }));
  const finishReason = truncated ? 'length' : toolCalls.length > 0 ? 'tool_calls' : 'stop';
  const completionTokens = textTokens.length + toolCalls.reduce((n, c) => n + 1 + c.fragments.length, 0);
  return { text: textTokens.join(''), textTokens, toolCalls, finishReason, completionTokens };
}

/** Arguments arrive in about three fragments, as the real API splits them at token boundaries. */
function fragments(args: string): string[] {
  if (args === '') return [];
  const size = Math.max(1, Math.ceil(args.length / 3));
  const out: string[] = [];
  for (let i = 0; i < args.length; i += size) out.push(args.slice(i, i + size));
  return out;
}

interface WireEvent {
  delta: Record<string, unknown>;
  /** Carries generated content (paced by the token interval). */
  token: boolean;
}

function streamEvents(plan: ReplyPlan): WireEvent[] {
  const events: WireEvent[] = [];
  if (plan.textTokens.length > 0 || plan.toolCalls.length === 0) {
    events.push({ delta: { role: 'assistant', content: '', refusal: null }, token: false });
  }
  for (const token of plan.textTokens) events.push({ delta: { content: token }, token: true });
  plan.toolCalls.forEach((call, index) => {
    const opening = index === 0 && plan.textTokens.length === 0 ? { role: 'assistant', content: null } : {};
    const header = { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } };
    events.push({ delta: { ...opening, tool_calls: [header] }, token: true });
    for (const fragment of call.fragments)
      events.push({ delta: { tool_calls: [{ index, function: { arguments: fragment } }] }, token: true });
  });
  return events;
}

/** Inputs of one streamed response. */
export interface StreamWrite {
  meta: ResponseMeta;
  plan: ReplyPlan;
  timing: ReplyTiming;
  promptTokens: number;
  includeUsage: boolean;
  failure: SandboxLlmFailure | undefined;
}

/**
 * Waits `ms`, unless it is 0: then nothing is awaited at all, so a zero-latency provider answers in
 * the same event-loop turn (a 0 ms timer still costs a timer phase, ~1 ms and more on a busy loop).
 */
function pause(ms: number, signal: AbortSignal): Promise<void> | undefined {
  return ms > 0 ? delay(ms, undefined, { signal }) : undefined;
}

/** Streams the reply as SSE; resolves true when it completed, false when cut, broken or abandoned. */
export async function writeStream(res: ServerResponse, w: StreamWrite): Promise<boolean> {
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  const sse = (data: unknown) => res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
  try {
    await pause(w.timing.ttftMs, gone.signal);
    // Chunks written without a pause between them leave in one socket write, as a fast server's would.
    res.cork();
    let tokens = 0;
    for (const event of streamEvents(w.plan)) {
      if (event.token && tokens > 0 && w.timing.tokenIntervalMs > 0) {
        res.uncork();
        await delay(w.timing.tokenIntervalMs, undefined, { signal: gone.signal });
        res.cork();
      }
      if (w.failure?.kind === 'cut' && event.token && tokens >= w.failure.afterTokens) {
        res.uncork();
        if (w.failure.how === 'destroy') res.destroy();
        else res.end();
        return false;
      }
      if (w.failure?.kind === 'stall' && event.token && tokens >= w.failure.afterTokens) {
        // Nothing more, the socket left open: only the client giving up ends the response.
        res.uncork();
        await new Promise((resolve) => (gone.signal.aborted ? resolve(undefined) : gone.signal.addEventListener('abort', resolve)));
        return false;
      }
      if (w.failure?.kind === 'garbage' && tokens >= 1) {
        sse('{"id":"chatcmpl-broken","choices":[{"delta":{"content":');
        res.uncork();
        res.end();
        return false;
      }
      sse(chunk(w.meta, event.delta));
      if (event.token) tokens += 1;
    }
    sse(chunk(w.meta, {}, w.plan.finishReason));
    if (w.includeUsage) sse(usageChunk(w.meta, w.promptTokens, w.plan.completionTokens));
    sse('[DONE]');
    res.uncork();
    res.end();
    return true;
  } catch {
    return false;
  }
}

/** Sends the reply as one `chat.completion` after the time the stream would have taken. */
export async function writeCompletion(res: ServerResponse, w: Omit<StreamWrite, 'includeUsage' | 'failure'>): Promise<boolean> {
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  try {
    await delay(w.timing.ttftMs + w.plan.completionTokens * w.timing.tokenIntervalMs, undefined, { signal: gone.signal });
  } catch {
    return false;
  }
  const message = { content: w.plan.toolCalls.length > 0 && w.plan.text === '' ? null : w.plan.text, toolCalls: w.plan.toolCalls };
  const body = completion(w.meta, message, w.plan.finishReason, { prompt: w.promptTokens, completion: w.plan.completionTokens });
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  return true;
}
