/**
 * What the "Talk to it" panel shows of a web call, folded from the browser client's events (the
 * wire messages of docs/protocols.md "Web calls"). Pure: times come in with the events, so the
 * time to the first words is tested without a clock (test/unit/console/call-log.test.ts).
 */

/** One line of the live transcript. A partial line is replaced by the next line of the same speaker until one is final. */
export interface TranscriptLine {
  key: number;
  role: 'caller' | 'assistant';
  text: string;
  final: boolean;
  interrupted: boolean;
}

/** A tool the assistant called, as the `tool` event says. */
export interface ToolUse {
  name: string;
  status: string;
  arguments: unknown;
  result?: unknown;
}

/** The panel's whole state. */
export interface CallView {
  phase: 'idle' | 'connecting' | 'live' | 'ended' | 'failed';
  /** When "Talk to it" was clicked (ms, the caller's clock). */
  clickedAt?: number;
  callId?: number;
  state?: string;
  lines: TranscriptLine[];
  tools: ToolUse[];
  latencies: { turn: number; ms: number }[];
  /** Click → the assistant's first words (its first transcript line or `speaking`), in ms. */
  firstWordsMs?: number;
  endedReason?: string;
  error?: string;
}

/** Something that happened: the panel's own steps, or a client event with its payload as the client gave it. */
export type CallEvent =
  | { type: 'clicked'; at: number }
  | { type: 'started'; callId: number }
  | { type: 'state' | 'transcript'; payload: unknown; at: number }
  | { type: 'latency' | 'tool' | 'ended' | 'error'; payload: unknown };

export const IDLE: CallView = { phase: 'idle', lines: [], tools: [], latencies: [] };

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

/** The assistant is heard: the first time only, measured from the click. */
function heard(view: CallView, at: number): CallView {
  if (view.firstWordsMs !== undefined || view.clickedAt === undefined) return view;
  return { ...view, firstWordsMs: Math.max(0, Math.round(at - view.clickedAt)) };
}

function addLine(lines: TranscriptLine[], payload: Record<string, unknown>): TranscriptLine[] {
  const role = payload.role === 'assistant' ? 'assistant' : 'caller';
  const line = {
    role,
    text: typeof payload.text === 'string' ? payload.text : '',
    final: payload.final !== false,
    interrupted: payload.interrupted === true,
  } as const;
  const open = lines.findLastIndex((old) => old.role === role && !old.final);
  if (open >= 0) return lines.map((old, index) => (index === open ? { ...line, key: old.key } : old));
  return [...lines, { ...line, key: lines.length }];
}

/** The view after one event. */
export function reduceCall(view: CallView, event: CallEvent): CallView {
  switch (event.type) {
    case 'clicked':
      return { ...IDLE, phase: 'connecting', clickedAt: event.at };
    case 'started':
      return { ...view, phase: 'live', callId: event.callId };
    case 'state': {
      const state = typeof event.payload === 'string' ? event.payload : String(record(event.payload).state ?? '');
      const next = { ...view, state };
      return state === 'speaking' ? heard(next, event.at) : next;
    }
    case 'transcript': {
      const payload = record(event.payload);
      const next = { ...view, lines: addLine(view.lines, payload) };
      return payload.role === 'assistant' ? heard(next, event.at) : next;
    }
    case 'latency': {
      const { turn, ms } = record(event.payload);
      if (typeof turn !== 'number' || typeof ms !== 'number') return view;
      return { ...view, latencies: [...view.latencies, { turn, ms }] };
    }
    case 'tool': {
      const { name, status, arguments: args, result } = record(event.payload);
      return { ...view, tools: [...view.tools, { name: String(name ?? 'tool'), status: String(status ?? ''), arguments: args, result }] };
    }
    case 'ended': {
      const reason = typeof event.payload === 'string' ? event.payload : record(event.payload).reason;
      const phase = view.phase === 'failed' ? 'failed' : 'ended';
      return { ...view, phase, state: undefined, endedReason: typeof reason === 'string' ? reason : undefined };
    }
    case 'error':
      return { ...view, phase: 'failed', state: undefined, error: describeCallError(event.payload) };
  }
}

/** Error codes (the API's, the web-call protocol's) and browser errors, said plainly. */
const PLAIN: Record<string, string> = {
  insufficient_minutes: 'No minutes are left on this plan. Add minutes, then try again.',
  no_minutes: 'No minutes are left on this plan. Add minutes, then try again.',
  at_capacity: 'Every call line is busy right now (at capacity). Try again in a minute.',
  origin_not_allowed: "This page's address is not allowed to start web calls (the business's web_origins setting).",
  bad_token: 'The call was refused: its token was used, expired or is not for this business. Start a new call.',
  bad_message: 'The call service did not understand the browser. Reload the page and try again.',
  NotAllowedError: 'The browser refused the microphone. Allow it for this page, or untick "Use my microphone" and type instead.',
  SecurityError: 'The browser refused the microphone. Allow it for this page, or untick "Use my microphone" and type instead.',
  NotFoundError: 'No microphone was found. Untick "Use my microphone" and type instead.',
  NotReadableError: 'The microphone is in use by another program. Close it, or untick "Use my microphone" and type instead.',
  not_found: 'This assistant no longer exists.',
  call_not_live: 'The call is not in progress: it has not been answered yet, or it has ended.',
  not_here: 'The call could not be reached on the call service. Try again.',
  conflict: 'The call has already ended.',
};

/** A call failure in plain words: an error code, a browser `DOMException`, an `Error`, or a string. */
export function describeCallError(payload: unknown): string {
  if (typeof payload === 'string') return PLAIN[payload] ?? payload;
  const { code, name, message } = record(payload);
  const known = (typeof code === 'string' && PLAIN[code]) || (typeof name === 'string' && PLAIN[name]);
  if (known) return known;
  return typeof message === 'string' && message !== '' ? message : 'The call failed.';
}

/** Seconds with two decimals, for the time to the first words: 843 → "0.84 s". */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}
