import type { Db } from '../../../shared/db/client';
import type { IdAllocator } from '../../../shared/db/ids';
import { MessageRepository } from '../../../shared/db/message-repository';
import type { Logger } from '../../../shared/log';
import { MessageService } from '../../../shared/services/message-service';
import { MessagingTeamNotifier } from '../adapters/messaging-team-notifier';
import type { ToolPorts } from './tool-types';

/** The senders the composition root builds from its provider config (Twilio or the sandbox carrier). */
export type ToolSenders = Pick<ToolPorts, 'sms' | 'email'>;

/**
 * The built-in tools' back ends every composition (the media runtime, the test stack, the
 * benchmark) builds the same way: messages in the table; texts, emails and team notices through
 * `senders` (Twilio and SES, or the sandbox carrier and the local SES).
 */
export function tableBackedToolPorts(db: Db, ids: Pick<IdAllocator, 'nextId'>, log: Logger, senders: ToolSenders): ToolPorts {
  return {
    messages: new MessageService({ messages: new MessageRepository(db), ids, now: () => new Date() }),
    team: new MessagingTeamNotifier({ email: senders.email, sms: senders.sms, log }),
    sms: senders.sms,
    email: senders.email,
  };
}
