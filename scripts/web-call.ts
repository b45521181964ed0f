import { parseArgs } from 'node:util';
import WebSocket from 'ws';

/**
 * A web call through the public API alone (docs/protocols.md "Web calls"), as a browser makes one
 * but typed: `POST /calls/web`, the socket to the `url` it returns, each `--say` line spoken as
 * typed speech once the assistant has finished speaking, the transcript printed as it comes, a
 * hang-up, then `GET /calls/{id}` until the call has ended, with its channel, status, transcript
 * and recording link. Marks are echoed at once (nothing is played).
 *
 * @example
 * tsx scripts/web-call.ts --api http://localhost:3000 --key vk_test_… --assistant 2 \
 *   --say "Hi, what are your hours?" --say "Thanks, bye"
 */

const USAGE = `usage: tsx scripts/web-call.ts --api URL --key API_KEY --assistant ID [--say TEXT]... [--origin ORIGIN]
  --api        the API's base (http://localhost:3000, or with /api/v1)
  --key        an API key of the business
  --assistant  the assistant to call
  --say        a line to type into the call (repeat for more), each after the assistant finishes
  --origin     the Origin header to send (default none: not a browser, so no origin check)`;

/** How long one step (the greeting, an answer, the call's end) may take before the script gives up. */
const STEP_TIMEOUT_MS = 60_000;

type Message = { type: string; [field: string]: unknown };

interface Options {
  api: string;
  key: string;
  assistant: number;
  say: string[];
  origin?: string;
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      api: { type: 'string' },
      key: { type: 'string' },
      assistant: { type: 'string' },
      say: { type: 'string', multiple: true },
      origin: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const assistant = Number(values.assistant);
  if (!values.api || !values.key || !Number.isSafeInteger(assistant) || assistant <= 0) throw new Error(USAGE);
  return {
    api: values.api.replace(/\/+$/, '').replace(/\/api\/v1$/, ''),
    key: values.key,
    assistant,
    say: values.say ?? [],
    ...(values.origin && { origin: values.origin }),
  };
}

async function api<T>(options: Options, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${options.api}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${options.key}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** The socket, with a way to wait for the next message that matches. */
function connect(url: string, origin: string | undefined) {
  const ws = new WebSocket(url, origin ? { headers: { origin } } : {});
  const seen: Message[] = [];
  let waiters: { match: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  ws.on('message', (data, isBinary) => {
    if (isBinary) return;
    const message = JSON.parse(data.toString()) as Message;
    seen.push(message);
    print(message);
    if (message.type === 'mark') ws.send(JSON.stringify({ type: 'mark', name: message.name }));
    for (const waiter of waiters.filter((w) => w.match(message))) waiter.resolve(message);
    waiters = waiters.filter((w) => !w.match(message));
  });
  const next = (match: (m: Message) => boolean, what: string) =>
    new Promise<Message>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`No ${what} within ${STEP_TIMEOUT_MS / 1000} s.`)), STEP_TIMEOUT_MS);
      waiters.push({ match, resolve: (m) => (clearTimeout(timer), resolve(m)) });
      void closed.then(() => (clearTimeout(timer), reject(new Error(`The call ended before ${what}.`))));
    });
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return { ws, seen, next, closed, opened, send: (message: Message) => ws.send(JSON.stringify(message)) };
}

function print(message: Message): void {
  if (message.type === 'transcript')
    console.log(
      `${message.role === 'caller' ? 'caller   ' : 'assistant'}: ${String(message.text)}${message.interrupted ? ' [cut off]' : ''}`,
    );
  else if (message.type === 'latency')
    console.log(`           (turn ${String(message.turn)}: ${String(message.ms)} ms to the first words)`);
  else if (message.type === 'tool') console.log(`           (tool ${String(message.name)}: ${String(message.status)})`);
  else if (message.type === 'error') console.log(`error ${String(message.code)}: ${String(message.message)}`);
  else if (message.type === 'ended') console.log(`(ended: ${String(message.reason)})`);
}

/** The assistant has finished a line and listens: a transcript of its own, then `listening`. */
const assistantDone = (m: Message) => m.type === 'state' && m.state === 'listening';

async function main(): Promise<void> {
  const options = readOptions();
  const created = await api<{ call_id: number; url: string; token: string }>(options, 'POST', '/calls/web', {
    assistant_id: options.assistant,
  });
  console.log(`call ${created.call_id}: ${created.url}`);
  const socket = connect(created.url, options.origin);
  await socket.opened;
  socket.send({ type: 'start', token: created.token });
  await socket.next((m) => m.type === 'started' || m.type === 'error', 'started');
  await socket.next(assistantDone, 'the greeting');
  for (const line of options.say) {
    socket.send({ type: 'say', text: line });
    await socket.next((m) => m.type === 'transcript' && m.role === 'caller', 'your line heard');
    await socket.next(assistantDone, 'an answer');
  }
  if (socket.ws.readyState === WebSocket.OPEN) socket.send({ type: 'hangup' });
  await socket.closed;
  const call = await untilEnded(options, created.call_id);
  console.log(`\nchannel: ${call.channel}  status: ${call.status}  ended_reason: ${call.ended_reason}`);
  for (const entry of call.transcript) console.log(`  ${entry.role}: ${entry.text}`);
  console.log(`recording: ${call.recording_url ?? '(none)'}`);
}

interface CallView {
  channel: string;
  status: string;
  ended_reason: string | null;
  transcript: { role: string; text: string }[];
  recording_url: string | null;
}

/** Polls the call once a second until it has ended (its transcript and recording are written with the ending). */
async function untilEnded(options: Options, callId: number): Promise<CallView> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  for (;;) {
    const call = await api<CallView>(options, 'GET', `/calls/${callId}`);
    if (call.status === 'ended') return call;
    if (Date.now() > deadline) throw new Error(`Call ${callId} is still ${call.status} after ${STEP_TIMEOUT_MS / 1000} s.`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
