import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { SessionHandle, SessionStart } from '../call/session-types';
import { twilioRoutes, type TwilioRoutesOptions } from '../http/twilio-routes';
import { mediaStreamUpgrade } from './media-stream-upgrade';
import { WEB_CALL_PATH, webCallUpgrade, type WebCallUpgradeOptions } from './web-call-upgrade';
import { WEB_LISTEN_PATH, webListenUpgrade } from './web-listen-upgrade';
import { SessionRegistry } from './session-registry';
import { TaskAdmission } from './task-admission';
import type { Logger } from '../../../shared/log';

/**
 * The largest request body the media service reads. Twilio's form posts (voice webhook, status and
 * AMD callbacks) are a few KB; anything larger is refused before it is buffered.
 */
export const MAX_REQUEST_BODY_BYTES = 64 * 1024;

/** Construction options of {@link MediaServer}. */
export interface MediaServerOptions {
  /** The Twilio callbacks' dependencies (the live-session hooks are wired here). */
  twilio: Omit<TwilioRoutesOptions, 'hasLiveSession' | 'onAmd' | 'hasRoom'>;
  /** Starts the call session of a verified stream (main.ts: `(input) => startCallSession(deps, input)`). */
  startSession: (input: SessionStart) => SessionHandle;
  registry?: SessionRegistry;
  /** MEDIA_MAX_CALLS: calls this task takes at most (absent: no cap). */
  maxCalls?: number;
  /** How long a connected stream may take to send `start` (default 5000 ms). */
  startTimeoutMs?: number;
  /** Web calls from browsers on `/web/calls` and listeners on `/web/listen` (docs/protocols.md "Web calls"); absent, those paths are 404. */
  web?: Omit<WebCallUpgradeOptions, 'registry' | 'startSession' | 'isDraining' | 'hasRoom' | 'nowMs' | 'log' | 'startTimeoutMs'>;
  /** Structured log line. */
  log: Logger;
}

/**
 * The media service's one HTTP server: Twilio's signed callbacks (voice, status, AMD), `/health`
 * for the load balancer, and the Media Streams WebSocket upgrade on `/twilio/media`. Nothing a
 * client sends can throw out of it: unknown paths are 404, handler failures a logged 500.
 *
 * @example
 * ```ts
 * const server = await MediaServer.start({ twilio, startSession: (input) => startCallSession(deps, input), log }, 8080);
 * process.once('SIGTERM', async () => { server.beginDraining(); await server.registry.drain(100_000); await server.close(); });
 * ```
 */
export class MediaServer {
  readonly registry: SessionRegistry;
  /** The task's admission cap (unbounded without `maxCalls`); the outbound consumer shares it. */
  readonly admission: TaskAdmission;
  readonly #http: Server;
  /** Upgraded sockets: `http.Server#close` would wait for them forever. */
  readonly #streams = new Set<Duplex>();
  #draining = false;

  private constructor(options: MediaServerOptions) {
    this.registry = options.registry ?? new SessionRegistry();
    this.admission = new TaskAdmission({ maxCalls: options.maxCalls ?? Number.MAX_SAFE_INTEGER, registry: this.registry });
    const app = this.#app(options);
    this.#http = createAdaptorServer({ fetch: app.fetch }) as Server;
    this.#http.on('upgrade', (_req, socket: Duplex) => {
      this.#streams.add(socket);
      socket.once('close', () => this.#streams.delete(socket));
    });
    const twilioUpgrade = mediaStreamUpgrade({
      authToken: options.twilio.authToken,
      publicBaseUrl: options.twilio.publicBaseUrl,
      streamTokenSecret: options.twilio.streamTokenSecret,
      registry: this.registry,
      startSession: options.startSession,
      isDraining: () => this.#draining,
      hasRoom: () => this.admission.hasRoom(),
      nowMs: () => options.twilio.now().getTime(),
      log: options.log,
      ...(options.startTimeoutMs !== undefined && { startTimeoutMs: options.startTimeoutMs }),
    });
    const webUpgrade =
      options.web &&
      webCallUpgrade({
        ...options.web,
        registry: this.registry,
        startSession: options.startSession,
        isDraining: () => this.#draining,
        hasRoom: () => this.admission.hasRoom(),
        nowMs: () => options.twilio.now().getTime(),
        log: options.log,
        ...(options.startTimeoutMs !== undefined && { startTimeoutMs: options.startTimeoutMs }),
      });
    const listenUpgrade =
      options.web &&
      webListenUpgrade({
        tokens: options.web.tokens,
        businesses: options.web.businesses,
        consoleOrigins: options.web.consoleOrigins,
        registry: this.registry,
        nowMs: () => options.twilio.now().getTime(),
        log: options.log,
        ...(options.startTimeoutMs !== undefined && { startTimeoutMs: options.startTimeoutMs }),
      });
    // One listener, by path: Twilio's streams (signed), browsers' web calls and listeners (a token in the first message).
    this.#http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = (req.url ?? '/').split('?')[0];
      if (webUpgrade && path === WEB_CALL_PATH) return webUpgrade(req, socket, head);
      if (listenUpgrade && path === WEB_LISTEN_PATH) return listenUpgrade(req, socket, head);
      twilioUpgrade(req, socket, head);
    });
    this.#http.on('clientError', (error, socket) => {
      options.log.warn('media.http.client_error', { error: error.message });
      socket.destroy();
    });
  }

  /** Listens on `port` (0: a free one) and resolves once bound. */
  static async start(options: MediaServerOptions, port: number, host = '0.0.0.0'): Promise<MediaServer> {
    const server = new MediaServer(options);
    await new Promise<void>((resolve, reject) => {
      server.#http.once('error', reject);
      server.#http.listen(port, host, () => resolve());
    });
    return server;
  }

  /** The bound port. */
  get port(): number {
    return (this.#http.address() as AddressInfo).port;
  }

  /** True once draining began: `/health` answers 503 and new streams are refused. */
  get draining(): boolean {
    return this.#draining;
  }

  /** Stops taking calls (SIGTERM): the load balancer sees 503, new streams are closed 1013. */
  beginDraining(): void {
    this.#draining = true;
  }

  /**
   * Stops listening and drops every connection still open (call after draining: sessions have
   * closed their streams by then, so what is left is idle keep-alives and streams that never
   * started); resolves once closed.
   */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#http.close(() => resolve()));
    for (const socket of this.#streams) socket.destroy();
    this.#http.closeAllConnections();
    await closed;
  }

  #app(options: MediaServerOptions): Hono {
    const log = options.twilio.log;
    return (
      new Hono()
        // Before any route reads a body (the signature check needs the form): a declared length over
        // the cap is refused without reading a byte, a chunked body once the cap is passed. The
        // connection is closed with the 413, so Node does not go on reading the rest to discard it.
        .use('*', bodyLimit({ maxSize: MAX_REQUEST_BODY_BYTES, onError: (c) => c.text('payload too large', 413, { connection: 'close' }) }))
        .get('/health', (c) => c.json({ active_calls: this.registry.size, draining: this.#draining }, this.#draining ? 503 : 200))
        .route(
          '/',
          twilioRoutes({
            ...options.twilio,
            hasLiveSession: (callId) => this.registry.get(callId) !== undefined,
            onAmd: (callId, answeredBy) => this.registry.get(callId)?.onAmd(answeredBy),
            hasRoom: () => this.admission.hasRoom(),
          }),
        )
        .notFound((c) => c.text('not found', 404))
        .onError((error, c) => {
          log.error(`media http ${c.req.method} ${c.req.path} failed`, { error });
          return c.text('internal error', 500);
        })
    );
  }
}
