import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { bareHostname, resolveAndCheck, type CheckedTarget, type LookupAll } from './ssrf';

/** What {@link guardedFetch} sends: a method, plain headers and an already-serialised body. */
export interface GuardedRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** An extra cancellation source, combined with the timeout. */
  signal?: AbortSignal;
}

/** Where {@link guardedFetch} may connect, and how long it may take. */
export interface GuardedFetchOptions {
  /** The explicit local-development setting (see `UrlPolicy`); off in production. */
  allowPrivate: boolean;
  /** Refuse plain http. Defaults to `!allowPrivate`: production is https-only, local receivers are http. */
  requireHttps?: boolean;
  /** Whole-request budget: resolution, connect, TLS, response and body. */
  timeoutMs: number;
  /** Resolver, injectable for tests; defaults to the system resolver. */
  lookup?: LookupAll;
  /** Response bytes kept; the rest is discarded and the connection closed. Default 64 KiB. */
  maxBodyBytes?: number;
}

/** A response as received; 3xx included (redirects are never followed). */
export interface GuardedResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The body decoded as UTF-8, cut at `maxBodyBytes`. */
  bodyText: string;
  bodyTruncated: boolean;
  /** The same body as bytes (a PDF is not UTF-8). */
  bodyBytes?: Buffer;
  latencyMs: number;
}

/** The request ran out of its time budget. */
export class RequestTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`request timed out after ${timeoutMs} ms`);
    this.name = 'RequestTimeoutError';
  }
}

/** The connection closed after the response's head, before its body ended. */
export class IncompleteResponseError extends Error {
  constructor() {
    super('the connection closed before the response ended');
    this.name = 'IncompleteResponseError';
  }
}

const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/** Headers this module sets itself: a caller's copy (any case) would be sent twice or contradict the URL. */
const OWN_HEADERS = new Set(['host', 'content-length']);

export function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function readCapped(response: IncomingMessage, maxBytes: number): Promise<{ text: string; bytes: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (truncated: boolean) => {
      const bytes = Buffer.concat(chunks);
      resolve({ text: bytes.toString('utf8'), bytes, truncated });
    };
    response.on('data', (chunk: Buffer) => {
      const room = maxBytes - size;
      chunks.push(chunk.subarray(0, Math.max(room, 0)));
      size += Math.min(chunk.length, Math.max(room, 0));
      if (chunk.length > room) {
        response.destroy();
        finish(true);
      }
    });
    response.on('end', () => finish(false));
    response.on('error', reject);
    response.on('close', () => {
      if (!response.complete) reject(new IncompleteResponseError());
    });
  });
}

/** What {@link openPinned} sends: method, plain headers, and a body already in memory. */
export interface PinnedRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/**
 * Opens the connection to the checked ADDRESS, not to the name: the socket's host is the IP
 * literal, so Node performs no DNS lookup at all (net skips `lookup` for literals), which closes the
 * DNS-rebinding window between check and connect. The name still travels where it must: in the
 * `Host` header, and for https as the TLS SNI `servername`, which is also the name the certificate
 * is verified against. `agent: false` keeps every request on a fresh socket, so no pooled connection
 * made for another target is ever reused. Node's http client never follows redirects: a 3xx is the
 * response. Resolves with the response head; its body is the caller's to read or destroy.
 */
export function openPinned(target: CheckedTarget, init: PinnedRequest, signal: AbortSignal): Promise<IncomingMessage> {
  const { url, address } = target;
  const secure = url.protocol === 'https:';
  const name = bareHostname(url);
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(init.headers)) {
    if (!OWN_HEADERS.has(key.toLowerCase())) headers[key] = value;
  }
  headers.host = url.host;
  if (init.body !== undefined) headers['content-length'] = String(Buffer.byteLength(init.body));
  const options = {
    host: address,
    port: url.port === '' ? (secure ? 443 : 80) : Number(url.port),
    path: `${url.pathname}${url.search}`,
    method: init.method,
    headers,
    agent: false as const,
    signal,
    ...(secure && isIP(name) === 0 ? { servername: name } : {}),
  };
  return new Promise<IncomingMessage>((resolve, reject) => {
    const request = (secure ? httpsRequest : httpRequest)(options, resolve);
    request.on('error', reject);
    request.end(init.body);
  });
}

/** Sends through {@link openPinned} and reads the body up to `maxBytes`. */
async function requestPinned(target: CheckedTarget, init: GuardedRequestInit, signal: AbortSignal, maxBytes: number) {
  const response = await openPinned(
    target,
    { method: init.method ?? 'GET', headers: init.headers ?? {}, ...(init.body !== undefined && { body: init.body }) },
    signal,
  );
  const { text, bytes, truncated } = await readCapped(response, maxBytes);
  return { status: response.statusCode ?? 0, headers: flattenHeaders(response.headers), text, bytes, truncated };
}

/**
 * An HTTP client for URLs our customers control (webhook receivers, custom LLM endpoints, tool
 * servers), per docs/design.md "Cloud architecture": the URL is re-checked, the name resolved once with every
 * address checked, and the connection made to that checked address (see `requestPinned` above for why
 * node:http(s) with an IP-literal host was chosen over an undici dispatcher: it involves no lookup
 * hook at all, so neither the literal-IP gap nor Happy Eyeballs re-resolution can apply).
 * Redirects are never followed: a 3xx comes back as the response. One timeout bounds everything.
 *
 * @throws BlockedUrlError when the SSRF guard refuses the URL or an address it resolves to.
 * @throws RequestTimeoutError when `timeoutMs` passes first; network errors are rethrown as they are.
 * @example
 * const res = await guardedFetch(url, { method: 'POST', headers, body }, { allowPrivate: false, timeoutMs: 10_000 });
 */
export async function guardedFetch(url: string, init: GuardedRequestInit, options: GuardedFetchOptions): Promise<GuardedResponse> {
  const started = performance.now();
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = init.signal === undefined ? timeout : AbortSignal.any([init.signal, timeout]);
  const policy = { allowPrivate: options.allowPrivate, requireHttps: options.requireHttps ?? !options.allowPrivate };
  try {
    const target = await abortable(resolveAndCheck(url, policy, options.lookup), signal);
    const response = await requestPinned(target, init, signal, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
    const latencyMs = Math.round(performance.now() - started);
    return {
      status: response.status,
      headers: response.headers,
      bodyText: response.text,
      bodyTruncated: response.truncated,
      bodyBytes: response.bytes,
      latencyMs,
    };
  } catch (error) {
    if (timeout.aborted) throw new RequestTimeoutError(options.timeoutMs);
    throw error;
  }
}
