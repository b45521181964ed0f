import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as v from 'valibot';
import { listenSandbox } from './listen';
import { isTemplateFailure, SesTemplates } from './ses-templates';

/** One email the stand-in accepted, in aws-ses-v2-local's `GET /store` shape (so tests read either). */
export interface SandboxEmail {
  messageId: string;
  from: string;
  replyTo: string[];
  destination: { to: string[]; cc: string[]; bcc: string[] };
  subject: string;
  body: { text?: string; html?: string };
  /** Base64 content, as the store lists it. */
  attachments: { content: string; contentType: string; filename?: string; size: number }[];
  /** Epoch seconds. */
  at: number;
}

/** An error SES answers with: its code (`x-amzn-ErrorType` and `__type`), HTTP status and message. */
export interface SesFailure {
  type: string;
  status: number;
  message: string;
}

/** Options of {@link SesSandboxServer.start}. */
export interface SesSandboxOptions {
  host?: string;
  /** 0 (default): a free port. */
  port?: number;
  /** The oldest emails are forgotten beyond this many (default 1000). */
  keep?: number;
}

/** SES v2 takes messages up to 40 MB; the stand-in reads at most this many bytes of JSON. */
export const SES_SANDBOX_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Failures kept for injection at most (the oldest go first). */
const MAX_INJECTED = 1000;

const Text = v.object({ Data: v.string(), Charset: v.optional(v.string()) });
const Addresses = v.optional(v.array(v.string()), []);
const SendEmailSchema = v.object({
  FromEmailAddress: v.pipe(v.string(), v.minLength(3)),
  Destination: v.object({ ToAddresses: Addresses, CcAddresses: Addresses, BccAddresses: Addresses }),
  ReplyToAddresses: Addresses,
  Content: v.object({
    Simple: v.optional(
      v.object({
        Subject: Text,
        Body: v.object({ Text: v.optional(Text), Html: v.optional(Text) }),
        Attachments: v.optional(
          v.array(v.object({ FileName: v.string(), RawContent: v.string(), ContentType: v.optional(v.string()) })),
          [],
        ),
      }),
    ),
    Raw: v.optional(v.object({ Data: v.string() })),
    Template: v.optional(
      v.object({
        TemplateName: v.optional(v.string()),
        TemplateContent: v.optional(
          v.object({ Subject: v.optional(v.string()), Text: v.optional(v.string()), Html: v.optional(v.string()) }),
        ),
        TemplateData: v.optional(v.string()),
      }),
    ),
  }),
});

const TEMPLATE_PATH = /^\/v2\/email\/templates\/([^/]{1,200})$/;

const ADDRESS = /^(?:[^<>]*<)?[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>?$/;

/**
 * A local Amazon SES v2 for `npm run dev` and tests: `POST /v2/email/outbound-emails` (SendEmail)
 * as the official SDK sends it (restJson1, SigV4 `Authorization` required but not verified), 200
 * `{MessageId}` with `x-amzn-RequestId`, errors with `x-amzn-ErrorType` and `{__type, message}` so
 * the SDK raises the modeled class (BadRequestException, MessageRejected, …). Templates
 * (`CreateEmailTemplate`, `GetEmailTemplate`, sending with `Content.Template`) live in
 * ses-templates.ts: an unknown template is SES's 404 NotFoundException. Sent mail is kept
 * and listed like aws-ses-v2-local: `GET /store[?since=<epoch s>]`, `POST /clear-store`,
 * `GET /health-check`. Tests make sends fail with {@link failNext} or {@link failFor}. Our own rather than
 * aws-ses-v2-local: its errors carry no error type, so the SDK could only raise `Unknown`.
 *
 * @example
 * ```ts
 * const ses = await SesSandboxServer.start();
 * const email = new SesEmail({ region: 'us-east-1', endpoint: ses.endpoint, credentials: LOCAL, fromAddress: 'a@b.test' });
 * ```
 */
export class SesSandboxServer {
  readonly #http: Server;
  readonly #emails: SandboxEmail[] = [];
  readonly #failures: SesFailure[] = [];
  readonly #failFor = new Map<string, SesFailure>();
  readonly #keep: number;
  readonly #templates = new SesTemplates();

  private constructor(options: SesSandboxOptions) {
    this.#keep = options.keep ?? 1000;
    this.#http = createServer((req, res) => void this.#handle(req, res));
  }

  /** Starts listening on loopback; resolves once the port is bound. */
  static async start(options: SesSandboxOptions = {}): Promise<SesSandboxServer> {
    const server = new SesSandboxServer(options);
    await listenSandbox(server.#http, options);
    return server;
  }

  /** `http://127.0.0.1:port`: the SDK's `endpoint`. */
  get endpoint(): string {
    return `http://127.0.0.1:${(this.#http.address() as AddressInfo).port}`;
  }

  /** The emails kept, oldest first; only those to `to` (To, Cc or Bcc) when given. */
  emails(filter: { to?: string } = {}): SandboxEmail[] {
    const { to } = filter;
    if (!to) return [...this.#emails];
    return this.#emails.filter(({ destination: d }) => [...d.to, ...d.cc, ...d.bcc].some((address) => address.includes(to)));
  }

  /** The next `count` SendEmail requests answer `failure` (e.g. MessageRejected 400, TooManyRequests 429). */
  failNext(failure: SesFailure, count = 1): void {
    for (let i = 0; i < Math.min(count, MAX_INJECTED); i++) this.#failures.push(failure);
    this.#failures.splice(0, Math.max(0, this.#failures.length - MAX_INJECTED));
  }

  /** Every SendEmail naming `address` (To, Cc or Bcc) answers `failure`: deterministic under concurrent tests. */
  failFor(address: string, failure: SesFailure): void {
    if (this.#failFor.size >= MAX_INJECTED) this.#failFor.delete(this.#failFor.keys().next().value!);
    this.#failFor.set(address.toLowerCase(), failure);
  }

  async close(): Promise<void> {
    this.#http.closeAllConnections();
    await new Promise<void>((resolve) => this.#http.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://ses');
    try {
      if (req.method === 'GET' && url.pathname === '/health-check') return void res.writeHead(200).end('ok');
      if (req.method === 'GET' && url.pathname === '/store') return this.#store(url.searchParams, res);
      if (req.method === 'POST' && url.pathname === '/clear-store') {
        this.#emails.length = 0;
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"message":"Cleared"}');
      }
      if (req.method === 'POST' && url.pathname === '/v2/email/outbound-emails') return await this.#sendEmail(req, res);
      const template = TEMPLATE_PATH.exec(url.pathname);
      if ((req.method === 'POST' && url.pathname === '/v2/email/templates') || (req.method === 'GET' && template))
        return await this.#template(req, res, template ? decodeURIComponent(template[1]!) : undefined);
      fail(res, { type: 'NotFoundException', status: 404, message: `No route for ${req.method} ${url.pathname.slice(0, 100)}` });
    } catch (error) {
      const tooLarge = error instanceof BodyTooLargeError;
      if (!res.headersSent)
        fail(res, {
          type: tooLarge ? 'MessageRejected' : 'BadRequestException',
          status: 400,
          message: tooLarge ? `The request is larger than ${SES_SANDBOX_MAX_BODY_BYTES} bytes.` : 'The request could not be read.',
        });
    }
  }

  #store(query: URLSearchParams, res: ServerResponse): void {
    const since = Number(query.get('since') ?? 0) || 0;
    const emails = this.#emails.filter((email) => email.at >= since);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ templates: {}, emails }));
  }

  /** `CreateEmailTemplate` (POST, `name` undefined) or `GetEmailTemplate` (GET `name`). */
  async #template(req: IncomingMessage, res: ServerResponse, name: string | undefined): Promise<void> {
    if (!/^AWS4-HMAC-SHA256 /.test(req.headers.authorization ?? ''))
      return fail(res, { type: 'MissingAuthenticationTokenException', status: 403, message: 'Missing Authentication Token' });
    const answer = name === undefined ? (this.#templates.create(await readLimited(req, 1024 * 1024)) ?? {}) : this.#templates.get(name);
    if (isTemplateFailure(answer)) return fail(res, answer);
    res.writeHead(200, { 'content-type': 'application/json', 'x-amzn-RequestId': randomUUID() }).end(JSON.stringify(answer));
  }

  async #sendEmail(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!/^AWS4-HMAC-SHA256 /.test(req.headers.authorization ?? ''))
      return fail(res, { type: 'MissingAuthenticationTokenException', status: 403, message: 'Missing Authentication Token' });
    const text = await readLimited(req, SES_SANDBOX_MAX_BODY_BYTES);
    const injected = this.#failures.shift();
    if (injected) return fail(res, injected);
    const email = parseSendEmail(text, this.#templates);
    if ('type' in email) return fail(res, email);
    const { to, cc, bcc } = email.destination;
    const refused = [...to, ...cc, ...bcc].map((address) => this.#failFor.get(address.toLowerCase())).find(Boolean);
    if (refused) return fail(res, refused);
    this.#emails.push(email);
    if (this.#emails.length > this.#keep) this.#emails.shift();
    res
      .writeHead(200, { 'content-type': 'application/json', 'x-amzn-RequestId': randomUUID() })
      .end(JSON.stringify({ MessageId: email.messageId }));
  }
}

const bad = (message: string): SesFailure => ({ type: 'BadRequestException', status: 400, message });

/** A SendEmail body → the email to keep, or the error SES would answer. */
export function parseSendEmail(text: string, templates: SesTemplates): SandboxEmail | SesFailure {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return bad('The request body is not valid JSON.');
  }
  const parsed = v.safeParse(SendEmailSchema, json);
  if (!parsed.success) return bad(`Invalid request: ${v.getDotPath(parsed.issues[0]) ?? 'body'}: ${parsed.issues[0].message}`);
  const input = parsed.output;
  const { Simple, Raw, Template } = input.Content;
  if ([Simple, Raw, Template].filter(Boolean).length !== 1) return bad('Content must have exactly one of Simple, Raw or Template.');
  const { ToAddresses: to, CcAddresses: cc, BccAddresses: bcc } = input.Destination;
  const everyone = [...to, ...cc, ...bcc];
  if (everyone.length === 0) return bad('Destination must name at least one recipient.');
  if (everyone.length > 50) return { type: 'MessageRejected', status: 400, message: 'Recipient count exceeds 50.' };
  const invalid = [input.FromEmailAddress, ...everyone, ...input.ReplyToAddresses].find((address) => !ADDRESS.test(address));
  if (invalid !== undefined) return bad(`Illegal address: ${invalid.slice(0, 100)}`);
  if (Simple && !Simple.Body.Text && !Simple.Body.Html) return bad('Body must have Text or Html.');
  const rendered = Template ? templates.render(Template) : undefined;
  if (rendered && 'type' in rendered) return rendered;
  const decoded = (base64: string) => Buffer.from(base64, 'base64');
  return {
    messageId: `${Date.now().toString(16)}-${randomUUID()}-000000`,
    from: input.FromEmailAddress,
    replyTo: input.ReplyToAddresses,
    destination: { to, cc, bcc },
    subject: Simple?.Subject.Data ?? rendered?.subject ?? '',
    body: Simple
      ? { ...(Simple.Body.Text && { text: Simple.Body.Text.Data }), ...(Simple.Body.Html && { html: Simple.Body.Html.Data }) }
      : Raw
        ? { text: decoded(Raw.Data).toString('utf8') }
        : { ...(rendered?.text !== undefined && { text: rendered.text }), ...(rendered?.html !== undefined && { html: rendered.html }) },
    attachments: (Simple?.Attachments ?? []).map((file) => ({
      content: file.RawContent,
      contentType: file.ContentType ?? 'application/octet-stream',
      filename: file.FileName,
      size: decoded(file.RawContent).length,
    })),
    at: Math.floor(Date.now() / 1000),
  };
}

function fail(res: ServerResponse, failure: SesFailure): void {
  res
    .writeHead(failure.status, { 'content-type': 'application/json', 'x-amzn-ErrorType': failure.type, 'x-amzn-RequestId': randomUUID() })
    .end(JSON.stringify({ __type: failure.type, message: failure.message }));
}

class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
}

async function readLimited(req: IncomingMessage, limit: number): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new BodyTooLargeError();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
