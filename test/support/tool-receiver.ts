import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** The README's `lookup_order` arguments: an order id of two letters and four digits. */
export const ORDER_SCHEMA = {
  type: 'object',
  properties: { order_id: { type: 'string', pattern: '^[A-Z]{2}[0-9]{4}$', description: 'Two letters and four digits.' } },
  required: ['order_id'],
  additionalProperties: false,
};

/** What the business's tool server does on a path: answer, answer 503, or never answer. */
export type ToolMode = 'ok' | 'fail' | 'hang';

/** A request the receiver took, after `standardwebhooks` verified its signature (null when it refused it). */
export interface Received {
  token: string;
  verified: Record<string, any> | null;
  webhookId: string;
}

/**
 * A business's tool server on loopback: `/t/<token>/<mode>`; each token's tenant secret is
 * registered before its call, and every request is checked with the reference library.
 */
export class ToolReceiver {
  readonly received: Received[] = [];
  readonly #secrets = new Map<string, string>();
  readonly #server: Server;

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(): Promise<ToolReceiver> {
    const server = createServer();
    const receiver = new ToolReceiver(server);
    server.on('request', (request, response) => void receiver.#handle(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  url(token: string, secret: string, mode: ToolMode): string {
    this.#secrets.set(token, secret);
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/t/${token}/${mode}`;
  }

  of(token: string): Received[] {
    return this.received.filter((entry) => entry.token === token);
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const [, , token = '', mode] = (request.url ?? '').split('/');
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let verified: Record<string, any> | null = null;
    try {
      verified = new Webhook(this.#secrets.get(token) ?? '').verify(body, request.headers as Record<string, string>) as Record<string, any>;
    } catch {
      // Recorded as unverified; the test fails on it.
    }
    this.received.push({ token, verified, webhookId: String(request.headers['webhook-id']) });
    if (verified === null) return void response.writeHead(401).end();
    if (mode === 'fail') return void response.writeHead(503).end('down for maintenance');
    if (mode === 'hang') return; // The call engine gives up at the tool's timeout; stop() closes the socket.
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'shipped', delivery_date: '2026-11-28' }));
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }
}
