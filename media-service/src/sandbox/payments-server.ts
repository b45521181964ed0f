import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { currencyDecimals } from '../../../shared/domain/payment-amount';
import { readBody } from './carrier-rest';
import { listParams, parseBracketForm, sessionParams, stripeError, WireError } from './payments-wire';

/**
 * The key every business uses in the local stack until it sets its own (docs/api-tour.md "Payment links"):
 * a test key of the sandbox payment server, which accepts any `sk_test_` key.
 */
export const SANDBOX_PAYMENT_KEY = 'sk_test_sandbox_local';

/** A Checkout Session as the sandbox keeps it and Stripe returns it (the fields this platform reads, and a few more). */
export interface SandboxCheckoutSession {
  id: string;
  object: 'checkout.session';
  url: string | null;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  livemode: false;
  mode: 'payment';
  amount_total: number;
  currency: string;
  /** The line item's product name (Stripe keeps it on the line item; here for the page and tests). */
  description: string;
  expires_at: number;
  created: number;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  success_url: string | null;
  ui_mode: 'hosted';
}

/** Options of {@link PaymentsSandboxServer.start}. */
export interface PaymentsSandboxOptions {
  host?: string;
  port?: number;
  /** Seconds since the epoch (tests may move it). */
  nowS?: () => number;
}

/** At most this many sessions (and idempotency records) are kept; the oldest go first. */
const MAX_KEPT = 10_000;
const SESSION_PATH = /^\/v1\/checkout\/sessions\/(cs_test_[A-Za-z0-9]{1,64})$/;
const EXPIRE_PATH = /^\/v1\/checkout\/sessions\/(cs_test_[A-Za-z0-9]{1,64})\/expire$/;
const PAY_PATH = /^\/pay\/(cs_test_[A-Za-z0-9]{1,64})$/;

type Kept = { account: string; session: SandboxCheckoutSession };
type Replay = { fingerprint: string; status: number; body: unknown };

/**
 * A local Stripe for payment links: the Checkout Session routes stripe-node calls (create,
 * retrieve, list, expire; pointed here with `host`/`port`/`protocol: 'http'`), with Bearer `sk_test_` auth, `Idempotency-Key` replays,
 * `Request-Id` and Stripe's error envelope (`Stripe-Should-Retry: false` on 4xx), and a working
 * payment page: `GET /pay/:id` shows the amount and description, its button (`POST /pay/:id`) pays
 * it. Sessions are per key, as Stripe accounts are; `GET /sandbox/checkout-sessions` lists them all.
 */
export class PaymentsSandboxServer {
  readonly #http: Server;
  readonly #sessions = new Map<string, Kept>();
  readonly #replays = new Map<string, Replay>();
  readonly #nowS: () => number;
  #dropNext = 0;

  private constructor(options: PaymentsSandboxOptions) {
    this.#nowS = options.nowS ?? (() => Math.floor(Date.now() / 1000));
    this.#http = createServer((req, res) => {
      this.#handle(req, res).catch(() => {
        if (!res.headersSent) this.#json(res, 500, stripeError('api_error', 'The sandbox payment server failed.'));
        else res.destroy();
      });
    });
  }

  /** Starts listening (default 127.0.0.1 on a free port). */
  static async start(options: PaymentsSandboxOptions = {}): Promise<PaymentsSandboxServer> {
    const server = new PaymentsSandboxServer(options);
    await new Promise<void>((resolve, reject) => {
      server.#http.once('error', reject);
      server.#http.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
    });
    return server;
  }

  /** `http://127.0.0.1:<port>`: pages live under it. */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get port(): number {
    return (this.#http.address() as AddressInfo).port;
  }

  /** What stripe-node needs to reach this server. */
  get sdkTarget(): { host: string; port: number; protocol: 'http' } {
    return { host: '127.0.0.1', port: this.port, protocol: 'http' };
  }

  /** Every session created, oldest first (copies). */
  sessions(): SandboxCheckoutSession[] {
    return [...this.#sessions.values()].map(({ session }) => ({ ...this.#current(session), metadata: { ...session.metadata } }));
  }

  /** The next `count` successful POSTs are carried out, then their connection is dropped unanswered (a lost response: the SDK retries). */
  dropNextResponses(count = 1): void {
    this.#dropNext += count;
  }

  async close(): Promise<void> {
    this.#http.closeAllConnections();
    await new Promise<void>((resolve) => this.#http.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { pathname } = new URL(req.url ?? '/', 'http://sandbox');
    const method = req.method ?? 'GET';
    res.setHeader('request-id', `req_${randomBytes(7).toString('hex')}`);
    const pay = PAY_PATH.exec(pathname);
    if (pay) return this.#page(req, res, pay[1]!);
    if (pathname === '/sandbox/checkout-sessions' && method === 'GET')
      return this.#json(res, 200, { data: this.sessions().reverse().slice(0, 100) });
    const account = accountOf(req.headers.authorization);
    if (!account)
      return this.#json(res, 401, stripeError('invalid_request_error', 'Invalid API Key provided.', { code: 'api_key_invalid' }));
    res.setHeader('stripe-version', String(req.headers['stripe-version'] ?? '2026-07-29.dahlia').slice(0, 40));
    if (pathname === '/v1/checkout/sessions' && method === 'POST')
      return this.#idempotent(req, res, account, (body) => this.#created(body, account));
    if (pathname === '/v1/checkout/sessions' && method === 'GET') return this.#list(req, res, account);
    const expire = EXPIRE_PATH.exec(pathname);
    if (expire && method === 'POST') return this.#idempotent(req, res, account, () => this.#expired(expire[1]!, account));
    const get = SESSION_PATH.exec(pathname);
    const kept = get && method === 'GET' ? this.#sessions.get(get[1]!) : undefined;
    if (kept && kept.account === account) return this.#json(res, 200, this.#current(kept.session));
    if (get) return this.#json(res, 404, noSuchSession(get[1]!));
    this.#json(res, 404, stripeError('invalid_request_error', `Unrecognized request URL (${method} ${pathname.slice(0, 100)}).`));
  }

  /** `GET /v1/checkout/sessions`: the account's sessions, newest first, a page at a time (Stripe's list object). */
  #list(req: IncomingMessage, res: ServerResponse, account: string): void {
    const query = new URL(req.url ?? '/', 'http://sandbox').search.slice(1);
    try {
      const params = listParams(parseBracketForm(query));
      const mine = [...this.#sessions.values()]
        .filter((kept) => kept.account === account)
        .map(({ session }) => this.#current(session))
        .filter((session) => (params.status ?? session.status) === session.status)
        .filter((session) => params.paymentIntent === undefined || session.payment_intent === params.paymentIntent)
        .reverse();
      const cursor = params.startingAfter ?? params.endingBefore;
      const at = cursor === undefined ? -1 : mine.findIndex((session) => session.id === cursor);
      if (cursor !== undefined && at < 0)
        return this.#json(res, 400, noSuchSession(cursor, params.startingAfter ? 'starting_after' : 'ending_before'));
      const [from, to] = params.endingBefore ? [Math.max(0, at - params.limit), at] : [at + 1, at + 1 + params.limit];
      const data = mine.slice(from, to);
      const hasMore = params.endingBefore ? from > 0 : to < mine.length;
      this.#json(res, 200, { object: 'list', data, has_more: hasMore, url: '/v1/checkout/sessions' });
    } catch (error) {
      if (!(error instanceof WireError)) throw error;
      this.#json(res, 400, stripeError('invalid_request_error', error.message, { ...(error.param && { param: error.param }) }));
    }
  }

  /** `POST /v1/checkout/sessions/:id/expire`: only an `open` session can be expired (Stripe "Expire a Checkout Session"). */
  #expired(id: string, account: string): [number, unknown] {
    const kept = this.#sessions.get(id);
    if (!kept || kept.account !== account) return [404, noSuchSession(id)];
    const session = this.#current(kept.session);
    if (session.status !== 'open')
      return [
        400,
        stripeError('invalid_request_error', `Only Checkout Sessions with a status of open can be expired; this one is ${session.status}.`),
      ];
    Object.assign(kept.session, { status: 'expired', url: null });
    return [200, this.#current(kept.session)];
  }

  /**
   * Runs a POST once per `Idempotency-Key` (per account): the same key again replays the first
   * answer, with other parameters (or on another route) it is Stripe's `idempotency_error`.
   */
  async #idempotent(req: IncomingMessage, res: ServerResponse, account: string, run: (body: string) => [number, unknown]): Promise<void> {
    const body = await readBody(req).catch(() => undefined);
    if (body === undefined) return this.#json(res, 413, stripeError('invalid_request_error', 'The request body is too large.'));
    const key = String(req.headers['idempotency-key'] ?? '').slice(0, 255);
    const fingerprint = createHash('sha256')
      .update(`${req.url ?? ''}\n${body}`)
      .digest('hex');
    const replay = key ? this.#replays.get(`${account}:${key}`) : undefined;
    if (replay && replay.fingerprint !== fingerprint)
      return this.#json(
        res,
        400,
        stripeError(
          'idempotency_error',
          'Keys for idempotent requests can only be used with the same parameters they were first used with.',
        ),
      );
    if (replay) return this.#json(res.setHeader('idempotent-replayed', 'true'), replay.status, replay.body);
    const [status, answer] = run(body);
    if (key) keep(this.#replays, `${account}:${key}`, { fingerprint, status, body: answer });
    if (status === 200 && this.#dropNext > 0) {
      this.#dropNext--;
      return void req.socket.destroy();
    }
    this.#json(res, status, answer);
  }

  #created(body: string, account: string): [number, unknown] {
    const now = this.#nowS();
    try {
      const params = sessionParams(parseBracketForm(body), now);
      const id = `cs_test_${randomBytes(12).toString('hex')}`;
      const session: SandboxCheckoutSession = {
        id,
        object: 'checkout.session',
        url: `${this.baseUrl}/pay/${id}`,
        status: 'open',
        payment_status: 'unpaid',
        livemode: false,
        mode: 'payment',
        amount_total: params.unitAmount * params.quantity,
        currency: params.currency,
        description: params.name,
        expires_at: params.expiresAt ?? now + 86_400,
        created: now,
        client_reference_id: params.clientReferenceId,
        metadata: params.metadata,
        payment_intent: null,
        success_url: params.successUrl,
        ui_mode: 'hosted',
      };
      keep(this.#sessions, id, { account, session });
      return [200, session];
    } catch (error) {
      if (!(error instanceof WireError)) throw error;
      return [400, stripeError('invalid_request_error', error.message, { code: error.code, ...(error.param && { param: error.param }) })];
    }
  }

  /** The session as of now: an open one past `expires_at` reads as expired (and has no URL). */
  #current(session: SandboxCheckoutSession): SandboxCheckoutSession {
    if (session.status === 'open' && this.#nowS() >= session.expires_at) Object.assign(session, { status: 'expired', url: null });
    return { ...session };
  }

  /** The payment page: GET shows it, POST pays it (a test card, nothing to type). */
  #page(req: IncomingMessage, res: ServerResponse, id: string): void {
    const kept = this.#sessions.get(id);
    if (!kept || (req.method !== 'GET' && req.method !== 'POST'))
      return this.#html(res, 404, 'Payment page not found', '<p>No such payment page.</p>');
    const session = this.#current(kept.session);
    const what = `<p>${escapeHtml(session.description)}</p><p><strong>${formatAmount(session.amount_total, session.currency)}</strong></p>`;
    if (session.status === 'expired') return this.#html(res, 410, 'Payment page expired', `${what}<p>This payment page has expired.</p>`);
    if (req.method === 'POST' && session.status === 'open') {
      Object.assign(kept.session, {
        status: 'complete',
        payment_status: 'paid',
        payment_intent: `pi_test_${randomBytes(12).toString('hex')}`,
      });
      return this.#html(res, 200, 'Payment received', `${what}<p>Paid. Thank you! You can close this page.</p>`);
    }
    if (kept.session.status === 'complete') return this.#html(res, 200, 'Payment received', `${what}<p>This has been paid.</p>`);
    const form = `<form method="post" action="/pay/${id}"><button type="submit">Pay with a test card</button></form>`;
    this.#html(res, 200, 'Pay', `${what}${form}<p>Sandbox: no card is charged.</p>`);
  }

  #json(res: ServerResponse, status: number, body: unknown): void {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (status >= 400 && status < 500) headers['stripe-should-retry'] = 'false';
    res.writeHead(status, headers).end(JSON.stringify(body));
  }

  #html(res: ServerResponse, status: number, title: string, body: string): void {
    const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;
    res
      .writeHead(status, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': "default-src 'none'; form-action 'self'",
      })
      .end(page);
  }
}

/** The account a `Bearer sk_test_…` key names (a hash: the key itself is not kept), or undefined. */
function accountOf(header: string | undefined): string | undefined {
  const key = /^Bearer (sk_test_[A-Za-z0-9_]{1,200})$/.exec(header ?? '')?.[1];
  return key && createHash('sha256').update(key).digest('hex').slice(0, 32);
}

/** Stripe's 404 (or 400, for a list cursor) for a session id the account does not have. */
function noSuchSession(id: string, param?: string) {
  return stripeError('invalid_request_error', `No such checkout.session: '${id.slice(0, 80)}'`, {
    code: 'resource_missing',
    ...(param && { param }),
  });
}

function keep<V>(map: Map<string, V>, key: string, value: V): void {
  map.set(key, value);
  if (map.size > MAX_KEPT) map.delete(map.keys().next().value as string);
}

/** `4500, 'usd'` → `45.00 USD`. */
export function formatAmount(minor: number, currency: string): string {
  const decimals = currencyDecimals(currency);
  return `${(minor / 10 ** decimals).toFixed(decimals)} ${currency.toUpperCase()}`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
