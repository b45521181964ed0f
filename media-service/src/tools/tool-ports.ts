import type { Db } from '../../../shared/db/client';
import type { IdAllocator } from '../../../shared/db/ids';
import { MessageRepository } from '../../../shared/db/message-repository';
import type { Logger } from '../../../shared/log';
import { MessageService } from '../../../shared/services/message-service';
import { LogTeamNotifier } from '../adapters/log-team-notifier';
import type { ToolPorts } from './tool-types';

/**
 * The built-in tools' back ends every composition (the media runtime, the test stack, the
 * benchmark) builds the same way: messages in the table, team notices as log lines until an
 * email/SMS sender exists (adapters/log-team-notifier.ts).
 */
export function tableBackedToolPorts(db: Db, ids: Pick<IdAllocator, 'nextId'>, log: Logger): ToolPorts {
  return {
    messages: new MessageService({ messages: new MessageRepository(db), ids, now: () => new Date() }),
    team: new LogTeamNotifier(log),
  };
}
