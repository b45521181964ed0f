import * as v from 'valibot';
import { variablesField } from './assistant-config';
import { idField, stringField, strictDict, timestampField } from './validation';
import { parseWith } from './validation-errors';

/**
 * Web calls (docs/api-tour.md "Web calls"): a browser talks to an assistant over a WebSocket. The
 * API creates the call and a single-use token; the call engine's `/web/calls` socket redeems it.
 */

/** How long a web-call token can be redeemed: long enough to open a socket, short enough that a leaked one is stale. */
export const WEB_CALL_TOKEN_TTL_MS = 60_000;

/** The most origins a business may allow (`web_origins`). */
export const WEB_ORIGINS_MAX = 20;

/** The longest origin accepted. */
export const WEB_ORIGIN_MAX_CHARS = 200;

/** POST /calls/web: the assistant to talk to, and the call's `{{variables}}` (validated as POST /calls validates them). */
export const CreateWebCallBodySchema = strictDict({
  assistant_id: idField(),
  variables: v.optional(variablesField(), {}),
});

/** A validated POST /calls/web body with its defaults. */
export type CreateWebCallInput = v.InferOutput<typeof CreateWebCallBodySchema>;

/** Validates a POST /calls/web body; every invalid field is one 422 item under `body`. */
export function parseCreateWebCallBody(input: unknown): CreateWebCallInput {
  return parseWith(CreateWebCallBodySchema, input, ['body']);
}

/** The POST /calls/web answer: where the browser connects and the token it sends first. */
export const WebCallSchema = strictDict({
  call_id: idField(),
  url: v.pipe(v.string(), v.description('The WebSocket to open (`ws://` or `wss://`, path `/web/calls`).')),
  token: v.pipe(
    v.string(),
    v.description(
      'Send it as the first message, `{"type":"start","token":…}`. Single use, valid 60 s; shown only here (the call stores its SHA-256).',
    ),
  ),
  expires_at: v.pipe(timestampField(), v.description('When the token stops working: 60 s after it was issued.')),
});

/** A created web call, as POST /calls/web returns it. */
export type WebCall = v.InferOutput<typeof WebCallSchema>;

/** `web_origins` in PATCH /business: each entry is checked and normalised by {@link normalizeOrigin}. */
export function webOriginsField() {
  return v.pipe(
    v.array(stringField({ min: 1, max: WEB_ORIGIN_MAX_CHARS })),
    v.maxLength(WEB_ORIGINS_MAX),
    v.description(
      `Web pages (origins, \`scheme://host[:port]\`, http or https, no path) that may start web calls with this business's tokens; at most ${WEB_ORIGINS_MAX}. ` +
        "Stored lowercase without a default port, duplicates removed. The console's own origin is always allowed. `[]` (the default): the console only.",
    ),
    v.metadata({ examples: [['https://shop.example.com', 'http://localhost:8080']] }),
  );
}

const ORIGIN_PATTERN = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/(.*)$/;
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const HOST_PATTERN = new RegExp(`^(?:${LABEL}(?:\\.${LABEL})*|\\[[0-9a-f:.]+\\])$`);
const DEFAULT_PORTS: Record<string, string> = { http: '80', https: '443' };

/**
 * An origin as a browser sends it in `Origin` (RFC 6454): scheme and host lowercase, the port only
 * when not the scheme's default. A string that is not such an origin gives `{ error }`, said so a
 * person can fix it.
 *
 * @example
 * normalizeOrigin('HTTPS://Shop.Example.com:443'); // { origin: 'https://shop.example.com' }
 */
export function normalizeOrigin(text: string): { origin: string } | { error: string } {
  const match = ORIGIN_PATTERN.exec(text);
  if (!match) return { error: 'not an origin: write scheme://host[:port], e.g. https://shop.example.com' };
  const scheme = match[1]!.toLowerCase();
  // The address bar's form (`https://shop.example.com/`): a lone trailing slash is no path.
  const rest = match[2]!.replace(/\/$/, '');
  if (scheme !== 'http' && scheme !== 'https') return { error: 'the scheme must be http or https' };
  if (rest.includes('@')) return { error: 'an origin has no user name or password' };
  if (/[/?#]/.test(rest)) return { error: 'an origin has no path, query or fragment' };
  const hostPort = /^(.*?)(?::(\d{1,5}))?$/.exec(rest)!;
  const host = hostPort[1]!.toLowerCase();
  const port = hostPort[2];
  if (!HOST_PATTERN.test(host)) return { error: 'the host must be a domain name or an IP address' };
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65_535)) return { error: 'the port must be 1 to 65535' };
  const portText = port === undefined || String(Number(port)) === DEFAULT_PORTS[scheme] ? '' : `:${Number(port)}`;
  return { origin: `${scheme}://${host}${portText}` };
}
