import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as v from 'valibot';
import { approxTokens, ChatRequestSchema, echoedServiceTier, errorBody, type ChatRequest } from './openai-wire';
import { planReply, writeCompletion, writeStream, type ReplyTiming } from './openai-reply';
import { SandboxLlmScript, type SandboxLlmReply } from './sandbox-llm-script';
import { RealtimeSandbox, type RealtimeTuning } from './openai-realtime-server';
import type { TranscriptBoard } from './transcript-board';
import { listenSandbox } from './listen';
import { handleEmbeddings } from './sandbox-embeddings';
import { apiKeyRefusal, SANDBOX_OPENAI_API_KEY } from './openai-auth';
import { modelsAnswer } from './openai-models';
import { DEFAULT_SANDBOX_TRANSCRIPT, MAX_TRANSCRIPTION_BYTES, transcribe } from './openai-transcriptions';
import { firstCustomToolCall } from './sandbox-custom-tools';

/**
 * The sandbox OpenAI: `POST /v1/chat/completions` on loopback (beside `/v1/embeddings`,
 * `GET /v1/models`, `POST /v1/audio/transcriptions` and the `/v1/realtime` WebSocket), streamed as SSE (`data: {chunk}`
 * … `data: [DONE]`, with the usage chunk when `stream_options.include_usage`) or as one JSON
 * completion, exactly as openai-node parses them (docs/protocols.md "OpenAI"). Replies come from a
 * deterministic {@link SandboxLlmScript}; timing (time to first token, token rate) and failures
 * (HTTP errors, streams cut mid-way, garbage SSE) are injectable, and every request is recorded.
 *
 * @example
 * ```ts
 * const openai = await OpenAiSandboxServer.start({ ttftMs: 200 });
 * const llm = new OpenAiLanguageModel({ provider: 'openai', apiKey: 'sk-sandbox', baseURL: openai.baseUrl });
 * ```
 */
export interface OpenAiSandboxOptions {
  script?: SandboxLlmScript;
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /**
   * The one key accepted (`Bearer <apiKey>`), on every route and the realtime upgrade; default
   * {@link SANDBOX_OPENAI_API_KEY}, the key the local stack uses. Any other key is OpenAI's 401.
   */
  apiKey?: string;
  /** Delay before the first token (default 150 ms), fixed or per request (e.g. by `index`). */
  ttftMs?: number | ((request: ReceivedLlmRequest) => number);
  /** Delay between tokens (default 10 ms). */
  tokenIntervalMs?: number;
  /** Delay before answering `/v1/embeddings` (default 0; OpenAI takes ~100–300 ms). */
  embeddingsDelayMs?: number;
  /** Realtime (`/v1/realtime`): where callees announce their words, and the voice's timing. */
  board?: TranscriptBoard;
  realtime?: Partial<RealtimeTuning>;
}

/** An injected failure, consumed by the next request(s). */
export type SandboxLlmFailure =
  /** Answer with this HTTP status and an OpenAI error body (429 adds `retry-after: 1`). */
  | { kind: 'status'; status: number; message?: string }
  /** Stream this many tokens, then stop: `end` finishes the response without `[DONE]`, `destroy` drops the socket. */
  | { kind: 'cut'; afterTokens: number; how?: 'end' | 'destroy' }
  /** Stream one token, then an SSE line that is not JSON. */
  | { kind: 'garbage' }
  /** Stream this many tokens, then nothing more with the socket open, until the client goes away. */
  | { kind: 'stall'; afterTokens: number };

/** What the server saw of one request. */
export interface ReceivedLlmRequest {
  /** 0-based arrival order. */
  readonly index: number;
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
  /** The JSON body (undefined when it was not JSON). */
  readonly body: unknown;
  /** The validated body, when valid. */
  readonly request?: ChatRequest;
  readonly receivedAt: number;
  status?: number;
  /** The client went away before the response was complete (abort, race loser). */
  closedEarly: boolean;
  completed: boolean;
}

/** A running sandbox OpenAI with its observation records. */
export class OpenAiSandboxServer {
  /** Every request received, in arrival order. */
  readonly requests: ReceivedLlmRequest[] = [];
  /** `/v1/embeddings` requests served (kept apart from `requests`, which are chat completions). */
  embeddingRequests = 0;
  readonly script: SandboxLlmScript;
  /** The WebSocket `/v1/realtime` endpoint (live mode), on the same port. */
  readonly realtime: RealtimeSandbox;
  readonly #http: Server;
  readonly #failures: SandboxLlmFailure[] = [];
  readonly #transcripts: string[] = [];
  readonly #apiKey: string;
  #timing: { ttftMs: OpenAiSandboxOptions['ttftMs']; tokenIntervalMs: number; embeddingsDelayMs: number };

  private constructor(options: OpenAiSandboxOptions) {
    this.#apiKey = options.apiKey ?? SANDBOX_OPENAI_API_KEY;
    this.script = options.script ?? new SandboxLlmScript();
    this.#timing = {
      ttftMs: options.ttftMs ?? 150,
      tokenIntervalMs: options.tokenIntervalMs ?? 10,
      embeddingsDelayMs: options.embeddingsDelayMs ?? 0,
    };
    this.#http = createServer((req, res) => {
      this.#handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify(errorBody(500, String(error))));
        else res.destroy();
      });
    });
    this.realtime = new RealtimeSandbox({
      script: this.script,
      apiKey: this.#apiKey,
      ...(options.board && { board: options.board }),
      ...(options.realtime && { tuning: options.realtime }),
    });
    this.#http.on('upgrade', (req, socket, head) => this.realtime.upgrade(req, socket, head));
  }

  /** Starts listening; resolves once the port is bound. */
  static async start(options: OpenAiSandboxOptions = {}): Promise<OpenAiSandboxServer> {
    const server = new OpenAiSandboxServer(options);
    await listenSandbox(server.#http, options);
    return server;
  }

  /** `http://host:port/v1`: the value for the SDK's `baseURL`. */
  get baseUrl(): string {
    const address = this.#http.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host}:${address.port}/v1`;
  }

  /** What the next `POST /v1/audio/transcriptions` hears (queued in order; then a fixed sentence). */
  queueTranscript(text: string): void {
    this.#transcripts.push(text);
  }

  /** Makes the next `count` requests fail this way. */
  failNext(failure: SandboxLlmFailure, count = 1): void {
    for (let i = 0; i < count; i++) this.#failures.push(failure);
  }

  /** Changes timing for requests from now on. */
  setTiming(timing: Partial<Pick<OpenAiSandboxOptions, 'ttftMs' | 'tokenIntervalMs' | 'embeddingsDelayMs'>>): void {
    this.#timing = {
      ...this.#timing,
      ...timing,
      tokenIntervalMs: timing.tokenIntervalMs ?? this.#timing.tokenIntervalMs,
      embeddingsDelayMs: timing.embeddingsDelayMs ?? this.#timing.embeddingsDelayMs,
    };
  }

  /** Drops open connections and stops listening. */
  async close(): Promise<void> {
    this.realtime.close();
    this.#http.closeAllConnections();
    await new Promise<void>((resolve) => this.#http.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const bytes = await readBody(req);
    if (bytes === undefined) return sendJson(res, 413, errorBody(413, `Maximum content size limit (${MAX_BODY_BYTES}) exceeded.`));
    const text = bytes.toString('utf8');
    const pathname = new URL(req.url ?? '/', 'http://sandbox').pathname;
    if (req.method === 'POST' && pathname === '/v1/embeddings') {
      this.embeddingRequests++;
      const delayMs = this.#timing.embeddingsDelayMs;
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      return handleEmbeddings(req, res, text, this.#apiKey);
    }
    const models = req.method === 'GET' ? modelsAnswer(pathname) : undefined;
    const transcription = req.method === 'POST' && pathname === '/v1/audio/transcriptions';
    if (models || transcription) {
      const refused = apiKeyRefusal(req.headers.authorization, this.#apiKey);
      if (refused) return sendJson(res, refused.status, refused.body);
      if (models) return sendJson(res, models.status, models.body);
      const answer = await transcribe(bytes, req.headers['content-type'] ?? '', this.#transcripts.shift() ?? DEFAULT_SANDBOX_TRANSCRIPT);
      return void res.writeHead(answer.status, { 'content-type': answer.contentType }).end(answer.body);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const parsed = v.safeParse(ChatRequestSchema, body);
    const record: ReceivedLlmRequest = {
      index: this.requests.length,
      method: req.method ?? '',
      path: new URL(req.url ?? '/', 'http://sandbox').pathname,
      authorization: req.headers.authorization,
      body,
      ...(parsed.success && { request: parsed.output }),
      receivedAt: performance.now(),
      closedEarly: false,
      completed: false,
    };
    this.requests.push(record);
    res.on('close', () => {
      if (!res.writableFinished) record.closedEarly = true;
    });
    const refusal = this.#refusal(record, parsed.success ? undefined : parsed.issues[0]?.message);
    if (refusal) return sendError(res, record, refusal.status, refusal.message, refusal.code);
    const fault = this.#callFault(new URL(req.url ?? '/', 'http://sandbox').searchParams.get('tag'), record);
    const failure = this.#failures.shift() ?? fault?.failure;
    if (failure?.kind === 'status') return sendError(res, record, failure.status, failure.message ?? `Sandbox failure ${failure.status}.`);
    await this.#reply(res, record, record.request!, failure, fault?.reply);
  }

  /**
   * The failure a fault number's call gets (`provider-faults.ts`), read by the request's `tag` (the
   * call SID the adapter sends the sandbox): OpenAI's HTTP 500, or a stream that stalls after two
   * words, for every request to the failing model from the caller's first turn on.
   */
  #callFault(tag: string | null, record: ReceivedLlmRequest): { failure?: SandboxLlmFailure; reply?: SandboxLlmReply } | undefined {
    const faults = this.realtime.board?.faults;
    const request = record.request;
    if (!faults || tag === null || request === undefined) return undefined;
    if (faults.modelFails(tag, 'llm-5xx', request.model))
      return {
        failure: { kind: 'status', status: 500, message: 'The server had an error while processing your request. Sorry about that!' },
      };
    if (faults.modelFails(tag, 'llm-stall', request.model)) return { failure: { kind: 'stall', afterTokens: 2 } };
    // Every request until a tool answered (so both of a hedged pair call it), then the usual replies.
    const toolAnswered = request.messages.some((message) => message.role === 'tool');
    const reply = !toolAnswered && faults.take(tag, 'tool-hang') ? firstCustomToolCall(request) : undefined;
    return reply && { reply };
  }

  #refusal(record: ReceivedLlmRequest, issue: string | undefined): { status: number; message: string; code?: string | null } | undefined {
    if (record.method !== 'POST' || record.path !== '/v1/chat/completions')
      return { status: 404, message: `Unknown URL ${record.method} ${record.path}.` };
    const refused = apiKeyRefusal(record.authorization, this.#apiKey);
    if (refused) return { status: 401, message: refused.body.error.message, code: refused.body.error.code };
    if (issue !== undefined) return { status: 400, message: `Invalid request body: ${issue}` };
    return undefined;
  }

  async #reply(
    res: ServerResponse,
    record: ReceivedLlmRequest,
    request: ChatRequest,
    failure: SandboxLlmFailure | undefined,
    reply?: SandboxLlmReply,
  ): Promise<void> {
    const plan = planReply(reply ?? this.script.reply(request), request, record.index);
    const ttft = this.#timing.ttftMs;
    const timing: ReplyTiming = {
      ttftMs: typeof ttft === 'function' ? ttft(record) : (ttft ?? 150),
      tokenIntervalMs: this.#timing.tokenIntervalMs,
    };
    const meta = {
      id: `chatcmpl-sandbox-${record.index}`,
      created: Math.floor(Date.now() / 1000),
      model: request.model,
      serviceTier: echoedServiceTier(request.service_tier),
    };
    const promptTokens = approxTokens(JSON.stringify(request.messages)) + approxTokens(JSON.stringify(request.tools ?? []));
    record.status = 200;
    const done = request.stream
      ? await writeStream(res, { meta, plan, timing, promptTokens, includeUsage: request.stream_options?.include_usage === true, failure })
      : await writeCompletion(res, { meta, plan, timing, promptTokens });
    record.completed = done;
  }
}

function sendError(res: ServerResponse, record: ReceivedLlmRequest, status: number, message: string, code?: string | null): void {
  record.status = status;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (status === 429) headers['retry-after'] = '1';
  const body = errorBody(status, message);
  if (code !== undefined) (body.error as { code: string | null }).code = code;
  res.writeHead(status, headers).end(JSON.stringify(body));
  record.completed = true;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** The most the sandbox reads of one request: a 25 MB audio file and its form fields. */
const MAX_BODY_BYTES = MAX_TRANSCRIPTION_BYTES + 1024 * 1024;

/** The whole body, or undefined past {@link MAX_BODY_BYTES} (the rest is not read). */
async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req as AsyncIterable<Buffer>) {
    size += part.length;
    if (size > MAX_BODY_BYTES) return undefined;
    parts.push(part);
  }
  return Buffer.concat(parts);
}
