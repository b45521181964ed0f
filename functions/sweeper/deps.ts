import { randomUUID } from 'node:crypto';
import { AssistantRepository } from '../../shared/db/assistant-repository';
import { CallRepository } from '../../shared/db/call-repository';
import { CallSlotsRepository } from '../../shared/db/call-slots-repository';
import type { Db } from '../../shared/db/client';
import { MinutesRepository } from '../../shared/db/minutes-repository';
import type { EventBus } from '../../shared/events/event-bus';
import type { OutboundCallQueue } from '../../shared/queue/outbound-calls';
import type { CallRecord } from '../../shared/db/call-repository';
import { CallLifecycle } from '../../shared/services/call-lifecycle';
import { CallSweeper, type CarrierHangup, type SweepLimits } from '../../shared/services/call-sweeper';
import type { Logger } from '../../shared/log';

/** What the one sweeper of a deployment is built from (the Lambda and the local stack's timer). */
export interface SweeperDeps {
  db: Db;
  /** Where the endings it makes publish call.ended (EventBridge; the local event router). */
  events: EventBus;
  queue: OutboundCallQueue;
  /** Best-effort carrier hang-up of the calls it ends. */
  telephony?: CarrierHangup;
  log: Logger;
  limits?: Partial<SweepLimits>;
  /** Each call it ended (metrics: calls ended with `error`). */
  onEnded?: (call: CallRecord) => void;
}

/** The sweeper with its own call lifecycle: its endings give slots and minutes back like any other. */
export function createSweeper(deps: SweeperDeps): CallSweeper {
  const now = () => new Date();
  const calls = new CallRepository(deps.db);
  const lifecycle = new CallLifecycle({
    calls,
    assistants: new AssistantRepository(deps.db),
    minutes: new MinutesRepository(deps.db),
    slots: new CallSlotsRepository(deps.db),
    events: deps.events,
    now,
    newEventId: () => `evt_${randomUUID()}`,
    ...(deps.onEnded && { onEnded: deps.onEnded }),
  });
  return new CallSweeper({
    ...deps.limits,
    calls,
    lifecycle,
    queue: deps.queue,
    ...(deps.telephony && { telephony: deps.telephony }),
    now,
    log: deps.log,
  });
}
