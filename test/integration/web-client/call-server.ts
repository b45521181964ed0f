/**
 * The server side of the web-call protocol, played by the test: a loopback `ws` server whose
 * connections record everything the browser sends, in order, so a test waits on the message it
 * expects instead of sleeping.
 */
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/** How long a wait may last before the test fails: a bound on a hang, not a timing. */
const WAIT_MS = 20_000;

/** Resolves once `check` returns something, re-checked whenever `changed` fires. */
function waitFor<T>(check: () => T | undefined, subscribe: (changed: () => void) => () => void, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const found = check();
    if (found !== undefined) return resolve(found);
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`timed out waiting for ${what}`));
    }, WAIT_MS);
    const unsubscribe = subscribe(() => {
      const value = check();
      if (value === undefined) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(value);
    });
  });
}

/** One browser connection: its text messages (parsed) and binary frames, in arrival order. */
export class BrowserPeer {
  readonly texts: Record<string, unknown>[] = [];
  readonly frames: Buffer[] = [];
  closed = false;
  private readonly watchers = new Set<() => void>();
  private read = 0;

  constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer, isBinary) => {
      if (isBinary) this.frames.push(data);
      else this.texts.push(JSON.parse(data.toString()) as Record<string, unknown>);
      this.changed();
    });
    socket.on('close', () => {
      this.closed = true;
      this.changed();
    });
  }

  /** The next text message not yet read. */
  nextText(): Promise<Record<string, unknown>> {
    return waitFor(() => (this.read < this.texts.length ? this.texts[this.read++] : undefined), this.watch, 'a text message');
  }

  /** The first `count` binary frames. */
  firstFrames(count: number): Promise<Buffer[]> {
    return waitFor(() => (this.frames.length >= count ? this.frames.slice(0, count) : undefined), this.watch, `${count} audio frames`);
  }

  /** Resolves when the browser has closed the socket. */
  whenClosed(): Promise<true> {
    return waitFor(() => (this.closed ? true : undefined), this.watch, 'the socket to close');
  }

  sendJson(message: Record<string, unknown>): void {
    this.socket.send(JSON.stringify(message));
  }

  sendAudio(pcm: Buffer, frameBytes = 640): void {
    for (let at = 0; at < pcm.length; at += frameBytes) this.socket.send(pcm.subarray(at, at + frameBytes));
  }

  private readonly watch = (changed: () => void): (() => void) => {
    this.watchers.add(changed);
    return () => this.watchers.delete(changed);
  };

  private changed(): void {
    for (const watcher of [...this.watchers]) watcher();
  }
}

/** A loopback `ws` server handing out each connection as a BrowserPeer. */
export class CallServer {
  readonly url: string;
  private readonly peers: BrowserPeer[] = [];
  private taken = 0;
  private readonly watchers = new Set<() => void>();

  private constructor(private readonly server: WebSocketServer) {
    this.url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/web/calls`;
    server.on('connection', (socket) => {
      this.peers.push(new BrowserPeer(socket));
      for (const watcher of [...this.watchers]) watcher();
    });
  }

  static async start(): Promise<CallServer> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', resolve));
    return new CallServer(server);
  }

  /** The next browser connection. */
  nextPeer(): Promise<BrowserPeer> {
    const watch = (changed: () => void) => {
      this.watchers.add(changed);
      return () => this.watchers.delete(changed);
    };
    return waitFor(() => (this.taken < this.peers.length ? this.peers[this.taken++] : undefined), watch, 'a browser connection');
  }

  async close(): Promise<void> {
    for (const client of this.server.clients) client.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** `ms` of a sine at 16 kHz as PCM16LE. */
export function tone(ms: number, hz = 440, amplitude = 0.3): Buffer {
  const samples = (ms * 16_000) / 1000;
  const pcm = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) pcm.writeInt16LE(Math.round(amplitude * 32767 * Math.sin((2 * Math.PI * hz * i) / 16_000)), i * 2);
  return pcm;
}
