import { ChangeMessageVisibilityBatchCommand, DeleteMessageCommand, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
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
}

interface Held {
  id: string;
  receipt: string;
  body: string;
  group: string;
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
  const { handle, groupOf, log, maxInFlight = 4, maxPerGroup = 1, maxHeld = 100, visibilityTimeoutS = 120 } = options;
  const held = new Map<string, Held>();
  const waiting = new Map<string, Held[]>();
  const inFlight = new Map<string, number>();
  const lastStarted = new Map<string, number>();
  const tasks = new Set<Promise<void>>();
  let started = 0;
  let stopped = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };

  const accept = (message: { MessageId?: string; ReceiptHandle?: string; Body?: string }) => {
    const id = message.MessageId!;
    const known = held.get(id);
    if (known) {
      known.receipt = message.ReceiptHandle!;
      return;
    }
    const body = message.Body ?? '';
    const entry = { id, receipt: message.ReceiptHandle!, body, group: groupOf(body) ?? `message:${id}` };
    held.set(id, entry);
    waiting.set(entry.group, [...(waiting.get(entry.group) ?? []), entry]);
  };

  // Fewest in flight first, then the tenant served longest ago (never served: first of all).
  const nextGroup = (): string | undefined => {
    let best: string | undefined;
    for (const group of waiting.keys()) {
      const running = inFlight.get(group) ?? 0;
      if (running >= maxPerGroup) continue;
      if (best === undefined) best = group;
      const bestRunning = inFlight.get(best) ?? 0;
      const earlier = (lastStarted.get(group) ?? -1) < (lastStarted.get(best) ?? -1);
      if (running < bestRunning || (running === bestRunning && earlier)) best = group;
    }
    return best;
  };

  const run = async (entry: Held) => {
    try {
      await handle(entry.body);
    } catch (error) {
      log.error('queue message failed; it will be redelivered', { error });
      return;
    }
    try {
      await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: entry.receipt }));
    } catch (error) {
      log.warn('queue message handled but not deleted; its redelivery will find it done', { error });
    }
  };

  const pump = () => {
    let running = tasks.size;
    for (let group = nextGroup(); !stopped && running < maxInFlight && group !== undefined; group = nextGroup()) {
      const queue = waiting.get(group)!;
      const entry = queue.shift()!;
      if (queue.length === 0) waiting.delete(group);
      inFlight.set(group, (inFlight.get(group) ?? 0) + 1);
      lastStarted.set(group, started++);
      const task = run(entry).finally(() => {
        held.delete(entry.id);
        inFlight.set(group, inFlight.get(group)! - 1);
        if (inFlight.get(group) === 0) inFlight.delete(group);
        tasks.delete(task);
        pump();
        notify();
      });
      tasks.add(task);
      running++;
    }
  };

  const extend = async (entries: Held[], timeoutS = visibilityTimeoutS) => {
    for (let i = 0; i < entries.length; i += 10) {
      const batch = entries.slice(i, i + 10);
      const Entries = batch.map((entry, n) => ({ Id: String(n), ReceiptHandle: entry.receipt, VisibilityTimeout: timeoutS }));
      try {
        const result = await sqs.send(new ChangeMessageVisibilityBatchCommand({ QueueUrl: queueUrl, Entries }));
        if (result.Failed?.length) log.warn('queue: some messages kept could not be kept invisible', { failed: result.Failed });
      } catch (error) {
        log.warn('queue: could not extend the visibility of the messages kept', { error });
      }
    }
  };

  const heartbeat = setInterval(() => void extend([...held.values()]), (visibilityTimeoutS * 1000) / 3);
  heartbeat.unref();

  const loop = (async () => {
    while (!stopped) {
      if (held.size >= maxHeld) {
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      try {
        const received = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: Math.min(10, maxHeld - held.size),
            WaitTimeSeconds: 1,
            VisibilityTimeout: visibilityTimeoutS,
          }),
        );
        for (const message of received.Messages ?? []) accept(message);
        pump();
      } catch (error) {
        if (!stopped) log.warn('queue: receive failed', { error });
        if (!stopped) await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  })();

  return {
    async stop() {
      stopped = true;
      notify();
      await loop;
      clearInterval(heartbeat);
      const notStarted = [...waiting.values()].flat();
      waiting.clear();
      for (const entry of notStarted) held.delete(entry.id);
      await extend(notStarted, 0);
      await Promise.all([...tasks]);
    },
  };
}
