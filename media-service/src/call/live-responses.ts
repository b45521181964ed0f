import type { S2sSession } from '../ports/speech-to-speech';
import type { TurnTiming } from './call-metrics';
import type { Utterance, UtteranceKind } from './speaker';

/** One provider response: why it was made, what it said, which tools it called. */
export interface Reply {
  id: string;
  kind: UtteranceKind;
  /** We asked for it (greeting, notice, idle, goodbye, voicemail…); otherwise the provider answered the caller. */
  requested: boolean;
  /** The instructions we asked it with (undefined: the session's). */
  instructions?: string;
  utterances: Utterance[];
  /** Provider item ids, parallel to `utterances`. */
  items: string[];
  calls: { callId: string; name: string; arguments: string }[];
  turn?: TurnTiming;
  cancelled: boolean;
  /** How the provider ended it (`response.done`): `completed`, `cancelled`, `failed`, `incomplete`. */
  status?: string;
  /** Settles our own request with this reply (lines wait on it). */
  resolve?: (reply: Reply) => void;
}

/** Instructions that make the model say `text` word for word (greeting, idle and end messages). */
export function verbatim(text: string): string {
  return `Say exactly the following words, verbatim, and nothing else: "${text}"`;
}

/** A request of ours, until its response is created. */
interface Waiter {
  kind: UtteranceKind;
  instructions?: string;
  resolve: (reply: Reply | undefined) => void;
}

/** Tags of our own requests: `response.created` echoes them, which tells ours from the provider's. */
const KINDS = new Set<string>(['greeting', 'reply', 'notice', 'idle', 'goodbye', 'voicemail']);

/**
 * The responses of one Realtime session. A session generates one response at a time, so a request
 * made while one is active waits for its `response.done`; each request settles once its reply has
 * played (or was cut). Cancelling the active response stops it at the provider.
 */
export class LiveResponses {
  readonly #session: () => S2sSession | undefined;
  readonly #replies = new Map<string, Reply>();
  readonly #requested: Waiter[] = [];
  /** Requests waiting for the active response to end, with the `#requested` entry each settles. */
  #queued: { kind: UtteranceKind; instructions?: string; waiter: Waiter }[] = [];
  #active: string | undefined;

  /** `session` is read at each send (it opens after the conversation is built). */
  constructor(session: () => S2sSession | undefined) {
    this.#session = session;
  }

  /** A response is being generated (or was just asked for). */
  get busy(): boolean {
    return this.#active !== undefined;
  }

  /** True for the response being generated now. */
  isActive(reply: Reply): boolean {
    return reply.id === this.#active;
  }

  /** The replies not yet settled. */
  all(): IterableIterator<Reply> {
    return this.#replies.values();
  }

  /** The reply of `responseId`, until it is settled. */
  get(responseId: string): Reply | undefined {
    return this.#replies.get(responseId);
  }

  /**
   * Asks for a response of ours; settles with its reply once it has played (or was cut), or with
   * undefined when it was dropped unsent. `first` puts it ahead of the requests already waiting (a
   * notice said again).
   */
  request(kind: UtteranceKind, instructions?: string, options: { first?: boolean } = {}): Promise<Reply | undefined> {
    let waiter!: Waiter;
    const played = new Promise<Reply | undefined>(
      (resolve) => (waiter = { kind, resolve, ...(instructions !== undefined && { instructions }) }),
    );
    if (this.#active === undefined) {
      this.#requested.push(waiter);
      this.#send(kind, instructions);
      return played;
    }
    const entry = { kind, waiter, ...(instructions !== undefined && { instructions }) };
    if (options.first) this.#queued.unshift(entry);
    else this.#queued.push(entry);
    return played;
  }

  /** Forgets the requests not sent yet but notices (the caller cut in: they will be answered instead); each settles. */
  dropQueued(): void {
    const dropped = this.#queued.filter((entry) => entry.kind !== 'notice');
    this.#queued = this.#queued.filter((entry) => entry.kind === 'notice');
    for (const entry of dropped) entry.waiter.resolve(undefined);
  }

  /** `response.created`: records the reply; a tag of ours settles the oldest request when it has played. */
  created(responseId: string, tag: string | undefined): Reply {
    this.#active = responseId;
    const ours = tag !== undefined && KINDS.has(tag);
    const reply: Reply = {
      id: responseId,
      kind: ours ? (tag as UtteranceKind) : 'reply',
      requested: ours,
      utterances: [],
      items: [],
      calls: [],
      cancelled: false,
    };
    const waiter = ours ? this.#requested.shift() : undefined;
    if (waiter) {
      reply.resolve = waiter.resolve;
      if (waiter.instructions !== undefined) reply.instructions = waiter.instructions;
    }
    this.#replies.set(responseId, reply);
    return reply;
  }

  /** `response.done`: the session is free; the next queued request goes out. */
  done(responseId: string): void {
    if (this.#active === responseId) this.#active = undefined;
    const next = this.#queued.shift();
    if (!next) return;
    this.#requested.push(next.waiter);
    this.#send(next.kind, next.instructions);
  }

  /** Stops a reply: its late output is dropped, and the provider stops it if it is the active one. */
  cancel(reply: Reply): void {
    if (reply.cancelled) return;
    reply.cancelled = true;
    if (reply.id === this.#active) this.#session()?.cancelResponse();
  }

  /** The reply has played (or was cut): forget it and settle its request. */
  settle(reply: Reply): void {
    this.#replies.delete(reply.id);
    reply.resolve?.(reply);
  }

  #send(kind: UtteranceKind, instructions: string | undefined): void {
    this.#active = `requested:${kind}`;
    this.#session()?.createResponse({ tag: kind, ...(instructions !== undefined && { instructions }) });
  }
}
