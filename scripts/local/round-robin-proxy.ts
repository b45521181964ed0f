import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/** A running {@link startRoundRobinProxy}. */
export interface RoundRobinProxy {
  /** `http://127.0.0.1:<port>`: what the carrier is told to call. */
  url: string;
  port: number;
  /** Requests and stream upgrades each target accepted so far, in target order. */
  counts: number[];
  /** Adds a target (a call-engine process that has just started listening). */
  add(targetPort: number): void;
  close(): Promise<void>;
}

/**
 * Connects to the first target, from `first` on in turn, that accepts a connection: a dead target
 * (connection refused) is skipped, as a load balancer skips an unhealthy task. Rejects when none does.
 */
function connectToLive(ports: readonly number[], first: number, tried = 0): Promise<{ socket: Socket; index: number }> {
  if (tried >= ports.length) return Promise.reject(new Error('no target accepted the connection'));
  const index = (first + tried) % ports.length;
  return new Promise((resolve, reject) => {
    const socket = connect(ports[index]!, '127.0.0.1');
    socket.once('connect', () => {
      socket.removeAllListeners('error');
      resolve({ socket, index });
    });
    socket.once('error', () => {
      socket.destroy();
      connectToLive(ports, first, tried + 1).then(resolve, reject);
    });
  });
}

/** The request line and headers exactly as received (raw header names and order), for an upgrade. */
function rawHead(req: IncomingMessage): string {
  const lines = [`${req.method} ${req.url} HTTP/1.1`];
  for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/**
 * The load balancer in front of several call-engine processes, locally: every HTTP request (the
 * carrier's webhooks and callbacks) goes to the next target in turn, and so does every WebSocket
 * upgrade (Twilio's media streams on `/twilio/media` and browsers' web calls on `/web/calls`, any
 * path alike, taking turns of their own so calls spread over the processes), so a
 * call's callbacks and its stream land on different processes as they do behind the ALB. A target that refuses the connection (a killed process) is skipped for the next
 * one; the body is only sent once a target has accepted, so nothing is lost. Method, path, query,
 * headers and body pass through untouched, so Twilio signatures still verify on whichever target
 * gets them (the targets check them against the public URL: this proxy's).
 *
 * @example
 * const proxy = await startRoundRobinProxy([3101, 3102], 3100);
 */
export async function startRoundRobinProxy(targetPorts: readonly number[], port = 0): Promise<RoundRobinProxy> {
  const targets = [...targetPorts];
  const counts = targets.map(() => 0);
  // Requests and streams take turns separately: a call makes a fixed pattern of requests (its
  // TwiML webhook, then its stream), and one shared turn put every stream on the same process.
  const turns = { request: 0, stream: 0 };
  const open = async (kind: keyof typeof turns) => {
    const live = await connectToLive(targets, turns[kind]++ % Math.max(1, targets.length));
    counts[live.index] = (counts[live.index] ?? 0) + 1;
    return live.socket;
  };
  const server: Server = createServer((req, res) => {
    open('request').then(
      (socket) => {
        const upstream = request({ createConnection: () => socket, method: req.method, path: req.url, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          // One connection per request (no agent pools it): close it once the answer is through.
          answer.once('end', () => socket.end());
        });
        upstream.on('error', () => {
          if (!res.headersSent) res.writeHead(502);
          res.end();
        });
        req.pipe(upstream);
      },
      () => res.writeHead(502, { 'content-type': 'text/plain' }).end('No call engine is accepting connections.\n'),
    );
  });
  const upgraded = new Set<Socket>();
  server.on('upgrade', (req, socket: Socket, head: Buffer) => {
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    socket.on('error', () => socket.destroy());
    open('stream').then(
      (upstream) => {
        if (socket.destroyed) return void upstream.destroy();
        upstream.write(rawHead(req));
        if (head.length > 0) upstream.write(head);
        upstream.pipe(socket);
        socket.pipe(upstream);
        const close = () => {
          upstream.destroy();
          socket.destroy();
        };
        upstream.on('error', close);
        upstream.on('close', close);
        socket.on('close', close);
      },
      () => socket.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\nContent-Length: 0\r\n\r\n'),
    );
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    counts,
    add(targetPort) {
      targets.push(targetPort);
      counts.push(0);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of upgraded) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
