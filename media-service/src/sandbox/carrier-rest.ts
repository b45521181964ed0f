import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallSetup, SandboxCallRecord } from './carrier-types';
import type { SandboxLine } from './sandbox-numbers';

/** The REST routes the sandbox serves (the subset `TwilioTelephony` uses, plus fetch). */
export type CarrierRoute =
  | { kind: 'create'; accountSid: string }
  | { kind: 'update' | 'fetch'; accountSid: string; callSid: string }
  | { kind: 'unknown' };

const CALLS = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\.json$/;
const CALL = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\/([^/]+)\.json$/;

/** Maps method + path to a route. */
export function routeOf(method: string, pathname: string): CarrierRoute {
  const calls = CALLS.exec(pathname);
  if (calls && method === 'POST') return { kind: 'create', accountSid: decodeURIComponent(calls[1]!) };
  const call = CALL.exec(pathname);
  if (call && (method === 'POST' || method === 'GET')) {
    return { kind: method === 'POST' ? 'update' : 'fetch', accountSid: decodeURIComponent(call[1]!), callSid: decodeURIComponent(call[2]!) };
  }
  return { kind: 'unknown' };
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** HTTP Basic `AccountSid:AuthToken`, compared in constant time. */
export function isAuthorized(header: string | undefined, accountSid: string, authToken: string): boolean {
  const encoded = /^Basic\s+(\S+)$/i.exec(header ?? '')?.[1];
  if (!encoded) return false;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return false;
  return same(decoded.slice(0, colon), accountSid) && same(decoded.slice(colon + 1), authToken);
}

/** Writes a Twilio-shaped error body (`{code, message, more_info, status}`). */
export function sendTwilioError(res: ServerResponse, status: number, code: number, message: string): void {
  const body = JSON.stringify({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (status === 401) headers['www-authenticate'] = 'Basic realm="Twilio API"';
  res.writeHead(status, headers).end(body);
}

/** Writes JSON with a status. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** Reads a request body (at most 64 KiB: a create-call form with 4000 chars of TwiML fits easily). */
export async function readBody(req: IncomingMessage, limit = 65_536): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new Error('request body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function rfc2822(date: Date | undefined): string | null {
  return date ? date.toUTCString().replace('GMT', '+0000') : null;
}

/** The call as Twilio's REST API returns it (the fields clients read). */
export function callResource(call: SandboxCallRecord): Record<string, unknown> {
  const at = (ms: number | undefined) => (ms === undefined ? undefined : new Date(call.createdAt.getTime() + ms));
  return {
    sid: call.sid,
    account_sid: call.accountSid,
    to: call.to,
    from: call.from,
    status: call.status,
    direction: call.direction,
    answered_by: call.amd?.answeredBy ?? null,
    date_created: rfc2822(call.createdAt),
    date_updated: rfc2822(at(call.statusHistory.at(-1)?.atMs)),
    start_time: rfc2822(at(call.answeredAtMs)),
    end_time: rfc2822(at(call.endedAtMs)),
    duration: call.durationS === undefined ? null : String(call.durationS),
    parent_call_sid: null,
    price: null,
    price_unit: 'USD',
    api_version: '2010-04-01',
    uri: `/2010-04-01/Accounts/${call.accountSid}/Calls/${call.sid}.json`,
  };
}

const METHOD = (value: string | null): 'GET' | 'POST' => (value?.toUpperCase() === 'GET' ? 'GET' : 'POST');

/** A create-call form → call setup, or the Twilio error to answer. */
export function setupFromForm(form: URLSearchParams, line: SandboxLine): CallSetup | { status: number; code: number; message: string } {
  const to = form.get('To');
  const from = form.get('From');
  const twiml = form.get('Twiml') ?? undefined;
  const url = form.get('Url') ?? undefined;
  if (!to) return { status: 400, code: 21201, message: "No 'To' number is specified" };
  if (!from) return { status: 400, code: 21213, message: "No 'From' number is specified" };
  if (!twiml && !url) return { status: 400, code: 21200, message: 'Url, Twiml or ApplicationSid is required' };
  if (twiml && twiml.length > 4000) return { status: 400, code: 32018, message: 'Twiml size exceeded maximum allowed value of 4000 characters' };
  const amdUrl = form.get('AsyncAmdStatusCallback');
  const amd = form.get('MachineDetection') && form.get('AsyncAmd') === 'true' && amdUrl;
  const timeLimit = Number(form.get('TimeLimit'));
  const events = form.getAll('StatusCallbackEvent').flatMap((value) => value.split(/[\s,]+/)).filter(Boolean);
  const statusCallback = form.get('StatusCallback') ?? undefined;
  return {
    direction: 'outbound-api',
    to,
    from,
    // Twilio: "if both are given, Twiml is ignored".
    ...(url ? { url } : { twiml: twiml! }),
    method: METHOD(form.get('Method')),
    ...(statusCallback && { statusCallback }),
    statusCallbackMethod: METHOD(form.get('StatusCallbackMethod')),
    statusEvents: new Set(events.length > 0 ? events : ['completed']),
    ...(amd && { amdCallback: { url: amdUrl, method: METHOD(form.get('AsyncAmdStatusCallbackMethod')) } }),
    timeoutS: Math.min(600, Math.max(1, Number(form.get('Timeout')) || 60)),
    ...(timeLimit > 0 && { timeLimitS: timeLimit }),
    line,
  };
}
