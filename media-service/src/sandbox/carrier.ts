import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PacerScheduler } from '../pipeline/pacer-scheduler';
import { SandboxCall } from './carrier-call';
import {
  BodyTooLargeError,
  callResource,
  isAuthorized,
  parseInboundCallBody,
  answerBoardLine,
  readBody,
  routeOf,
  sandboxCallView,
  sendJson,
  sendTwilioError,
  setupFromForm,
} from './carrier-rest';
import {
  DEFAULT_CARRIER_TIMING,
  REAL_CARRIER_TIMERS,
  type CallSetup,
  type CarrierTimers,
  type CarrierTiming,
  type InboundCallRequest,
  type SandboxCallRecord,
} from './carrier-types';
import { twilioSid } from './carrier-wire';
import { messageResource, SandboxMessages, type SandboxMessageRecord } from './carrier-messages';
import { sandboxFaultField, sandboxLineFor, type SandboxLine } from './sandbox-numbers';
import { CreateRefusals } from './carrier-refusals';
import { answerListPage, filterMatches } from './carrier-lists';
import { DEFAULT_CALLEE, SANDBOX_SCENARIOS } from './scenarios';
import type { Scenario, UtteranceSink } from './scenario-script';
import { createLogger, type Logger } from '../../../shared/log';
import { listenSandbox } from './listen';

export type { InboundCallRequest } from './carrier-types';
import { newSandboxAuthToken, SANDBOX_ACCOUNT_SID } from './carrier-wire';
export { newSandboxAuthToken, SANDBOX_ACCOUNT_SID };

/** A scenario to play, or a whole line behaviour (busy, no-answer, failed, answer with a scenario). */
export type ScenarioOrLine = Scenario | SandboxLine;

/** Options for {@link SandboxCarrier}. */
export interface SandboxCarrierOptions {
  /** The sandbox account; REST calls must authenticate as `accountSid:authToken` (default token: random). */
  accountSid?: string;
  /** Also the key every callback, webhook and stream upgrade is signed with (X-Twilio-Signature). */
  authToken?: string;
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Where callees announce their utterances (the sandbox STT's `TranscriptBoard`). */
  utterances?: UtteranceSink;
  timing?: Partial<CarrierTiming>;
  /** The shared 20 ms media ticker; one per process is plenty for 100+ calls. */
  scheduler?: PacerScheduler;
  /** One-shot timers for network progress (default: Node's). */
  timers?: CarrierTimers;
  /** Per-call hook: return a scenario (or line) for a dialled number, or undefined for the default table. */
  scenarioFor?: (to: string, from: string) => ScenarioOrLine | undefined;
  /** Timeout of each callback/webhook request; default 5 s. */
  callbackTimeoutMs?: number;
  log?: Logger;
  /**
   * Our voice webhook, as a Twilio number's configured VoiceUrl: where `POST /sandbox/inbound-calls`
   * rings (`<mediaUrl>/twilio/voice`). Without it that route answers 400.
   */
  voiceUrl?: string;
  /** The number's Voice Fallback URL: requested (with `ErrorCode`, `ErrorUrl`) when `voiceUrl` fails. */
  voiceFallbackUrl?: string;
}

/** Who calls when `POST /sandbox/inbound-calls` names no `from` (555-01xx: a fictional number). */
export const SANDBOX_DEFAULT_CALLER = '+14155550100';

/**
 * The sandbox phone network (docs/design.md "The local stack"): an HTTP server speaking the Twilio REST subset
 * (`POST|GET /2010-04-01/Accounts/{Sid}/Calls.json`, `POST|GET …/Calls/{CallSid}.json`, Basic auth,
 * Twilio-shaped JSON, list pages and errors) that simulates each call: signed status callbacks,
 * async AMD, and a simulated callee over a real Media Streams WebSocket to the `<Stream url>`.
 * Point `TwilioTelephony` (or the `twilio` SDK, docs/protocols.md "Pointing the SDKs") at `baseUrl`.
 * Special numbers are in `sandbox-numbers.ts`; `registerScenario` and `scenarioFor` override them
 * per number. Every call is observable through `call(sid)` while and after it runs.
 * Texts: `POST|GET …/Messages.json` send and list texts as Twilio does (carrier-messages.ts).
 *
 * Sandbox-only routes (same Basic auth) let a developer drive it from outside the process:
 * `POST /sandbox/inbound-calls` `{to, from?, scenario?}` rings `voiceUrl` (201 `{call_sid}`),
 * `GET /sandbox/calls/{CallSid}` returns the call's record without audio bytes, and
 * `GET /sandbox/messages?to=&from=&limit=` the texts sent (`{messages}`, oldest first, at most 100).
 *
 * @example
 * ```ts
 * const carrier = await SandboxCarrier.start({ utterances: board });
 * const telephony = new TwilioTelephony({ accountSid: carrier.accountSid, authToken: carrier.authToken, baseUrl: carrier.baseUrl });
 * const { callSid } = await telephony.placeCall({ to: '+15550100123', … });
 * const call = await carrier.whenEnded(callSid);
 * ```
 */
export class SandboxCarrier {
  readonly accountSid: string;
  readonly authToken: string;
  readonly #options: SandboxCarrierOptions;
  readonly #http: Server;
  readonly #scheduler: PacerScheduler;
  readonly #timing: CarrierTiming;
  readonly #calls = new Map<string, SandboxCall>();
  readonly #registry = new Map<string, ScenarioOrLine>();
  readonly #refusals = new CreateRefusals();
  readonly #log: NonNullable<SandboxCarrierOptions['log']>;
  readonly #messages: SandboxMessages;

  private constructor(options: SandboxCarrierOptions) {
    this.#options = options;
    this.accountSid = options.accountSid ?? SANDBOX_ACCOUNT_SID;
    this.authToken = options.authToken ?? newSandboxAuthToken();
    this.#scheduler = options.scheduler ?? new PacerScheduler({ tickMs: 20 });
    this.#timing = { ...DEFAULT_CARRIER_TIMING, ...options.timing };
    this.#log = options.log ?? createLogger({ service: 'sandbox' });
    this.#messages = new SandboxMessages({
      accountSid: this.accountSid,
      authToken: this.authToken,
      callbackTimeoutMs: options.callbackTimeoutMs ?? 5000,
    });
    this.#http = createServer((req, res) => void this.#handle(req, res));
  }

  /** Starts listening; resolves once the port is bound. */
  static async start(options: SandboxCarrierOptions = {}): Promise<SandboxCarrier> {
    const carrier = new SandboxCarrier(options);
    await listenSandbox(carrier.#http, options);
    return carrier;
  }

  /** `http://host:port`: the `baseUrl` for `TwilioTelephony`. */
  get baseUrl(): string {
    const address = this.#http.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host}:${address.port}`;
  }

  /** Makes calls to `number` play `scenario` (or behave as `line`) until cleared. */
  registerScenario(number: string, scenario: ScenarioOrLine): void {
    this.#registry.set(number, scenario);
  }

  /** Removes a registration made with `registerScenario`. */
  clearScenario(number: string): void {
    this.#registry.delete(number);
  }

  /** The live record of a call (undefined for an unknown SID). */
  call(callSid: string): SandboxCallRecord | undefined {
    return this.#calls.get(callSid)?.record;
  }

  /** Every call so far, oldest first. */
  calls(): SandboxCallRecord[] {
    return [...this.#calls.values()].map((call) => call.record);
  }

  /** The texts sent through this carrier (the last 1000), oldest first; only those to/from a number when given. */
  messages(filter: { to?: string; from?: string } = {}): SandboxMessageRecord[] {
    return this.#messages.list(filter);
  }

  /**
   * Resolves with the call's record once `predicate` holds (checked every 5 ms of real time);
   * rejects after `timeoutMs`. For tests and demos.
   */
  waitFor(callSid: string, predicate: (call: SandboxCallRecord) => boolean, timeoutMs = 10_000): Promise<SandboxCallRecord> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const check = () => {
        const record = this.call(callSid);
        if (record && predicate(record)) return void resolve(record);
        if (Date.now() - started > timeoutMs)
          return void reject(
            new Error(`sandbox call ${callSid}: condition not met within ${timeoutMs} ms (status ${record?.status ?? 'unknown'})`),
          );
        setTimeout(check, 5);
      };
      check();
    });
  }

  /** Resolves once the call is in a terminal status. */
  whenEnded(callSid: string, timeoutMs = 30_000): Promise<SandboxCallRecord> {
    return this.waitFor(callSid, (call) => call.endedAtMs !== undefined, timeoutMs);
  }

  /**
   * A simulated person calls `to`: the signed voice webhook is POSTed to `voiceUrl` (CallStatus
   * `ringing`, Direction `inbound`), its TwiML is executed (usually `<Connect><Stream>`).
   */
  startInboundCall(request: InboundCallRequest): { callSid: string } {
    const statusEvents = new Set(request.statusEvents ?? ['initiated', 'ringing', 'answered', 'completed']);
    const setup: CallSetup = {
      direction: 'inbound',
      to: request.to,
      from: request.from,
      url: request.voiceUrl,
      ...(request.voiceFallbackUrl && { fallbackUrl: request.voiceFallbackUrl }),
      method: request.voiceMethod ?? 'POST',
      ...(request.statusCallbackUrl && { statusCallback: request.statusCallbackUrl }),
      statusCallbackMethod: 'POST',
      statusEvents,
      timeoutS: 60,
      // A caller from a fault number brings its provider fault along (`admin call-in --from`).
      line: { kind: 'answer', scenario: request.scenario ?? DEFAULT_CALLEE, ...sandboxFaultField(request.from) },
    };
    return { callSid: this.#open(setup).record.sid };
  }

  /** The simulated person hangs up now (as if the callee pressed the red button). */
  hangup(callSid: string): void {
    this.#calls.get(callSid)?.hangup('callee');
  }

  /** Ends every live call (stream `stop`, `completed`) and closes the server. */
  async close(): Promise<void> {
    for (const call of this.#calls.values()) if (!call.ended) call.hangup('carrier');
    this.#http.closeAllConnections();
    await new Promise<void>((resolve) => this.#http.close(() => resolve()));
  }

  #open(setup: CallSetup): SandboxCall {
    const call = new SandboxCall(twilioSid('CA'), setup, {
      accountSid: this.accountSid,
      authToken: this.authToken,
      scheduler: this.#scheduler,
      timers: this.#options.timers ?? REAL_CARRIER_TIMERS,
      timing: this.#timing,
      ...(this.#options.utterances && { utterances: this.#options.utterances }),
      callbackTimeoutMs: this.#options.callbackTimeoutMs ?? 5000,
      log: this.#log,
    });
    this.#calls.set(call.record.sid, call);
    call.start();
    return call;
  }

  #lineFor(to: string, from: string): SandboxLine {
    const chosen = this.#registry.get(to) ?? this.#options.scenarioFor?.(to, from);
    if (!chosen) return sandboxLineFor(to);
    return 'kind' in chosen ? chosen : { kind: 'answer', scenario: chosen };
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const route = routeOf(req.method ?? 'GET', new URL(req.url ?? '/', 'http://sandbox').pathname);
      if (!isAuthorized(req.headers.authorization, this.accountSid, this.authToken))
        return sendTwilioError(res, 401, 20003, 'Authenticate');
      if (route.kind === 'sandbox-inbound') return this.#sandboxInbound(await readBody(req), res);
      if (route.kind === 'sandbox-call') return this.#sandboxCall(route.callSid, res);
      if (route.kind === 'sandbox-board') return answerBoardLine(this.#options.utterances, route.tag, await readBody(req), res);
      if (route.kind === 'sandbox-messages') return this.#messages.answerList(new URL(req.url ?? '/', 'http://sandbox').searchParams, res);
      if (route.kind === 'unknown' || route.accountSid !== this.accountSid)
        return sendTwilioError(res, 404, 20404, 'The requested resource was not found');
      if (route.kind === 'message-fetch') return this.#messages.answerFetch(route.messageSid, res);
      if (route.kind === 'list') return this.#list(route.resource, new URL(req.url ?? '/', 'http://sandbox').searchParams, res);
      const form = new URLSearchParams(await readBody(req));
      if (route.kind === 'message-create') return this.#messages.answerCreate(form, res);
      if (route.kind === 'create') return this.#create(form, res);
      const call = this.#calls.get(route.callSid);
      if (!call)
        return sendTwilioError(
          res,
          404,
          20404,
          `The requested resource /2010-04-01/Accounts/${route.accountSid}/Calls/${route.callSid}.json was not found`,
        );
      if (route.kind === 'update') return this.#update(call, form, res);
      sendJson(res, 200, callResource(call.record));
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        if (!res.headersSent) sendTwilioError(res, 413, 20413, `The request body is larger than ${error.limit} bytes`);
        return;
      }
      this.#log.error('sandbox.carrier.request_failed', { error: String(error) });
      if (!res.headersSent) sendTwilioError(res, 500, 20500, 'Internal Server Error');
    }
  }

  #sandboxInbound(body: string, res: ServerResponse): void {
    const voiceUrl = this.#options.voiceUrl;
    if (!voiceUrl)
      return sendTwilioError(res, 400, 21200, 'This sandbox carrier has no voice webhook configured (start it with voiceUrl).');
    const input = parseInboundCallBody(body);
    if ('code' in input) return sendTwilioError(res, input.status, input.code, input.message);
    const scenario = SANDBOX_SCENARIOS[input.scenario ?? 'default'];
    const { callSid } = this.startInboundCall({
      to: input.to,
      from: input.from ?? SANDBOX_DEFAULT_CALLER,
      voiceUrl,
      ...(this.#options.voiceFallbackUrl && { voiceFallbackUrl: this.#options.voiceFallbackUrl }),
      scenario,
    });
    sendJson(res, 201, { call_sid: callSid });
  }

  #sandboxCall(callSid: string, res: ServerResponse): void {
    const call = this.#calls.get(callSid);
    if (!call) return sendTwilioError(res, 404, 20404, `The requested resource /sandbox/calls/${callSid} was not found`);
    sendJson(res, 200, sandboxCallView(call.record));
  }

  #create(form: URLSearchParams, res: ServerResponse): void {
    const to = form.get('To') ?? '';
    const refused = this.#registry.has(to) ? undefined : this.#refusals.refusal(to, form.get('From') ?? '');
    if (refused) return sendTwilioError(res, refused.status, refused.code, refused.message);
    const setup = setupFromForm(form, this.#lineFor(form.get('To') ?? '', form.get('From') ?? ''));
    if ('code' in setup) return sendTwilioError(res, setup.status, setup.code, setup.message);
    const call = this.#open(setup);
    sendJson(res, 201, callResource({ ...call.record, status: 'queued' }));
  }

  /** `GET …/Calls.json` (To, From, Status) and `GET …/Messages.json` (To, From): Twilio's list pages, newest first. */
  #list(resource: 'calls' | 'messages', query: URLSearchParams, res: ServerResponse): void {
    const path = `/2010-04-01/Accounts/${this.accountSid}/${resource === 'calls' ? 'Calls' : 'Messages'}.json`;
    const byParties = (record: { to: string; from: string }) =>
      filterMatches(query, 'To', record.to) && filterMatches(query, 'From', record.from);
    if (resource === 'messages')
      return answerListPage({ path, key: resource, records: this.#messages.list(), matches: byParties, view: messageResource }, query, res);
    const records = this.calls();
    const matches = (call: SandboxCallRecord) => byParties(call) && filterMatches(query, 'Status', call.status);
    answerListPage({ path, key: resource, records, matches, view: callResource }, query, res);
  }

  #update(call: SandboxCall, form: URLSearchParams, res: ServerResponse): void {
    const status = form.get('Status');
    const twiml = form.get('Twiml');
    if (status === 'completed' || (status === 'canceled' && call.record.answeredAtMs === undefined)) {
      call.hangup('api');
    } else if (twiml) {
      if (call.ended) return sendTwilioError(res, 400, 21220, 'Call is not in-progress. Cannot redirect.');
      call.redirect(twiml);
    } else if (form.get('Url')) {
      return sendTwilioError(res, 400, 21200, 'The sandbox carrier redirects live calls with Twiml only, not Url.');
    }
    sendJson(res, 200, callResource(call.record));
  }
}
