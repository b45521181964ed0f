import type { IncomingMessage } from 'node:http';
import { Readable, Transform } from 'node:stream';
import { abortable, flattenHeaders, openPinned } from './guarded-fetch';
import { resolveAndCheck, type LookupAll, type UrlPolicy } from './ssrf';

/** Where a {@link pinnedFetch} may connect. */
export interface PinnedFetchOptions {
  policy: UrlPolicy;
  /** Resolver, injectable for tests; defaults to the system resolver. */
  lookup?: LookupAll;
  /** Response bytes a request may stream before it is cut (default 16 MiB). */
  maxResponseBytes?: number;
}

/** A URL the business controls answered a redirect: it is refused, never followed. */
export class RedirectRefusedError extends Error {
  constructor(readonly status: number) {
    super(`the server answered a redirect (HTTP ${status}); redirects to other addresses are not followed`);
    this.name = 'RedirectRefusedError';
  }
}

/** A streamed response grew past its bound. */
export class ResponseTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the response passed ${maxBytes} bytes and was cut`);
    this.name = 'ResponseTooLargeError';
  }
}

/** 16 MiB: a long streamed completion is well under 2 MiB of SSE. */
const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/**
 * A WHATWG `fetch` for vendor SDKs (the OpenAI client on a business's `custom_url`) that goes
 * through the same SSRF guard and pinned connection as `guardedFetch`: each request checks the
 * URL, resolves the name once with every address checked, and connects to that address (Host and
 * TLS SNI keep the name). Unlike `guardedFetch` it streams the body (server-sent events) instead of
 * reading it whole, bounded by `maxResponseBytes`. A 3xx is refused with {@link RedirectRefusedError}
 * and its body is never read, so a redirect can neither be followed nor echoed into an error.
 *
 * @example
 * new OpenAI({ baseURL: customUrl, apiKey, fetch: pinnedFetch({ policy: { allowPrivate: false, requireHttps: true } }) });
 */
export function pinnedFetch(options: PinnedFetchOptions): typeof fetch {
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  return async function fetchPinned(input, init) {
    const request = new Request(input, init);
    const signal = request.signal;
    const target = await abortable(resolveAndCheck(request.url, options.policy, options.lookup), signal);
    const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
    const headers = Object.fromEntries(request.headers.entries());
    const response = await openPinned(target, { method: request.method, headers, ...(body && { body }) }, signal);
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400) {
      response.destroy();
      throw new RedirectRefusedError(status);
    }
    return toResponse(response, status, maxBytes);
  };
}

/** The Node response as a WHATWG Response whose body streams, cut at `maxBytes`. */
function toResponse(response: IncomingMessage, status: number, maxBytes: number): Response {
  const headers = new Headers(flattenHeaders(response.headers));
  if (status === 204 || status === 304 || status < 200) {
    response.resume();
    return new Response(null, { status, headers });
  }
  let seen = 0;
  const bounded = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > maxBytes) return done(new ResponseTooLargeError(maxBytes));
      done(null, chunk);
    },
  });
  response.on('error', (error) => bounded.destroy(error));
  bounded.on('error', () => response.destroy());
  response.pipe(bounded);
  return new Response(Readable.toWeb(bounded) as ReadableStream<Uint8Array>, { status, statusText: response.statusMessage ?? '', headers });
}
