import type { Db } from '../../../shared/db/client';
import type { IdAllocator } from '../../../shared/db/ids';
import { MessageRepository } from '../../../shared/db/message-repository';
import type { Logger } from '../../../shared/log';
import { MessageService } from '../../../shared/services/message-service';
import { LogTeamNotifier } from '../adapters/log-team-notifier';
import type { ToolPorts } from './tool-types';

/** The senders the composition root builds from its provider config (Twilio or the sandbox carrier; Stripe or the sandbox payment server). */
export type ToolSenders = Pick<ToolPorts, 'sms' | 'payments'>;

/**
 * The built-in tools' back ends every composition (the media runtime, the test stack, the
 * benchmark) builds the same way: messages in the table, texts and payment pages through `senders`, team notices as
 * log lines until the email sender exists (adapters/log-team-notifier.ts).
 */
export function tableBackedToolPorts(db: Db, ids: Pick<IdAllocator, 'nextId'>, log: Logger, senders: ToolSenders): ToolPorts {
  return {
    messages: new MessageService({ messages: new MessageRepository(db), ids, now: () => new Date() }),
    team: new LogTeamNotifier(log),
    sms: senders.sms,
    ...(senders.payments && { payments: senders.payments }),
  };
}
