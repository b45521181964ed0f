import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';

/** A running {@link startRoundRobinProxy}. */
export interface RoundRobinProxy {
  /** `http://127.0.0.1:<port>`: what the carrier is told to call. */
  url: string;
  port: number;
  /** Requests and stream upgrades sent to each target so far, in target order. */
  counts: number[];
  close(): Promise<void>;
}

/**
 * The load balancer in front of several call-engine processes, locally: every HTTP request (the
 * carrier's webhooks and callbacks) and every WebSocket upgrade (media streams) goes to the next
 * target in turn, so a call's callbacks and its stream land on different processes as they do
 * behind the ALB. Bodies and sockets are piped through untouched (signatures still verify: the
 * targets check them against the public URL, this proxy's).
 *
 * @example
 * const proxy = await startRoundRobinProxy([3101, 3102], 3100);
 */
export async function startRoundRobinProxy(targetPorts: readonly number[], port = 0): Promise<RoundRobinProxy> {
  if (targetPorts.length === 0) throw new Error('The proxy needs at least one target.');
  const counts = targetPorts.map(() => 0);
  let next = 0;
  const pick = () => {
    const index = next++ % targetPorts.length;
    counts[index] = (counts[index] ?? 0) + 1;
    return targetPorts[index] ?? targetPorts[0]!;
  };
  const server: Server = createServer((req, res) => {
    const upstream = request({ host: '127.0.0.1', port: pick(), method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  const upgraded = new Set<{ destroy(): void }>();
  server.on('upgrade', (req, socket, head) => {
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    const upstream = connect(pick(), '127.0.0.1', () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    const close = () => {
      upstream.destroy();
      socket.destroy();
    };
    upstream.on('error', close);
    socket.on('error', close);
    upstream.on('close', close);
    socket.on('close', close);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of upgraded) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
