import { parseListMessagesQuery, type Message } from '../domain/message';
import type { IdAllocator } from '../db/ids';
import type { MessageRepository } from '../db/message-repository';
import { NotFoundError } from '../errors';

export interface MessageServiceDeps {
  messages: MessageRepository;
  ids: Pick<IdAllocator, 'nextId'>;
  now: () => Date;
}

/** What a call's tool knows when a caller leaves a message. */
export type NewMessage = Omit<Message, 'id' | 'created_at'>;

/**
 * Messages callers leave (docs/design.md §4 "Messages"): the call engine's `take_message` and
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

  /** GET /messages: one page, newest first, with `has_more`. */
  async list(businessId: number, query: Record<string, string | undefined>) {
    const options = parseListMessagesQuery(query);
    const page = await this.deps.messages.listMessages(businessId, options);
    return { data: page.messages, limit: options.limit, offset: options.offset, has_more: page.hasMore };
  }

  /** GET /messages/{id}: 404 for a missing id or another business's. */
  async get(businessId: number, messageId: number): Promise<Message> {
    const message = await this.deps.messages.getMessage(businessId, messageId);
    if (!message) throw new NotFoundError(`Message ${messageId} not found.`);
    return message;
  }
}
