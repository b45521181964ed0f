import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { AuraSession, DEFAULT_AURA_TUNING, type AuraConnectionRecord, type AuraQuery, type AuraTuning } from './aura-session';
import { FluxSession, type FluxConnectionRecord, type FluxFault, type FluxQuery } from './flux-session';
import { DEFAULT_FLUX_TUNING, type FluxTuning } from './flux-turn-detector';
import type { TranscriptBoard } from './transcript-board';
import { AURA_2_VOICES, DEEPGRAM_STT_MODELS } from '../../../shared/domain/speech-catalog';
import { listenSandbox } from './listen';
import { speakRest } from './aura-rest';

/** The languages `flux-general-multi` hears (Deepgram "Flux Multilingual"). */
const FLUX_MULTI_LANGUAGES = new Set(['en', 'es', 'fr', 'de', 'hi', 'ru', 'pt', 'ja', 'it', 'nl']);

/**
 * The sandbox Deepgram: ONE loopback HTTP server that upgrades `/v2/listen` (Flux STT) and
 * `/v1/speak` (Aura TTS) WebSockets, answers `POST /v1/speak` (Aura over REST), and speaks their exact wire protocols, so the real adapters
 * (and the real `@deepgram/sdk`) run unchanged against it: point them at `baseUrl`.
 *
 * Auth mirrors Deepgram: `Authorization: Token <key>` (or `Bearer <jwt>`); a missing header is
 * refused with HTTP 401 at the handshake. Any non-empty key is accepted unless `apiKey` is set.
 *
 * @example
 * ```ts
 * const board = new TranscriptBoard();
 * const deepgram = await DeepgramSandboxServer.start({ board });
 * const stt = new DeepgramSpeechToText({ apiKey: 'sandbox', baseUrl: deepgram.baseUrl });
 * // …
 * await deepgram.close();
 * ```
 */
export interface DeepgramSandboxOptions {
  /** Where simulated callees register what they say; Flux pops from it by the `tag` query param. */
  board: TranscriptBoard;
  /** Listen address; loopback by default. */
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** When set, only this exact key is accepted (to test auth failures); otherwise any non-empty key. */
  apiKey?: string;
  flux?: Partial<FluxTuning>;
  aura?: Partial<AuraTuning>;
}

/** A running sandbox Deepgram with its observation records. */
export class DeepgramSandboxServer {
  /** One record per accepted Flux connection, in order. */
  readonly fluxConnections: FluxConnectionRecord[] = [];
  /** One record per accepted Aura connection, in order. */
  readonly auraConnections: AuraConnectionRecord[] = [];
  readonly #http: Server;
  readonly #wss = new WebSocketServer({ noServer: true });
  readonly #options: DeepgramSandboxOptions;
  #fluxTuning: FluxTuning;
  #auraTuning: AuraTuning;
  #fluxFault: FluxFault = 'none';

  private constructor(options: DeepgramSandboxOptions) {
    this.#options = options;
    this.#fluxTuning = { ...DEFAULT_FLUX_TUNING, ...options.flux };
    this.#auraTuning = { ...DEFAULT_AURA_TUNING, ...options.aura };
    this.#http = createServer((req, res) => void this.#rest(req, res));
    this.#http.on('upgrade', (req, socket, head) => this.#upgrade(req, socket, head));
  }

  /** Starts listening; resolves once the port is bound. */
  static async start(options: DeepgramSandboxOptions): Promise<DeepgramSandboxServer> {
    const server = new DeepgramSandboxServer(options);
    await listenSandbox(server.#http, options);
    return server;
  }

  /** `ws://host:port`: the value for the SDK's `baseUrl` and the TTS adapter's base URL. */
  get baseUrl(): string {
    const address = this.#http.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `ws://${host}:${address.port}`;
  }

  /** `http://host:port`: the REST base (`environment.base` of `@deepgram/sdk`) for `POST /v1/speak`. */
  get httpUrl(): string {
    return this.baseUrl.replace(/^ws:/, 'http:');
  }

  /** Makes every Flux connection opened from now on misbehave (or `'none'` to heal). */
  setFluxFault(fault: FluxFault): void {
    this.#fluxFault = fault;
  }

  /** Changes Aura timing for frames not yet sent (e.g. a slower first byte). */
  setAuraTuning(tuning: Partial<AuraTuning>): void {
    this.#auraTuning = { ...this.#auraTuning, ...tuning };
  }

  /** Closes every socket and the listener. */
  async close(): Promise<void> {
    for (const client of this.#wss.clients) client.terminate();
    this.#wss.close();
    this.#http.closeAllConnections();
    await new Promise<void>((resolve) => this.#http.close(() => resolve()));
  }

  #authorized(authorization: string): boolean {
    const key = /^(?:Token|Bearer)\s+(\S+)$/i.exec(authorization)?.[1];
    return key !== undefined && (this.#options.apiKey === undefined || key === this.#options.apiKey);
  }

  /** `POST /v1/speak` (Aura over REST, aura-rest.ts); every other plain HTTP request is a 404. */
  async #rest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const json = (status: number, body: Record<string, string>) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method !== 'POST' || url.pathname !== '/v1/speak') return void json(404, { err_code: 'NOT_FOUND', err_msg: 'No such route.' });
    if (!this.#authorized(req.headers.authorization ?? '')) return void json(401, INVALID_AUTH);
    let body = '';
    for await (const chunk of req as AsyncIterable<Buffer>) {
      body += chunk.toString('utf8');
      if (body.length > 64 * 1024) return void json(413, { err_code: 'PAYLOAD_TOO_LARGE', err_msg: 'The body is too large.' });
    }
    const answer = speakRest(url.searchParams, body, this.#auraTuning.msPerChar);
    res.writeHead(answer.status, answer.headers).end(answer.body);
  }

  #upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const authorization = req.headers.authorization ?? '';
    if (!this.#authorized(authorization)) return reject(socket, 401, INVALID_AUTH);
    if (url.pathname === '/v2/listen') {
      const query = parseFluxQuery(url.searchParams);
      if (typeof query === 'string') return reject(socket, 400, { err_code: 'Bad Request', err_msg: query });
      return this.#wss.handleUpgrade(req, socket, head, (ws) => this.#acceptFlux(ws, query, authorization));
    }
    if (url.pathname === '/v1/speak') {
      const query = parseAuraQuery(url.searchParams);
      if (typeof query === 'string') return reject(socket, 400, { err_code: 'Bad Request', err_msg: query });
      return this.#wss.handleUpgrade(req, socket, head, (ws) => this.#acceptAura(ws, query, authorization));
    }
    reject(socket, 404, { err_code: 'NOT_FOUND', err_msg: `No WebSocket at ${url.pathname}.` });
  }

  #acceptFlux(ws: WebSocket, query: FluxQuery, authorization: string): void {
    const record: FluxConnectionRecord = { query, authorization, audioBytes: 0, sent: [], sentAt: [], received: [], closed: false };
    this.fluxConnections.push(record);
    const tag = query.tag;
    const hint = query.languageHints[0];
    if (tag !== undefined && hint !== undefined) this.#options.board.setLanguage(tag, hint);
    const nextText = () => (tag === undefined ? undefined : this.#options.board.next(tag));
    const dropsNow = () => this.#options.board.faults.take(tag, 'stt-drop');
    new FluxSession(ws, record, this.#fluxTuning, this.#fluxFault, nextText, dropsNow);
  }

  #acceptAura(ws: WebSocket, query: AuraQuery, authorization: string): void {
    const record: AuraConnectionRecord = { query, authorization, received: [], sentJson: [], audioBytesSent: 0, closed: false };
    this.auraConnections.push(record);
    const tag = query.tag;
    const board = this.#options.board;
    const dropsNow = () => board.faults.take(tag, 'tts-drop');
    new AuraSession(
      ws,
      record,
      () => this.#auraTuning,
      tag === undefined ? undefined : (text, durationMs) => board.spoke(tag, text, durationMs),
      dropsNow,
    );
  }
}

const INVALID_AUTH = { err_code: 'INVALID_AUTH', err_msg: 'Invalid credentials.' };

function reject(socket: Duplex, status: number, body: Record<string, string>): void {
  const text = JSON.stringify(body);
  const reason = status === 401 ? 'Unauthorized' : status === 400 ? 'Bad Request' : 'Not Found';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
  );
}

function numberParam(params: URLSearchParams, name: string, fallback: number | undefined): number | undefined {
  const raw = params.get(name);
  if (raw === null) return fallback;
  const value = Number(raw);
  return Number.isFinite(value) ? value : Number.NaN;
}

/** Validates the Flux handshake; the sandbox hears μ-law 8 kHz only (what telephony sends). */
export function parseFluxQuery(params: URLSearchParams): FluxQuery | string {
  const model = params.get('model') ?? '';
  if (!(DEEPGRAM_STT_MODELS as readonly string[]).includes(model))
    return `model must be one of ${DEEPGRAM_STT_MODELS.join(', ')}, got "${model}".`;
  const languageHints = params.getAll('language_hint');
  if (languageHints.length > 0 && model !== 'flux-general-multi') return 'language_hint is only valid with model flux-general-multi.';
  if (languageHints.some((hint) => !FLUX_MULTI_LANGUAGES.has(hint.split('-')[0]!.toLowerCase())))
    return `language_hint must be one of ${[...FLUX_MULTI_LANGUAGES].join(', ')} (a region may follow).`;
  const encoding = params.get('encoding') ?? '';
  const sampleRate = numberParam(params, 'sample_rate', undefined);
  if (encoding !== 'mulaw' || sampleRate !== 8000) return 'The sandbox accepts encoding=mulaw&sample_rate=8000 only.';
  const eotThreshold = numberParam(params, 'eot_threshold', 0.7)!;
  const eagerEotThreshold = numberParam(params, 'eager_eot_threshold', undefined);
  const eotTimeoutMs = numberParam(params, 'eot_timeout_ms', 5000)!;
  if (!(eotThreshold >= 0.5 && eotThreshold <= 1)) return 'eot_threshold must be between 0.5 and 1.0.';
  if (eagerEotThreshold !== undefined && !(eagerEotThreshold >= 0.3 && eagerEotThreshold <= 0.9)) {
    return 'eager_eot_threshold must be between 0.3 and 0.9.';
  }
  if (!(eotTimeoutMs >= 500 && eotTimeoutMs <= 60000)) return 'eot_timeout_ms must be between 500 and 60000.';
  const tag = params.get('tag') ?? undefined;
  return {
    model,
    encoding,
    sampleRate,
    eotThreshold,
    eagerEotThreshold,
    eotTimeoutMs,
    keyterms: params.getAll('keyterm'),
    languageHints,
    tag,
  };
}

/** Validates the Aura handshake; the sandbox speaks μ-law 8 kHz only. */
export function parseAuraQuery(params: URLSearchParams): AuraQuery | string {
  const model = params.get('model') ?? 'aura-2-thalia-en';
  if (!AURA_2_VOICES.includes(model)) return `model must be an Aura-2 voice (aura-2-<name>-<language>), got "${model}".`;
  const encoding = params.get('encoding') ?? '';
  const sampleRate = numberParam(params, 'sample_rate', undefined);
  if (encoding !== 'mulaw' || sampleRate !== 8000) return 'The sandbox speaks encoding=mulaw&sample_rate=8000 only.';
  const speed = numberParam(params, 'speed', 1)!;
  if (!(speed > 0 && speed <= 2)) return 'speed must be a positive number up to 2.';
  const tag = params.get('tag') ?? undefined;
  return { model, encoding, sampleRate, speed, ...(tag !== undefined && { tag }) };
}
