import { parseListMessagesQuery, type Message } from '../domain/message';
import type { IdAllocator } from '../db/ids';
import type { MessageRepository } from '../db/message-repository';
import type { PageCursors } from '../db/page-cursor';
import { listCursors, listPage, openCursor } from './list-page';
import { NotFoundError } from '../errors';

export interface MessageServiceDeps {
  messages: MessageRepository;
  ids: Pick<IdAllocator, 'nextId'>;
  now: () => Date;
  /** Signs and opens GET /messages cursors; absent where nothing lists (the call engine only leaves messages). */
  cursors?: PageCursors;
}

/** What a call's tool knows when a caller leaves a message. */
export type NewMessage = Omit<Message, 'id' | 'created_at'>;

/**
 * Messages callers leave (docs/design.md "Messages"): the call engine's `take_message` and
 * `notify_team` tools store them, the API lists and reads them.
 */
export class MessageService {
  constructor(private readonly deps: MessageServiceDeps) {}

  /** Stores a message with a fresh id and the current time; returns it. */
  async leave(businessId: number, input: NewMessage): Promise<Message> {
    const message: Message = { id: await this.deps.ids.nextId(), ...input, created_at: this.deps.now().toISOString() };
    await this.deps.messages.putMessage(businessId, message);
    return message;
  }

  /** GET /messages: one page, newest first: `{data, limit, offset, has_more, next_cursor}`. */
  async list(businessId: number, query: Record<string, string | undefined>) {
    const { cursor, ...options } = parseListMessagesQuery(query);
    const cursors = listCursors(this.deps.cursors);
    const scope = {
      businessId,
      route: 'messages',
      query: { from: options.from, to: options.to, call_id: options.callId, urgent: options.urgent },
    };
    const after = await openCursor(cursors, scope, cursor);
    const page = await listPage(
      await this.deps.messages.listMessages(businessId, { ...options, after }),
      (message) => message,
      cursors,
      scope,
    );
    return { data: page.data, limit: options.limit, offset: options.offset, has_more: page.has_more, next_cursor: page.next_cursor };
  }

  /** GET /messages/{id}: 404 for a missing id or another business's. */
  async get(businessId: number, messageId: number): Promise<Message> {
    const message = await this.deps.messages.getMessage(businessId, messageId);
    if (!message) throw new NotFoundError(`Message ${messageId} not found.`);
    return message;
  }
}
