import type { IncomingMessage } from 'node:http';
import { apiKeyRefusal, SANDBOX_OPENAI_API_KEY } from './openai-auth';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { DEFAULT_REALTIME_TUNING, type RealtimeFault, type RealtimeTuning } from './realtime-replies';
import { RealtimeSession, type RealtimeConnectionRecord } from './realtime-session';
import type { SandboxLlmScript } from './sandbox-llm-script';
import type { TranscriptBoard } from './transcript-board';
import { SandboxTranscriptionSession, defaultTranscriptionSession, type TranscriptionConnectionRecord } from './transcription-session';

export { DEFAULT_REALTIME_TUNING, type RealtimeFault, type RealtimeTuning } from './realtime-replies';
export type { RealtimeConnectionRecord } from './realtime-session';
export type { TranscriptionConnectionRecord } from './transcription-session';

/** Options of {@link RealtimeSandbox}. */
export interface RealtimeSandboxOptions {
  script: SandboxLlmScript;
  /** The one key accepted (`Bearer <apiKey>`); default {@link SANDBOX_OPENAI_API_KEY}. */
  apiKey?: string;
  /** Where simulated callees announce their words; popped by the `tag` query parameter (the call SID). */
  board?: TranscriptBoard;
  tuning?: Partial<RealtimeTuning>;
}

/**
 * The sandbox OpenAI's WebSocket side: `GET /v1/realtime?model=…[&tag=<call SID>]` upgraded to the
 * GA Realtime protocol (see {@link RealtimeSession}), and `GET /v1/realtime?intent=transcription`
 * to a GA transcription session (see {@link SandboxTranscriptionSession}). Attached to `OpenAiSandboxServer`'s HTTP
 * server, so chat completions and Realtime share one base URL as they do at OpenAI.
 *
 * @example
 * ```ts
 * const openai = await OpenAiSandboxServer.start({ board });
 * const realtime = new OpenAiRealtime({ apiKey: 'sk-sandbox', baseUrl: openai.baseUrl, sendTag: true });
 * openai.realtime.connections[0]?.session; // what the client configured
 * ```
 */
export class RealtimeSandbox {
  /** One record per accepted connection, in order. */
  readonly connections: RealtimeConnectionRecord[] = [];
  /** One record per accepted transcription connection (`?intent=transcription`), in order. */
  readonly transcriptions: TranscriptionConnectionRecord[] = [];
  readonly #wss = new WebSocketServer({ noServer: true });
  readonly #options: RealtimeSandboxOptions;
  #board: TranscriptBoard | undefined;
  #tuning: RealtimeTuning;
  readonly #faults: RealtimeFault[] = [];

  constructor(options: RealtimeSandboxOptions) {
    this.#options = options;
    this.#board = options.board;
    this.#tuning = { ...DEFAULT_REALTIME_TUNING, ...options.tuning };
  }

  /** The board callees announce their words on (and fault numbers their faults), once there is one. */
  get board(): TranscriptBoard | undefined {
    return this.#board;
  }

  /** Hears callees through `board` from now on (the board is often created after the server). */
  useBoard(board: TranscriptBoard): void {
    this.#board = board;
  }

  /** Changes timing for responses not yet streamed. */
  setTuning(tuning: Partial<RealtimeTuning>): void {
    this.#tuning = { ...this.#tuning, ...tuning };
  }

  /** The next response tagged `fault.tag` (e.g. `notice`) streams `fault.afterMs` of audio, then ends `failed` (a server error). */
  failNextResponse(fault: RealtimeFault): void {
    this.#faults.push(fault);
  }

  #takeFault(tag: string | undefined): RealtimeFault | undefined {
    const index = this.#faults.findIndex((fault) => fault.tag === tag);
    return index < 0 ? undefined : this.#faults.splice(index, 1)[0];
  }

  /** The HTTP server's `upgrade` handler. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    if (url.pathname !== '/v1/realtime') return refuse(socket, 404, `Unknown URL GET ${url.pathname}.`);
    const authorization = req.headers.authorization ?? '';
    const refused = apiKeyRefusal(authorization, this.#options.apiKey ?? SANDBOX_OPENAI_API_KEY);
    if (refused) return refuse(socket, 401, refused.body.error.message, refused.body.error.code);
    const model = url.searchParams.get('model') ?? '';
    const intent = url.searchParams.get('intent');
    const tag = url.searchParams.get('tag') ?? undefined;
    if (intent === 'transcription' && model === '') return this.#acceptTranscription(req, socket, head, { tag, authorization });
    if (intent !== null && intent !== 'transcription') return refuse(socket, 400, `Invalid value: '${intent}' for 'intent'.`);
    if (model === '') return refuse(socket, 400, "Missing required parameter: 'model'.");
    this.#wss.handleUpgrade(req, socket, head, (ws) => {
      const record: RealtimeConnectionRecord = {
        model,
        tag,
        authorization,
        received: [],
        sent: [],
        audioBytes: 0,
        truncations: [],
        closed: false,
        session: defaultSession(model),
      };
      this.connections.push(record);
      const connection = this.connections.length;
      const dropsNow = () => this.#board?.faults.take(tag, 'stt-drop') ?? false;
      new RealtimeSession(
        ws,
        record,
        () => this.#tuning,
        { script: this.#options.script, board: () => this.#board, takeFault: (tag) => this.#takeFault(tag) },
        { connection, dropsNow },
      );
    });
  }

  #acceptTranscription(req: IncomingMessage, socket: Duplex, head: Buffer, who: { tag: string | undefined; authorization: string }): void {
    this.#wss.handleUpgrade(req, socket, head, (ws) => {
      const record: TranscriptionConnectionRecord = {
        ...who,
        received: [],
        sent: [],
        audioBytes: 0,
        closed: false,
        session: defaultTranscriptionSession(),
      };
      this.transcriptions.push(record);
      const dropsNow = () => this.#board?.faults.take(who.tag, 'stt-drop') ?? false;
      new SandboxTranscriptionSession(ws, record, () => this.#board, dropsNow);
    });
  }

  /** Drops every connection. */
  close(): void {
    for (const client of this.#wss.clients) client.terminate();
    this.#wss.close();
  }
}

/** The session as `session.created` reports it before any update (the API's defaults). */
function defaultSession(model: string): Record<string, unknown> {
  return {
    type: 'realtime',
    object: 'realtime.session',
    id: `sess_sandbox_${Date.now().toString(36)}`,
    model,
    output_modalities: ['audio'],
    instructions: '',
    audio: {
      input: {
        format: { type: 'audio/pcm', rate: 24000 },
        transcription: null,
        noise_reduction: null,
        turn_detection: {
          type: 'server_vad',
          threshold: 0.5,
          prefix_padding_ms: 300,
          silence_duration_ms: 200,
          create_response: true,
          interrupt_response: true,
          idle_timeout_ms: null,
        },
      },
      output: { format: { type: 'audio/pcm', rate: 24000 }, voice: 'alloy', speed: 1 },
    },
    tools: [],
    tool_choice: 'auto',
    max_output_tokens: 'inf',
  };
}

function refuse(socket: Duplex, status: number, message: string, code: string | null = null): void {
  const text = JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code } });
  const reason = status === 401 ? 'Unauthorized' : status === 400 ? 'Bad Request' : 'Not Found';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
  );
}
