/**
 * The page the browser tests load, served on loopback with the built client. Two pages: `/`
 * embeds the client with one script tag and no CSP (the worklet comes from its built-in Blob
 * URL), and `/strict` has the console's kind of CSP (scripts and worklets from 'self' only), so
 * it must pass `workletUrl`. Both load /page.js, which records what a test asserts on: the texts
 * the client sends with `stats()` at the moment of sending, the events, the microphone streams
 * and audio contexts the client opened, and each getUserMedia call.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** What page.js puts on `window`, as the test reads it through page.evaluate. */
export interface PageHooks {
  begin(options: Record<string, unknown>): Promise<{ callId?: number; error?: { name: string; code?: string; message: string } }>;
  call: {
    say(text: string): boolean;
    sendDigits(digits: string): boolean;
    hangUp(): void;
    setMuted(muted: boolean): void;
    stats(): Record<string, number>;
  };
  sent: { text: Record<string, unknown>; stats: Record<string, number> | undefined }[];
  events: [string, Record<string, unknown>][];
  levels: number[];
  microphoneRequests: number;
  streams: { getTracks(): { readyState: string }[] }[];
  contexts: { state: string }[];
}

const PAGE_SCRIPT = `
const hooks = window;
hooks.sent = []; hooks.events = []; hooks.levels = []; hooks.microphoneRequests = 0; hooks.streams = []; hooks.contexts = [];
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  if (typeof data === 'string') hooks.sent.push({ text: JSON.parse(data), stats: hooks.call ? hooks.call.stats() : undefined });
  return send.call(this, data);
};
const getUserMedia = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
navigator.mediaDevices.getUserMedia = async (constraints) => {
  hooks.microphoneRequests++;
  const stream = await getUserMedia(constraints);
  hooks.streams.push(stream);
  return stream;
};
const Context = window.AudioContext;
window.AudioContext = class extends Context {
  constructor(options) { super(options); hooks.contexts.push(this); }
};
hooks.begin = async (options) => {
  try {
    hooks.call = await VoiceAgent.startWebCall(options);
  } catch (error) {
    return { error: { name: error.name, code: error.code, message: error.message } };
  }
  for (const name of ['state', 'transcript', 'latency', 'tool', 'ended', 'error']) {
    hooks.call.on(name, (payload) => hooks.events.push([name, payload]));
  }
  hooks.call.on('level', (payload) => hooks.levels.push(payload.rms));
  return { callId: hooks.call.callId };
};
`;

const html = (title: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
  `<script src="/web-call.js"></script><script src="/page.js"></script></head><body></body></html>`;

/**
 * Serves the two pages, page.js and the built client from `dist`; `call` is what /strict's CSP
 * lets it connect to. It also serves web-client/example.html at /example, with the POST
 * /web-call it expects from the business's server answering `call`.
 */
export async function startPageServer(dist: string, call: { url: string; token: string }): Promise<{ origin: string; server: Server }> {
  const bodies: Record<string, [string, string]> = {
    '/': ['text/html', html('web call')],
    '/strict': ['text/html', html('web call, strict CSP')],
    '/page.js': ['text/javascript', PAGE_SCRIPT],
    '/web-call.js': ['text/javascript', readFileSync(join(dist, 'web-call.js'), 'utf8')],
    '/web-call-worklet.js': ['text/javascript', readFileSync(join(dist, 'web-call-worklet.js'), 'utf8')],
    '/example': ['text/html', readFileSync(join(import.meta.dirname, '../../../web-client/example.html'), 'utf8')],
    '/web-call': ['application/json', JSON.stringify(call)],
  };
  const server = createServer((request, response) => {
    const body = bodies[request.url ?? ''];
    if (body === undefined) return void response.writeHead(404).end();
    response.setHeader('content-type', body[0]);
    if (request.url === '/strict') {
      response.setHeader('content-security-policy', `default-src 'none'; script-src 'self'; connect-src ${new URL(call.url).origin}`);
    }
    response.end(body[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
