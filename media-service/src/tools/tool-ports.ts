import { BookingRepository } from '../../../shared/db/booking-repository';
import { BusinessRepository } from '../../../shared/db/business-repository';
import type { Db } from '../../../shared/db/client';
import type { IdAllocator } from '../../../shared/db/ids';
import { MessageRepository } from '../../../shared/db/message-repository';
import type { Logger } from '../../../shared/log';
import { BookingService } from '../../../shared/services/booking-service';
import { MessageService } from '../../../shared/services/message-service';
import { MessagingTeamNotifier } from '../adapters/messaging-team-notifier';
import { isSandboxLabel } from '../call/call-metrics';
import type { ProviderLabels } from '../call/session-types';
import type { ToolPorts } from './tool-types';

/**
 * The senders the composition root builds from its provider config (Twilio or the sandbox carrier;
 * SES or the local SES; Stripe or the sandbox payment server).
 */
export type ToolSenders = Pick<ToolPorts, 'sms' | 'smsSandbox' | 'email' | 'payments'>;

/**
 * Whether texts go to the sandbox carrier (in this process or the local stack's), where fictional
 * numbers count as the line's region: decided from the telephony label the calls' metrics show
 * (`twilio-sandbox`), so the composition roots cannot disagree with the label.
 */
export function textsToSandbox(labels: Pick<ProviderLabels, 'telephony'>): boolean {
  return isSandboxLabel(labels.telephony);
}

/**
 * The built-in tools' back ends every composition (the media runtime, the test stack, the
 * benchmark) builds the same way: messages and bookings in the table; texts, emails, team notices
 * and payment pages through `senders` (Twilio, SES and Stripe, or their local stand-ins). `now` is
 * the wall clock the booking rules read (minimum notice, horizon, "upcoming"); tests pin it.
 */
export function tableBackedToolPorts(
  db: Db,
  ids: Pick<IdAllocator, 'nextId'>,
  log: Logger,
  senders: ToolSenders,
  now: () => Date = () => new Date(),
): ToolPorts {
  return {
    messages: new MessageService({ messages: new MessageRepository(db), ids, now: () => new Date() }),
    team: new MessagingTeamNotifier({ email: senders.email, sms: senders.sms, sandbox: senders.smsSandbox ?? false, log }),
    sms: senders.sms,
    ...(senders.smsSandbox && { smsSandbox: true }),
    email: senders.email,
    ...(senders.payments && { payments: senders.payments }),
    bookings: new BookingService({ businesses: new BusinessRepository(db), bookings: new BookingRepository(db), ids, now }),
  };
}
