import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context, type MiddlewareHandler } from 'hono';

/**
 * What `npm run dev` serves on the API's port besides `/api/v1`: the console (a single-page app
 * built to `console/dist`) at `/`, and the browser client (`web-client/dist`) at `/web-call.js`,
 * `/web-call.mjs` and `/web-call-worklet.js`. The API keeps every path under `/api/`: its own 404s
 * included, never the console's page.
 */

/** The browser client's files, each served at `/<name>`. */
export const WEB_CLIENT_FILES = ['web-call.js', 'web-call.mjs', 'web-call-worklet.js'] as const;

/** Where the site's files are, and the origins its pages may reach besides their own. */
export interface LocalSiteOptions {
  /** The console's build (`console/dist`). */
  consoleDir: string;
  /** The browser client's build (`web-client/dist`). */
  webClientDir: string;
  /** The call engine's public origin in ws form (`ws://127.0.0.1:3001`): web calls and live listening connect there. */
  mediaWsOrigin: string;
  /** Where recording links point, when not the console's own origin (locally the presigned-S3 gate). */
  recordingsOrigin?: string;
}

/** A year: files under `/assets/` have content hashes in their names, so they never change. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The console's Content-Security-Policy: its own scripts and styles only, recordings from their
 * host, sockets to the call engine. Worklets fall under `script-src 'self'` (there is no
 * `worklet-src` directive: Chromium logs an error for one on every page).
 */
export function consolePolicy(options: Pick<LocalSiteOptions, 'mediaWsOrigin' | 'recordingsOrigin'>): string {
  const media = ["'self'", 'blob:', ...(options.recordingsOrigin ? [options.recordingsOrigin] : [])].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `media-src ${media}`,
    `connect-src 'self' ${options.mediaWsOrigin}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

function securityHeaders(policy: string): MiddlewareHandler {
  return async function consoleSecurityHeaders(c, next) {
    await next();
    c.header('Content-Security-Policy', policy);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('X-Frame-Options', 'DENY');
    c.header('Permissions-Policy', 'microphone=(self)');
  };
}

/** `serveStatic` calls `next` when it finds no file; here that means "not served", answered by the caller. */
const nothingElse = async () => undefined;

/** A 503 that says how to build what is missing, instead of a crash or a bare 404. */
const notBuilt = (c: Context, what: string) =>
  c.text(`The ${what} is not built yet: run \`npm run build:web\`, then reload.\n`, 503, { 'Cache-Control': 'no-store' });

/**
 * The local site: `api` under `/api`, the browser client's files (any page may load them: a
 * cross-origin module script or worklet is fetched with CORS, so they carry
 * `Access-Control-Allow-Origin: *`), and the console with the SPA fallback to its `index.html`.
 * Folders are looked up per request, so building while the stack runs needs no restart.
 *
 * @example
 * serve({ fetch: localSite(createApp(deps), { consoleDir, webClientDir, mediaWsOrigin }).fetch, port: 3000 });
 */
export function localSite(api: { fetch: (request: Request, env?: unknown) => Response | Promise<Response> }, options: LocalSiteOptions) {
  const site = new Hono();
  const toApi = (c: Context) => api.fetch(c.req.raw, c.env);
  site.all('/api', toApi);
  site.all('/api/*', toApi);
  site.use('*', securityHeaders(consolePolicy(options)));
  for (const name of WEB_CLIENT_FILES) {
    site.get(`/${name}`, async (c) => {
      if (!existsSync(join(options.webClientDir, name))) return notBuilt(c, 'browser client (web-client/dist)');
      c.header('Access-Control-Allow-Origin', '*');
      c.header('Cache-Control', 'no-cache');
      return (await serveStatic({ root: options.webClientDir, path: name })(c, nothingElse)) ?? c.notFound();
    });
  }
  site.get('*', async (c) => {
    if (!existsSync(join(options.consoleDir, 'index.html'))) return notBuilt(c, 'console (console/dist)');
    const asset = c.req.path.startsWith('/assets/');
    const served = await serveStatic({
      root: options.consoleDir,
      onFound: (_path, found) => void found.header('Cache-Control', asset ? IMMUTABLE : 'no-cache'),
    })(c, nothingElse);
    if (served) return served;
    // A missing build file is a 404: index.html in its place would be refused as a script (nosniff) anyway.
    if (asset) return c.text('Not found.\n', 404);
    // The SPA fallback: any other page is the console's, which routes it in the browser.
    const html = await readFile(join(options.consoleDir, 'index.html'), 'utf8');
    return c.html(html, 200, { 'Cache-Control': 'no-cache' });
  });
  return site;
}
