/**
 * `npm run bench:web-call`: how long a web call takes to connect and to be heard on the local
 * stack (docs/performance.md "Issue 32: web calls, connect and first words"), against issue 32's
 * target: connected, and the assistant's first words heard, within 2 s of "Talk to it".
 *
 * The stack is `npm run dev`'s (`startLocalStack`: API, call engine, sandbox carrier and
 * providers, after-call pipeline) on its own DynamoDB Local and fauxqs. Each call does what the
 * console does after the click, with a `ws` client in place of the browser (it sends the console's
 * Origin and echoes marks at once, as a player with nothing buffered): `POST /calls/web`, the
 * socket, `start`; the greeting; one typed `say` once the greeting has played; a hang-up, then
 * `GET /calls/{id}` every {@link POLL_MS} ms until it says `ended`. BENCH_CALLS (20) calls one
 * after another, then BENCH_CONCURRENT (10) clicked at the same moment, then BENCH_PHONE_CALLS (10)
 * inbound phone calls to the same assistant for comparison (0: none). Prints p50, p95 and max of
 * each step. Asserts nothing.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import WebSocket from 'ws';
import { createAdminService } from '../functions/lib/deps';
import type { SandboxCallRecord } from '../media-service/src/sandbox/carrier-types';
import { startLocalInfra } from '../scripts/local/infra';
import { startLocalStack, type LocalStack } from '../scripts/local/stack';
import { loggerOver } from '../shared/log';

const CALLS = Number(process.env.BENCH_CALLS ?? 20);
const CONCURRENT = Number(process.env.BENCH_CONCURRENT ?? 10);
const PHONE_CALLS = Number(process.env.BENCH_PHONE_CALLS ?? 10);
/** Issue 32: connected and the first words heard within 2 s of the click. */
const TARGET_MS = 2000;
/**
 * The console's player starts once it holds 60 ms of audio (`DEFAULT_POLICY.startMs` in
 * web-client/src/playout.ts): 1,920 bytes of 16 kHz PCM16. The first words are heard then, not at
 * the first frame.
 */
const PLAYER_START_BYTES = 60 * 16 * 2;
/** How often the hang-up's ending is looked for in `GET /calls/{id}`: the resolution of that figure. */
const POLL_MS = 20;
/** Any one step longer than this is a failure, not a figure. */
const STEP_TIMEOUT_MS = 30_000;
const SAY = 'Hi, what are your opening hours?';

type Message = { type: string; [field: string]: unknown };

/** One call's figures, ms. */
interface WebCallTimes {
  post: number;
  openToStarted: number;
  clickToStarted: number;
  clickToFirstAudio: number;
  clickToHeard: number;
  clickToGreetingTranscript: number;
  sayToAnswerAudio: number;
  turnLatency: number;
  hangupToEndedEvent: number;
  hangupToEndedInApi: number;
}

const LABELS: Record<keyof WebCallTimes, string> = {
  post: 'POST /calls/web round trip',
  openToStarted: 'socket open → started',
  clickToStarted: 'click → started (connected)',
  clickToFirstAudio: 'click → first assistant audio frame',
  clickToHeard: 'click → first words heard (60 ms buffered)',
  clickToGreetingTranscript: "click → greeting's transcript (once played)",
  sayToAnswerAudio: 'typed say → first answer audio',
  turnLatency: "that turn's latency event (end of turn → audio)",
  hangupToEndedEvent: 'hang-up → ended on the socket',
  hangupToEndedInApi: 'hang-up → ended in GET /calls/{id}',
};

/** The browser's side of one web call: messages and audio as they arrive, and waits on them. */
class BenchSocket {
  readonly ws: WebSocket;
  readonly messages: { at: number; message: Message }[] = [];
  readonly audio: { at: number; total: number }[] = [];
  audioBytes = 0;
  #wake = new Set<() => void>();

  constructor(url: string, origin: string) {
    this.ws = new WebSocket(url, { headers: { origin } });
    this.ws.on('message', (data, isBinary) => {
      const at = performance.now();
      if (isBinary) {
        this.audioBytes += (data as Buffer).length;
        this.audio.push({ at, total: this.audioBytes });
      } else {
        const message = JSON.parse(data.toString()) as Message;
        this.messages.push({ at, message });
        if (message.type === 'mark') this.send({ type: 'mark', name: message.name });
      }
      for (const wake of this.#wake) wake();
    });
    // A socket error is followed by its close, which fails the step waiting; without a listener it would throw.
    this.ws.on('error', () => undefined);
    this.ws.on('close', () => this.#wake.forEach((wake) => wake()));
  }

  send(message: Message): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  /** When the first message from `from` on matching `match` arrived (ms, `performance.now()`). */
  message(match: (m: Message) => boolean, what: string, from = 0): Promise<{ at: number; message: Message }> {
    return this.#until(() => this.messages.slice(from).find((entry) => match(entry.message)), what);
  }

  /** When the audio received passed `bytes`. */
  audioPast(bytes: number, what: string): Promise<number> {
    return this.#until(() => this.audio.find((entry) => entry.total > bytes)?.at, what);
  }

  #until<T>(found: () => T | undefined, what: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const value = found();
        if (value !== undefined) return done(() => resolve(value));
        if (this.ws.readyState === WebSocket.CLOSED) done(() => reject(new Error(`The socket closed before ${what}.`)));
      };
      const timer = setTimeout(() => done(() => reject(new Error(`No ${what} within ${STEP_TIMEOUT_MS / 1000} s.`))), STEP_TIMEOUT_MS);
      const done = (settle: () => void) => (clearTimeout(timer), this.#wake.delete(check), settle());
      this.#wake.add(check);
      check();
    });
  }
}

const isType = (type: string) => (m: Message) => m.type === type;
const assistantLine = (m: Message) => m.type === 'transcript' && m.role === 'assistant';
const listening = (m: Message) => m.type === 'state' && m.state === 'listening';

/** The API as the console calls it, with `key`; a 429 (the bench's own polling) is a failure, not a figure. */
async function api<T>(stack: LocalStack, key: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/**
 * One web call from the click to its ending in the API. `key`: an API key of its own, so the
 * hang-up's polling never meets the per-key rate limit (240 a minute), already used once (see
 * {@link showAssistantPage}).
 */
async function webCall(stack: LocalStack, key: string, assistantId: number): Promise<WebCallTimes> {
  const click = performance.now();
  const created = await api<{ call_id: number; url: string; token: string }>(stack, key, 'POST', '/calls/web', {
    assistant_id: assistantId,
  });
  const posted = performance.now();
  const socket = new BenchSocket(created.url, stack.consoleOrigins[0]!);
  await new Promise<void>((resolve, reject) => (socket.ws.once('open', resolve), socket.ws.once('error', reject)));
  const opened = performance.now();
  socket.send({ type: 'start', token: created.token });
  const started = await socket.message((m) => m.type === 'started' || m.type === 'error', 'started');
  if (started.message.type !== 'started') throw new Error(`Refused: ${JSON.stringify(started.message)}`);
  const firstAudio = await socket.audioPast(0, 'the greeting audio');
  const heard = await socket.audioPast(PLAYER_START_BYTES - 1, '60 ms of the greeting');
  const greeting = await socket.message(assistantLine, 'the greeting transcript');
  await socket.message(listening, 'the end of the greeting', socket.messages.indexOf(greeting));
  const bytesBefore = socket.audioBytes;
  const from = socket.messages.length;
  const said = performance.now();
  socket.send({ type: 'say', text: SAY });
  const answer = await socket.audioPast(bytesBefore, 'the answer audio');
  const latency = await socket.message(isType('latency'), 'the latency event', from);
  const hangup = performance.now();
  socket.send({ type: 'hangup' });
  const ended = await socket.message(isType('ended'), 'ended', from);
  for (;;) {
    const call = await api<{ status: string; channel: string }>(stack, key, 'GET', `/calls/${created.call_id}`);
    if (call.status === 'ended') {
      if (call.channel !== 'web') throw new Error(`Call ${created.call_id} has channel ${call.channel}.`);
      break;
    }
    if (performance.now() - hangup > STEP_TIMEOUT_MS) throw new Error(`Call ${created.call_id} still ${call.status}.`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return {
    post: posted - click,
    openToStarted: started.at - opened,
    clickToStarted: started.at - click,
    clickToFirstAudio: firstAudio - click,
    clickToHeard: heard - click,
    clickToGreetingTranscript: greeting.at - click,
    sayToAnswerAudio: answer - said,
    turnLatency: Number(latency.message.ms),
    hangupToEndedEvent: ended.at - hangup,
    hangupToEndedInApi: performance.now() - hangup,
  };
}

/**
 * How much the machine held this process back over a phase: the event loop's delay (p99) and the
 * share of the phase the main thread was ready to run but waited for a core (Linux
 * /proc/thread-self/schedstat; absent elsewhere). The whole stack but DynamoDB Local runs on this
 * thread, so a high share means the figures measure the machine's load, not the product.
 */
function watchContention(): () => string {
  const schedstat = () => {
    try {
      return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[1]) / 1e6;
    } catch {
      return undefined;
    }
  };
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const [waitBefore, started] = [schedstat(), performance.now()];
  return () => {
    loop.disable();
    const waitAfter = schedstat();
    const share =
      waitBefore === undefined || waitAfter === undefined
        ? ''
        : `, main thread waiting for a core ${((100 * (waitAfter - waitBefore)) / (performance.now() - started)).toFixed(0)} % of the time`;
    return `event-loop delay p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms${share}; load average ${load()}`;
  };
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');

/**
 * What the console does before "Talk to it" can be clicked: it shows the assistant's page
 * (`GET /assistants/{id}`). This puts the key in the API's key cache, as a signed-in console's is;
 * a bench key never used before would cost the click one key lookup the console does not pay.
 */
async function showAssistantPage(stack: LocalStack, key: string, assistantId: number): Promise<void> {
  await api(stack, key, 'GET', `/assistants/${assistantId}`);
}

/** Nearest-rank percentile. */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function report(title: string, runs: WebCallTimes[], contention: string): void {
  console.log(`\n${title}: ${runs.length} calls (${contention})`);
  console.log(`  ${'ms'.padEnd(50)}${'p50'.padStart(7)}${'p95'.padStart(7)}${'max'.padStart(7)}`);
  for (const key of Object.keys(LABELS) as (keyof WebCallTimes)[]) {
    const values = runs.map((run) => run[key]);
    const cells = [50, 95, 100].map((p) => percentile(values, p).toFixed(0).padStart(7)).join('');
    console.log(`  ${LABELS[key].padEnd(50)}${cells}`);
  }
  const within = runs.filter((run) => run.clickToHeard <= TARGET_MS).length;
  const verdict = within === runs.length ? 'holds' : 'missed';
  console.log(`  target (first words heard ≤ ${TARGET_MS} ms after the click): ${verdict}, ${within} of ${runs.length} calls`);
}

/**
 * The same assistant on the phone, for comparison: a simulated person rings its sandbox number
 * (`startInboundCall`, as `admin call-in` does) and hangs up once the first assistant audio has
 * reached the carrier. No API request comes first (the phone's "click" is the ring), so the
 * figures are ring → stream connected and ring → first audio, from the carrier's own record.
 */
async function phoneCall(stack: LocalStack, number: string): Promise<{ connected: number; firstAudio: number }> {
  const carrier = stack.media.carrier;
  const { callSid } = carrier.startInboundCall({ from: '+14155550100', to: number, voiceUrl: `${stack.media.mediaUrl}/twilio/voice` });
  const firstMedia = (call: SandboxCallRecord) => call.streams[0]?.received.find((event) => event.event === 'media')?.atMs;
  const record = await carrier.waitFor(callSid, (call) => firstMedia(call) !== undefined, STEP_TIMEOUT_MS);
  carrier.hangup(callSid);
  await carrier.whenEnded(callSid, STEP_TIMEOUT_MS);
  return { connected: record.streams[0]!.openedAtMs!, firstAudio: firstMedia(record)! };
}

function reportPhone(runs: { connected: number; firstAudio: number }[], contention: string): void {
  console.log(`\nphone, the same assistant (sandbox carrier, inbound): ${runs.length} calls (${contention})`);
  for (const [label, values] of [
    ['ring → media stream connected', runs.map((run) => run.connected)],
    ['ring → first assistant audio at the carrier', runs.map((run) => run.firstAudio)],
  ] as const) {
    const cells = [50, 95, 100].map((p) => percentile(values, p).toFixed(0).padStart(7)).join('');
    console.log(`  ${label.padEnd(50)}${cells}`);
  }
}

/**
 * A business with a receptionist (the template's own greeting), room for the concurrent calls, a
 * key per web call, and a sandbox number for the phone calls.
 */
async function seed(stack: LocalStack) {
  const admin = createAdminService(stack.core, 'test');
  const business = await admin.createBusiness('Bench web calls', 1_000_000);
  await admin.setMaxConcurrentCalls(business.business_id, Math.max(10, CONCURRENT));
  const config = { advanced: { recording_notice: false, ai_disclosure: false, max_duration_s: 120 } };
  const assistant = await api<{ id: number }>(stack, business.api_key, 'POST', '/assistants', {
    name: 'Front desk',
    template: 'receptionist',
    config,
  });
  const keys = await Promise.all(Array.from({ length: CALLS + CONCURRENT }, () => admin.createKey(business.business_id)));
  const number = '+15550320000';
  await admin.addNumber(business.business_id, { number, provider: 'sandbox', assistantId: assistant.id, label: 'bench' });
  return { assistantId: assistant.id, keys: keys.map((key) => key.api_key), number };
}

async function main(): Promise<void> {
  process.env.LOG_LEVEL ??= 'WARN'; // the API's and after-call's INFO lines are not the report
  const problems: string[] = [];
  const mediaLog = loggerOver((level, message) => {
    if ((level === 'WARN' || level === 'ERROR') && problems.length < 5) problems.push(`${level} ${message}`);
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-web-call-'));
  const home = process.cwd();
  process.chdir(dataDir); // the infra helpers keep DynamoDB Local's data under ./.data
  // As `npm run dev` runs it, not `benchmark: true`: the table is on every step's path here (the
  // token's redemption, the slot, the minutes), and a background-priority DynamoDB Local would
  // measure how busy the machine is, not the product.
  const infra = await startLocalInfra().finally(() => process.chdir(home));
  const stack = await startLocalStack({ apiPort: 0, mediaPort: 0, mediaTasks: 1, infra: infra.info, mediaLog });
  try {
    const { assistantId, keys, number } = await seed(stack);
    const load = () =>
      loadavg()
        .map((value) => value.toFixed(2))
        .join(', ');
    console.log(`web calls on the local stack (node ${process.version}); load average at the start ${load()}`);
    let contention = watchContention();
    const sequential: WebCallTimes[] = [];
    for (let i = 0; i < CALLS; i++) {
      await showAssistantPage(stack, keys[i]!, assistantId);
      sequential.push(await webCall(stack, keys[i]!, assistantId));
    }
    report('one at a time', sequential, contention());
    await Promise.all(keys.slice(CALLS).map((key) => showAssistantPage(stack, key, assistantId)));
    contention = watchContention();
    const together = await Promise.all(keys.slice(CALLS).map((key) => webCall(stack, key, assistantId)));
    report(`${CONCURRENT} clicked at once`, together, contention());
    if (PHONE_CALLS > 0) {
      contention = watchContention();
      const phone: { connected: number; firstAudio: number }[] = [];
      for (let i = 0; i < PHONE_CALLS; i++) phone.push(await phoneCall(stack, number));
      reportPhone(phone, contention());
    }
    if (problems.length > 0) console.log(`call engine warnings (first ${problems.length}): ${problems.join('; ')}`);
  } finally {
    await stack.stop();
    await infra.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.stack : String(error));
    process.exit(1);
  },
);
