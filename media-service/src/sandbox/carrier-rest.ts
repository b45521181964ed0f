import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as v from 'valibot';
import { E164_PATTERN } from '../../../shared/domain/phone-number';
import type { CallSetup, SandboxCallRecord } from './carrier-types';
import type { SandboxLine } from './sandbox-numbers';
import type { UtteranceSink } from './scenario-script';
import { SANDBOX_SCENARIO_NAMES } from './scenarios';

/**
 * The REST routes the sandbox serves: the Twilio subset `TwilioTelephony` and `TwilioSms` use plus
 * fetch and list, and sandbox-only routes for developers (start an inbound call, read a call's record, list
 * the texts sent).
 */
export type CarrierRoute =
  | { kind: 'create'; accountSid: string }
  | { kind: 'list'; accountSid: string; resource: 'calls' | 'messages' }
  | { kind: 'update' | 'fetch'; accountSid: string; callSid: string }
  | { kind: 'sandbox-inbound' }
  | { kind: 'sandbox-call'; callSid: string }
  | { kind: 'message-create'; accountSid: string }
  | { kind: 'message-fetch'; accountSid: string; messageSid: string }
  | { kind: 'sandbox-messages' }
  | { kind: 'sandbox-board'; tag: string }
  | { kind: 'unknown' };

const CALLS = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\.json$/;
const CALL = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\/([^/]+)\.json$/;
const SANDBOX_CALL = /^\/sandbox\/calls\/([^/]+)$/;
const SANDBOX_BOARD = /^\/sandbox\/board\/([A-Za-z0-9_-]{1,64})$/;
const MESSAGES = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/;
const MESSAGE = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\/([^/]+)\.json$/;

/** Maps method + path to a route. */
export function routeOf(method: string, pathname: string): CarrierRoute {
  if (pathname === '/sandbox/inbound-calls' && method === 'POST') return { kind: 'sandbox-inbound' };
  const sandboxCall = SANDBOX_CALL.exec(pathname);
  if (sandboxCall && method === 'GET') return { kind: 'sandbox-call', callSid: decodeURIComponent(sandboxCall[1]!) };
  if (pathname === '/sandbox/messages' && method === 'GET') return { kind: 'sandbox-messages' };
  const board = SANDBOX_BOARD.exec(pathname);
  if (board && method === 'POST') return { kind: 'sandbox-board', tag: board[1]! };
  const messages = MESSAGES.exec(pathname);
  if (messages && method === 'POST') return { kind: 'message-create', accountSid: decodeURIComponent(messages[1]!) };
  if (messages && method === 'GET') return { kind: 'list', accountSid: decodeURIComponent(messages[1]!), resource: 'messages' };
  const message = MESSAGE.exec(pathname);
  if (message && method === 'GET')
    return { kind: 'message-fetch', accountSid: decodeURIComponent(message[1]!), messageSid: decodeURIComponent(message[2]!) };
  const calls = CALLS.exec(pathname);
  if (calls && method === 'POST') return { kind: 'create', accountSid: decodeURIComponent(calls[1]!) };
  if (calls && method === 'GET') return { kind: 'list', accountSid: decodeURIComponent(calls[1]!), resource: 'calls' };
  const call = CALL.exec(pathname);
  if (call && (method === 'POST' || method === 'GET')) {
    return {
      kind: method === 'POST' ? 'update' : 'fetch',
      accountSid: decodeURIComponent(call[1]!),
      callSid: decodeURIComponent(call[2]!),
    };
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

/** A request body over the carrier's limit: answered 413, not 500. */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`request body larger than ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/** Reads a request body (at most 64 KiB: a create-call form with 4000 chars of TwiML fits easily). */
export async function readBody(req: IncomingMessage, limit = 65_536): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new BodyTooLargeError(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A date as Twilio writes it: `Fri, 21 Aug 2026 10:00:00 +0000`. */
export function rfc2822(date: Date | undefined): string | null {
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
  // Twilio also dials `client:` and `sip:` addresses; the sandbox network has phone numbers only.
  if (!E164_PATTERN.test(to)) return { status: 400, code: 21211, message: `Invalid 'To' Phone Number: ${to.slice(0, 40)}` };
  if (!from) return { status: 400, code: 21213, message: "No 'From' number is specified" };
  if (!twiml && !url) return { status: 400, code: 21200, message: 'Url, Twiml or ApplicationSid is required' };
  if (twiml && twiml.length > 4000)
    return { status: 400, code: 32018, message: 'Twiml size exceeded maximum allowed value of 4000 characters' };
  const amdUrl = form.get('AsyncAmdStatusCallback');
  const amd = form.get('MachineDetection') && form.get('AsyncAmd') === 'true' && amdUrl;
  const timeLimit = Number(form.get('TimeLimit'));
  const events = form
    .getAll('StatusCallbackEvent')
    .flatMap((value) => value.split(/[\s,]+/))
    .filter(Boolean);
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

/** A Twilio-shaped error to answer (`sendTwilioError`). */
export interface TwilioErrorAnswer {
  status: number;
  code: number;
  message: string;
}

/** `POST /sandbox/inbound-calls` body: who calls which of our numbers, and how the caller behaves. */
export const InboundCallBodySchema = v.strictObject({
  to: v.pipe(v.string(), v.regex(E164_PATTERN)),
  from: v.optional(v.pipe(v.string(), v.regex(E164_PATTERN))),
  scenario: v.optional(v.picklist(SANDBOX_SCENARIO_NAMES)),
});

/** A valid {@link InboundCallBodySchema} body. */
export type InboundCallBody = v.InferOutput<typeof InboundCallBodySchema>;

// Twilio's codes where one fits (21201 no To, 21211 invalid To, 21212 invalid From); 21200 otherwise.
function inboundBodyError(issue: v.BaseIssue<unknown>): TwilioErrorAnswer {
  const key = issue.path?.[0]?.key;
  const value = issue.input;
  if (key === 'to') {
    return value === undefined
      ? { status: 400, code: 21201, message: "No 'to' number is specified" }
      : { status: 400, code: 21211, message: `Invalid 'to' Phone Number: ${JSON.stringify(value)} (E.164, e.g. +15550100001)` };
  }
  if (key === 'from')
    return { status: 400, code: 21212, message: `Invalid 'from' Phone Number: ${JSON.stringify(value)} (E.164, e.g. +14155550100)` };
  if (key === 'scenario')
    return {
      status: 400,
      code: 21200,
      message: `Unknown scenario ${JSON.stringify(value)}: use one of ${SANDBOX_SCENARIO_NAMES.join(', ')}`,
    };
  if (typeof key === 'string')
    return { status: 400, code: 21200, message: `Unknown parameter '${key}': the body takes to, from and scenario` };
  return NOT_AN_OBJECT;
}

const NOT_AN_OBJECT: TwilioErrorAnswer = {
  status: 400,
  code: 21200,
  message: 'The body must be a JSON object: {"to": "+1…", "from"?: "+1…", "scenario"?: "…"}',
};

/** Parses a `POST /sandbox/inbound-calls` body, or says which Twilio-shaped 400 to answer. */
export function parseInboundCallBody(text: string): InboundCallBody | TwilioErrorAnswer {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { status: 400, code: 21200, message: 'The body is not valid JSON' };
  }
  // valibot's object schemas accept arrays; a list here is a client mistake, not a missing `to`.
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return NOT_AN_OBJECT;
  const result = v.safeParse(InboundCallBodySchema, json);
  return result.success ? result.output : inboundBodyError(result.issues[0]);
}

/**
 * The call record for `GET /sandbox/calls/{sid}`: the `SandboxCallRecord` shape (as `carrier.call`
 * returns it), with each stream's audio bytes and per-frame `media` events reduced to counts.
 */
export function sandboxCallView(call: SandboxCallRecord): Record<string, unknown> {
  return {
    ...call,
    streams: call.streams.map(({ audioChunks, received, ...stream }) => ({
      ...stream,
      audioBytes: audioChunks.reduce((sum, chunk) => sum + chunk.length, 0),
      mediaMessages: received.filter((event) => event.event === 'media').length,
      received: received.filter((event) => event.event !== 'media'),
    })),
  };
}

/** `POST /sandbox/board/{tag}` body: a line a caller is about to say (a web call's typed speech). */
const BoardLineSchema = v.object({ text: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(500)) });

/** Parses a `POST /sandbox/board/{tag}` body, or says which Twilio-shaped 400 to answer. */
export function parseBoardLine(text: string): { text: string } | TwilioErrorAnswer {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { status: 400, code: 21200, message: 'The body is not valid JSON' };
  }
  const result = v.safeParse(BoardLineSchema, json);
  return result.success ? result.output : { status: 400, code: 21200, message: 'text must be 1 to 500 characters' };
}

/**
 * `POST /sandbox/board/{tag}` `{text}`: writes a caller's next words on the transcript board under
 * `tag`, as a simulated callee does before it speaks. A web call's typed speech comes here from a
 * call engine in another process (`MEDIA_TASKS`), which has no board of its own (204).
 */
export function answerBoardLine(sink: UtteranceSink | undefined, tag: string, body: string, res: ServerResponse): void {
  if (!sink) return sendTwilioError(res, 400, 21200, 'This sandbox carrier has no transcript board (start it with utterances).');
  const line = parseBoardLine(body);
  if ('code' in line) return sendTwilioError(res, line.status, line.code, line.message);
  sink.push(tag, line.text);
  res.writeHead(204).end();
}
