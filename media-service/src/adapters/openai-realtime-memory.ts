import type { RealtimeServerEvent } from './openai-realtime-wire';

/**
 * What a live (speech-to-speech) session has told OpenAI Realtime and heard back, kept so that a
 * socket replacing a dropped one can be put back where the old one was (docs/design.md "Provider
 * faults"): the session as last configured, the conversation so far, and the responses asked for
 * or under way. Pure: the adapter feeds it every client event it sends and every server event it
 * receives, and asks it for the restore when a new socket is up.
 *
 * Bounds: the last {@link MEMORY_MAX_ITEMS} items and {@link MEMORY_MAX_CHARS} characters of
 * their text are re-created (the oldest go first), enough for any phone call's context.
 */

/** Conversation items re-created on a new socket, at most. */
export const MEMORY_MAX_ITEMS = 100;
/** Characters of text (messages, arguments, outputs) re-created, at most. */
export const MEMORY_MAX_CHARS = 24_000;

type Message = Record<string, unknown>;

interface Remembered {
  /** The provider's item id, given again on re-creation (so a later truncate still finds it). */
  id?: string;
  kind: 'user' | 'assistant' | 'function_call' | 'function_call_output' | 'other';
  item: Message;
  /** The text of a message (its words; a user's arrives after the item). */
  text: string;
  callId?: string;
}

/** A response under way: what asked for it, and the items it has made so far. */
interface Active {
  id: string;
  /** The `response.create` to send again (the server's own, for a reply it started). */
  recipe: Message;
  items: Remembered[];
}

/** What a new socket is given, in order: the session, the conversation, then responses one at a time. */
export interface Restore {
  setup: Message[];
  /** `response.create`s to send one after another (the next once the one before is done). */
  creates: Message[];
  /** The response that was under way, asked again as `creates[0]`: its id, for the new one's events. */
  resumes?: string;
}

const SERVER_CREATE: Message = { type: 'response.create' };

export class RealtimeMemory {
  #session: Message = {};
  #items: Remembered[] = [];
  /** Our `response.create`s not yet answered by `response.created`, oldest first. */
  #pending: Message[] = [];
  #active: Active | undefined;
  /** The caller's last turn: transcribed, and whether a response answered it (server VAD answers each). */
  #lastTurn: { itemId: string; transcribed: boolean; answered: boolean } | undefined;
  /** Audio bytes generated per assistant item, to cut its text on truncation. */
  readonly #audio = new Map<string, number>();

  /** The response under way (created, not done), if any. */
  get active(): string | undefined {
    return this.#active?.id;
  }

  /** A client event we sent. */
  client(message: Message): void {
    switch (message.type) {
      case 'session.update':
        this.#session = mergeSession(this.#session, message.session as Message);
        return;
      case 'conversation.item.create':
        return this.#remember(remembered(message.item as Message));
      case 'conversation.item.truncate':
        return this.#truncate(String(message.item_id), Number(message.audio_end_ms));
      case 'response.create':
        this.#pending.push(message);
        return;
    }
  }

  /** A server event we received (already schema-checked). */
  server(event: RealtimeServerEvent | { type: 'refused'; code: string }): void {
    switch (event.type) {
      case 'input_audio_buffer.speech_stopped':
        this.#lastTurn = { itemId: event.item_id, transcribed: false, answered: false };
        // The caller's item goes where the server put it, before the reply it gets; its words follow.
        return this.#remember({ id: event.item_id, kind: 'user', item: {}, text: '' });
      case 'conversation.item.input_audio_transcription.completed': {
        const item = this.#items.find((candidate) => candidate.id === event.item_id && candidate.kind === 'user');
        if (item) item.text = event.transcript.trim();
        if (this.#lastTurn?.itemId === event.item_id) this.#lastTurn.transcribed = true;
        return;
      }
      case 'response.created':
        return this.#created(event.response.id, event.response.metadata?.tag);
      case 'response.output_audio.delta':
        this.#audio.set(event.item_id, (this.#audio.get(event.item_id) ?? 0) + Buffer.byteLength(event.delta, 'base64'));
        return;
      case 'response.output_audio_transcript.done':
        return void this.#active?.items.push({ id: event.item_id, kind: 'assistant', item: {}, text: event.transcript.trim() });
      case 'response.function_call_arguments.done':
        return void this.#active?.items.push(
          remembered({ type: 'function_call', call_id: event.call_id, name: event.name, arguments: event.arguments }),
        );
      case 'response.done':
        if (this.#active?.id !== event.response.id) return;
        for (const item of this.#active.items) this.#remember(item);
        this.#active = undefined;
        return;
      case 'refused':
        // A `response.create` refused (a response was active): it will never be created.
        if (event.code === 'conversation_already_has_active_response') this.#pending.pop();
        return;
    }
  }

  /** The response under way was cancelled while no socket was up: it is not asked again. */
  forgetActive(): void {
    this.#active = undefined;
  }

  /**
   * What a new socket is given. The response under way is asked again whole (what it made so far
   * is not in the conversation); ours not yet created are asked again; a caller's last turn that
   * was transcribed and not answered gets the answer server VAD would have started.
   */
  restore(): Restore {
    const setup: Message[] = [{ type: 'session.update', session: this.#session }];
    for (const item of bounded(this.#items)) setup.push({ type: 'conversation.item.create', item: itemOf(item) });
    const creates: Message[] = [];
    const resumes = this.#active?.id;
    if (this.#active) creates.push(this.#active.recipe);
    creates.push(...this.#pending);
    const vad = ((this.#session.audio as Message | undefined)?.input as Message | undefined)?.turn_detection as Message | undefined;
    const turn = this.#lastTurn;
    if (turn?.transcribed && !turn.answered && this.#active === undefined && vad?.create_response !== false) creates.push(SERVER_CREATE);
    this.#active = undefined;
    this.#pending = [];
    if (turn) turn.answered = true;
    return { setup, creates, ...(resumes !== undefined && { resumes }) };
  }

  #created(id: string, tag: string | undefined): void {
    const index = this.#pending.findIndex((create) => tagOf(create) === tag);
    const recipe = index < 0 ? SERVER_CREATE : this.#pending.splice(index, 1)[0]!;
    if (index < 0 && this.#lastTurn) this.#lastTurn.answered = true;
    this.#active = { id, recipe, items: [] };
  }

  #remember(item: Remembered): void {
    this.#items.push(item);
    if (this.#items.length > MEMORY_MAX_ITEMS * 2) this.#items.splice(0, this.#items.length - MEMORY_MAX_ITEMS);
  }

  /** Keeps the words of an assistant item the caller heard (the share of its audio), as the provider does. */
  #truncate(itemId: string, audioEndMs: number): void {
    const item = this.#items.find((candidate) => candidate.id === itemId && candidate.kind === 'assistant');
    const generatedMs = (this.#audio.get(itemId) ?? 0) / 8;
    if (!item || generatedMs <= 0) return;
    const words = item.text.split(/\s+/).filter((word) => word !== '');
    item.text = words.slice(0, Math.floor(words.length * Math.min(1, audioEndMs / generatedMs))).join(' ');
  }
}

/** A `session.update`'s session merged into the one so far: top-level keys replaced, `audio.input`/`output` merged a level down. */
export function mergeSession(current: Message, update: Message): Message {
  const a = (current.audio ?? {}) as Message;
  const b = (update.audio ?? {}) as Message;
  const audio = {
    input: { ...(a.input as Message | undefined), ...(b.input as Message | undefined) },
    output: { ...(a.output as Message | undefined), ...(b.output as Message | undefined) },
  };
  return { ...current, ...update, ...((current.audio !== undefined || update.audio !== undefined) && { audio }) };
}

function tagOf(create: Message): string | undefined {
  return ((create.response as Message | undefined)?.metadata as Record<string, string> | undefined)?.tag;
}

function remembered(item: Message): Remembered {
  if (item.type === 'function_call')
    return { kind: 'function_call', item, text: String(item.arguments ?? ''), callId: String(item.call_id ?? '') };
  if (item.type === 'function_call_output')
    return { kind: 'function_call_output', item, text: String(item.output ?? ''), callId: String(item.call_id ?? '') };
  const content = Array.isArray(item.content) ? (item.content as Message[]) : [];
  const text = content.map((part) => String(part.text ?? part.transcript ?? '')).join(' ');
  return { ...(typeof item.id === 'string' && { id: item.id }), kind: item.role === 'user' ? 'user' : 'other', item, text };
}

/** The item as `conversation.item.create` takes it: heard words become text. */
function itemOf(r: Remembered): Message {
  const id = r.id === undefined ? {} : { id: r.id };
  if (r.kind === 'user' && r.item.type === undefined)
    return { ...id, type: 'message', role: 'user', content: [{ type: 'input_text', text: r.text }] };
  if (r.kind === 'assistant') return { ...id, type: 'message', role: 'assistant', content: [{ type: 'output_text', text: r.text }] };
  return r.item;
}

/** The newest items within the bounds, without a caller item that has no words or an output whose call went. */
function bounded(items: readonly Remembered[]): Remembered[] {
  const kept: Remembered[] = [];
  let chars = 0;
  for (let i = items.length - 1; i >= 0 && kept.length < MEMORY_MAX_ITEMS; i--) {
    const item = items[i]!;
    if ((item.kind === 'user' || item.kind === 'assistant') && item.item.type === undefined && item.text === '') continue;
    if (chars + item.text.length > MEMORY_MAX_CHARS) break;
    chars += item.text.length;
    kept.unshift(item);
  }
  const calls = new Set(kept.filter((item) => item.kind === 'function_call').map((item) => item.callId));
  return kept.filter((item) => item.kind !== 'function_call_output' || calls.has(item.callId));
}
