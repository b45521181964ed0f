import { PutEventsCommand, type EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { EVENT_SOURCE, type CallEvent } from './catalog';
import { EVENT_RULES, matchesRule, type RuleTarget } from './rules';
import { createLogger, type Logger } from '../log';

/** Port: publish call events. EventBridge in production, the in-process router locally. */
export interface EventBus {
  publish(events: CallEvent[]): Promise<void>;
}

/** Thrown when entries still fail after the retries. */
export class PublishError extends Error {
  constructor(
    message: string,
    readonly failed: { type: string; errorCode?: string; errorMessage?: string }[],
  ) {
    super(message);
    this.name = 'PublishError';
  }
}

/** PutEvents takes at most 10 entries per request. */
const BATCH = 10;

/**
 * EventBridge adapter. PutEvents can succeed as a request while failing some entries
 * (`FailedEntryCount` > 0, per-entry `ErrorCode`), so failed entries are retried on their own with
 * backoff, and an error is thrown only when some still fail.
 */
export class EventBridgeBus implements EventBus {
  constructor(
    private readonly client: Pick<EventBridgeClient, 'send'>,
    private readonly busName: string,
    private readonly options: { attempts?: number; sleep?: (ms: number) => Promise<void> } = {},
  ) {}

  async publish(events: CallEvent[]): Promise<void> {
    for (let i = 0; i < events.length; i += BATCH) await this.publishBatch(events.slice(i, i + BATCH));
  }

  private async publishBatch(events: CallEvent[]): Promise<void> {
    const attempts = this.options.attempts ?? 4;
    const sleep = this.options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    let pending = events;
    let failures: { type: string; errorCode?: string; errorMessage?: string }[] = [];
    for (let attempt = 0; attempt < attempts && pending.length > 0; attempt++) {
      if (attempt > 0) await sleep(100 * 2 ** attempt);
      const result = await this.client.send(
        new PutEventsCommand({
          Entries: pending.map((event) => ({
            EventBusName: this.busName,
            Source: EVENT_SOURCE,
            DetailType: event.type,
            Detail: JSON.stringify(event.detail),
            Time: new Date(event.detail.occurred_at),
          })),
        }),
      );
      if (!result.FailedEntryCount) return;
      const entries = result.Entries ?? [];
      failures = [];
      pending = pending.filter((event, index) => {
        const entry = entries[index];
        if (!entry?.ErrorCode) return false;
        failures.push({ type: event.type, errorCode: entry.ErrorCode, errorMessage: entry.ErrorMessage });
        return true;
      });
    }
    if (pending.length > 0) throw new PublishError(`${pending.length} event(s) could not be published`, failures);
  }
}

/** What the local router delivers to: one handler per rule target. */
export type LocalTargets = Record<RuleTarget, (event: CallEvent) => Promise<void>>;

/**
 * The local stand-in for EventBridge: matches the SAME rule declarations infra uses and invokes the
 * targets asynchronously (like EventBridge, publishing does not wait for consumers). A failing
 * target is retried a few times and then reported, never thrown at the publisher.
 */
export class LocalEventRouter implements EventBus {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly targets: LocalTargets,
    private readonly log: Logger = createLogger({ service: 'events' }),
  ) {}

  async publish(events: CallEvent[]): Promise<void> {
    for (const event of events) {
      for (const rule of EVENT_RULES) {
        if (!matchesRule(rule, EVENT_SOURCE, event.type, event.detail)) continue;
        const run = this.deliver(rule.target, event).finally(() => this.inFlight.delete(run));
        this.inFlight.add(run);
      }
    }
  }

  /** Resolves when every delivery started so far has finished (tests and shutdown). */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private async deliver(target: RuleTarget, event: CallEvent): Promise<void> {
    await Promise.resolve();
    for (let attempt = 1; attempt <= 3; attempt++) {
      try {
        await this.targets[target](event);
        return;
      } catch (error) {
        if (attempt === 3)
          this.log.error(`local event target ${target} failed for ${event.type} (call ${event.detail.call_id})`, { error });
      }
    }
  }
}
