import {
  ChangeMessageVisibilityBatchCommand,
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { Logger } from '../log';

/** Options of {@link pollFairly}. */
export interface FairPollerOptions {
  /** Runs one message's body; resolving deletes the message, throwing leaves it for redelivery. */
  handle: (body: string) => Promise<void>;
  /** The tenant a message belongs to (the business), or undefined: then the message is its own tenant. */
  groupOf: (body: string) => string | undefined;
  log: Logger;
  /** Messages handled at once. */
  maxInFlight?: number;
  /** Messages of one tenant handled at once; the rest of its messages wait for other tenants' first. */
  maxPerGroup?: number;
  /** Messages received and not yet finished (in flight or waiting); no more is received past it. */
  maxHeld?: number;
  /** How long a received message stays invisible; held messages are extended to it every third of it. */
  visibilityTimeoutS?: number;
  /**
   * Seconds before a message whose handler threw is received again, by how many times it has been
   * received (1 on the first failure); unset: the rest of its visibility timeout, as on AWS by default.
   */
  retryDelayS?: (receiveCount: number) => number;
}

interface Held {
  id: string;
  receipt: string;
  body: string;
  group: string;
  receiveCount: number;
}

/**
 * A fair consumer of an SQS queue, for the local stack, where fauxqs has no fair queues (on a
 * standard queue it accepts a MessageGroupId and drops it): receives ahead, up to `maxHeld`
 * messages, and starts them so that no tenant has more than `maxPerGroup` in flight and the tenant
 * with the fewest in flight, then the one served longest ago, goes next. So a tenant with a backlog
 * of slow messages holds another tenant's message up by at most the time one of its own in-flight
 * messages takes to finish.
 *
 * Messages are never released to reorder them (each receive counts towards the queue's
 * maxReceiveCount and would dead-letter them): waiting ones are kept here, their visibility extended
 * with the in-flight ones'. A message received again (its visibility lapsed anyway) is recognised by
 * its id and not started twice; its newest receipt handle is the one deleted. `stop()` receives
 * nothing more, hands the waiting messages back to the queue and waits for those in flight.
 */
export function pollFairly(sqs: SQSClient, queueUrl: string, options: FairPollerOptions): { stop(): Promise<void> } {
  const poller = new FairPoller(sqs, queueUrl, options);
  poller.start();
  return { stop: () => poller.stop() };
}

class FairPoller {
  readonly #held = new Map<string, Held>();
  readonly #waiting = new Map<string, Held[]>();
  readonly #inFlight = new Map<string, number>();
  readonly #lastStarted = new Map<string, number>();
  readonly #tasks = new Set<Promise<void>>();
  readonly #limits: Required<Pick<FairPollerOptions, 'maxInFlight' | 'maxPerGroup' | 'maxHeld' | 'visibilityTimeoutS'>>;
  #started = 0;
  #stopped = false;
  #wake: (() => void) | undefined;
  #loop: Promise<void> = Promise.resolve();
  #heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
    private readonly options: FairPollerOptions,
  ) {
    const { maxInFlight = 4, maxPerGroup = 1, maxHeld = 100, visibilityTimeoutS = 120 } = options;
    this.#limits = { maxInFlight, maxPerGroup, maxHeld, visibilityTimeoutS };
  }

  start(): void {
    const everyMs = (this.#limits.visibilityTimeoutS * 1000) / 3;
    this.#heartbeat = setInterval(() => void this.#extend([...this.#held.values()], this.#limits.visibilityTimeoutS), everyMs);
    this.#heartbeat.unref();
    this.#loop = this.#receiveLoop();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#notify();
    await this.#loop;
    clearInterval(this.#heartbeat);
    const notStarted = [...this.#waiting.values()].flat();
    this.#waiting.clear();
    for (const entry of notStarted) this.#held.delete(entry.id);
    await this.#extend(notStarted, 0);
    await Promise.all([...this.#tasks]);
  }

  async #receiveLoop(): Promise<void> {
    const { maxHeld, visibilityTimeoutS } = this.#limits;
    while (!this.#stopped) {
      if (this.#held.size >= maxHeld) {
        await new Promise<void>((resolve) => (this.#wake = resolve));
        continue;
      }
      try {
        const received = await this.sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: this.queueUrl,
            MaxNumberOfMessages: Math.min(10, maxHeld - this.#held.size),
            WaitTimeSeconds: 1,
            VisibilityTimeout: visibilityTimeoutS,
            MessageSystemAttributeNames: ['ApproximateReceiveCount'],
          }),
        );
        for (const message of received.Messages ?? []) this.#accept(message);
        this.#pump();
      } catch (error) {
        if (this.#stopped) break;
        this.options.log.warn('queue: receive failed', { error });
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }

  #accept(message: { MessageId?: string; ReceiptHandle?: string; Body?: string; Attributes?: Record<string, string> }): void {
    const id = message.MessageId!;
    const receiveCount = Number(message.Attributes?.ApproximateReceiveCount ?? 1);
    const known = this.#held.get(id);
    if (known) {
      known.receipt = message.ReceiptHandle!;
      known.receiveCount = receiveCount;
      return;
    }
    const body = message.Body ?? '';
    const entry = { id, receipt: message.ReceiptHandle!, body, group: this.options.groupOf(body) ?? `message:${id}`, receiveCount };
    this.#held.set(id, entry);
    this.#waiting.set(entry.group, [...(this.#waiting.get(entry.group) ?? []), entry]);
  }

  /** Of the tenants under their limit: the fewest in flight, then the one served longest ago (never: first). */
  #nextGroup(): string | undefined {
    let best: string | undefined;
    for (const group of this.#waiting.keys()) {
      const running = this.#inFlight.get(group) ?? 0;
      if (running >= this.#limits.maxPerGroup) continue;
      if (best === undefined) best = group;
      const bestRunning = this.#inFlight.get(best) ?? 0;
      const earlier = (this.#lastStarted.get(group) ?? -1) < (this.#lastStarted.get(best) ?? -1);
      if (running < bestRunning || (running === bestRunning && earlier)) best = group;
    }
    return best;
  }

  #pump(): void {
    while (!this.#stopped && this.#tasks.size < this.#limits.maxInFlight) {
      const group = this.#nextGroup();
      if (group === undefined) return;
      const queue = this.#waiting.get(group)!;
      const entry = queue.shift()!;
      if (queue.length === 0) this.#waiting.delete(group);
      this.#inFlight.set(group, (this.#inFlight.get(group) ?? 0) + 1);
      this.#lastStarted.set(group, this.#started++);
      const task = this.#run(entry).finally(() => {
        this.#held.delete(entry.id);
        const left = this.#inFlight.get(group)! - 1;
        if (left === 0) this.#inFlight.delete(group);
        else this.#inFlight.set(group, left);
        this.#tasks.delete(task);
        this.#pump();
        this.#notify();
      });
      this.#tasks.add(task);
    }
  }

  async #run(entry: Held): Promise<void> {
    try {
      await this.options.handle(entry.body);
    } catch (error) {
      this.options.log.error('queue message failed; it will be redelivered', { error, receive_count: entry.receiveCount });
      await this.#retryLater(entry);
      return;
    }
    try {
      // The newest receipt handle: a message received again meanwhile has a new one.
      await this.sqs.send(new DeleteMessageCommand({ QueueUrl: this.queueUrl, ReceiptHandle: entry.receipt }));
    } catch (error) {
      this.options.log.warn('queue message handled but not deleted; its redelivery will find it done', { error });
    }
  }

  /** Hands a failed message back to the queue after its retry delay (when one is set). */
  async #retryLater(entry: Held): Promise<void> {
    if (!this.options.retryDelayS) return;
    const delayS = this.options.retryDelayS(entry.receiveCount);
    try {
      await this.sqs.send(
        new ChangeMessageVisibilityCommand({ QueueUrl: this.queueUrl, ReceiptHandle: entry.receipt, VisibilityTimeout: delayS }),
      );
    } catch (error) {
      this.options.log.warn('queue: a failed message keeps its visibility timeout', { error });
    }
  }

  /** Sets the visibility of these messages: the heartbeat keeps them invisible, 0 hands them back. */
  async #extend(entries: Held[], timeoutS: number): Promise<void> {
    for (let i = 0; i < entries.length; i += 10) {
      const Entries = entries
        .slice(i, i + 10)
        .map((entry, n) => ({ Id: String(n), ReceiptHandle: entry.receipt, VisibilityTimeout: timeoutS }));
      try {
        const result = await this.sqs.send(new ChangeMessageVisibilityBatchCommand({ QueueUrl: this.queueUrl, Entries }));
        if (result.Failed?.length)
          this.options.log.warn('queue: some kept messages could not be kept invisible', { failed: result.Failed });
      } catch (error) {
        this.options.log.warn('queue: could not change the visibility of the kept messages', { error });
      }
    }
  }

  #notify(): void {
    this.#wake?.();
    this.#wake = undefined;
  }
}
