import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running receiver of `call.completed` webhooks on loopback. */
export interface CompletedWebhooks<T> {
  /** The `advanced.server_url` to give the assistant. */
  url: string;
  /** Every call.completed `data` received, in arrival order. */
  received: T[];
  /** Resolves with the first received call that matches (at once if one already has): event-driven, no polling. */
  completed(match: (call: T) => boolean): Promise<T>;
  close(): Promise<void>;
}

/**
 * A webhook receiver for tests of the whole local stack: answers 204 to every POST and keeps the
 * `data` of each `call.completed` (the call as GET /calls/{id} returns it), so a test awaits a
 * call's end on the webhook a business would get.
 */
export async function startCompletedWebhooks<T>(): Promise<CompletedWebhooks<T>> {
  const received: T[] = [];
  const waiters: { match: (call: T) => boolean; resolve: (call: T) => void }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      res.writeHead(204).end();
      const event = JSON.parse(body) as { type: string; data: T };
      if (event.type !== 'call.completed') return;
      received.push(event.data);
      for (const waiter of waiters.filter(({ match }) => match(event.data))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(event.data);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    completed(match) {
      const seen = received.find(match);
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ match, resolve }));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
