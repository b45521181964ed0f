import { randomUUID } from 'node:crypto';
import { CreateQueueCommand, GetQueueAttributesCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { describe, expect, inject, it } from 'vitest';
import { pollFairly } from '../../../shared/queue/fair-poller';
import { captureLogger } from '../../support/capture-logger';

/**
 * The fair poller's paths that depend on time passing on the queue: a message kept past its
 * visibility timeout. A client of its own records every command the poller sends to fauxqs (and
 * can swallow the visibility heartbeat), so the tests wait on what the poller did, not on a clock.
 */
class WatchedSqs {
  readonly client = new SQSClient({
    region: 'us-east-1',
    endpoint: inject('sqsEndpoint'),
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  /** Times each message id was received. */
  readonly receives = new Map<string, number>();
  /** ReceiveMessage calls sent, and the call that last returned each message id. */
  receiveCalls = 0;
  readonly lastReceivedBy = new Map<string, number>();
  /** The VisibilityTimeout of every heartbeat entry sent. */
  readonly heartbeats: number[] = [];
  /** Swallow the heartbeat, as if it never reached SQS. */
  dropHeartbeats = false;
  #waiters: Array<() => void> = [];

  constructor() {
    this.client.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { Entries?: Array<{ VisibilityTimeout?: number }> };
        if (context.commandName === 'ChangeMessageVisibilityBatchCommand') {
          for (const entry of input.Entries ?? []) this.heartbeats.push(entry.VisibilityTimeout ?? -1);
          if (this.dropHeartbeats) {
            this.#notify();
            return { output: { Successful: [], Failed: [], $metadata: {} }, response: {} };
          }
        }
        const call = context.commandName === 'ReceiveMessageCommand' ? ++this.receiveCalls : 0;
        this.#notify();
        const result = await next(args);
        for (const message of (result.output as { Messages?: Array<{ MessageId?: string }> }).Messages ?? []) {
          this.receives.set(message.MessageId!, (this.receives.get(message.MessageId!) ?? 0) + 1);
          this.lastReceivedBy.set(message.MessageId!, call);
        }
        this.#notify();
        return result;
      },
      { step: 'initialize', name: 'watch' },
    );
  }

  /** Resolves once `test` holds (checked after every command). */
  until(test: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = () => (test() ? resolve() : this.#waiters.push(check));
      check();
    });
  }

  #notify() {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const check of waiters) check();
  }
}

async function queueWith(sqs: SQSClient, body: string): Promise<{ queueUrl: string; messageId: string }> {
  const created = await sqs.send(new CreateQueueCommand({ QueueName: `fair-${randomUUID()}` }));
  const sent = await sqs.send(new SendMessageCommand({ QueueUrl: created.QueueUrl, MessageBody: body }));
  return { queueUrl: created.QueueUrl!, messageId: sent.MessageId! };
}

async function messagesLeft(sqs: SQSClient, queueUrl: string): Promise<number> {
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return Number(Attributes!.ApproximateNumberOfMessages) + Number(Attributes!.ApproximateNumberOfMessagesNotVisible);
}

describe('the fair poller, with a message in flight past its visibility timeout', () => {
  it('keeps it invisible with heartbeats at the visibility timeout while its handler runs', async () => {
    // Arrange
    const sqs = new WatchedSqs();
    const { queueUrl } = await queueWith(sqs.client, 'slow');
    let release!: () => void;
    const running = new Promise<void>((resolve) => (release = resolve));
    const poller = pollFairly(sqs.client, queueUrl, {
      handle: () => running,
      groupOf: () => undefined,
      log: captureLogger().log,
      visibilityTimeoutS: 1,
    });

    // Act: two heartbeats while the handler runs
    await sqs.until(() => sqs.heartbeats.length >= 2);
    release();
    await sqs.until(() => sqs.receives.size === 1);
    await poller.stop();

    // Assert
    expect(sqs.heartbeats.slice(0, 2)).toEqual([1, 1]);
    expect(await messagesLeft(sqs.client, queueUrl)).toBe(0);
  });

  it('recognises it when it is received again, never starts it twice, and deletes it by its newest receipt', async () => {
    // Arrange: heartbeats lost, so the message becomes visible again while its handler still runs
    const sqs = new WatchedSqs();
    sqs.dropHeartbeats = true;
    const { queueUrl, messageId } = await queueWith(sqs.client, 'slow');
    let starts = 0;
    let release!: () => void;
    const running = new Promise<void>((resolve) => (release = resolve));
    const logs = captureLogger();
    const poller = pollFairly(sqs.client, queueUrl, {
      handle: async () => {
        starts++;
        await running;
      },
      groupOf: () => undefined,
      log: logs.log,
      visibilityTimeoutS: 1,
    });

    // Act: released once the poller has taken in the second receive (it has sent the next receive since)
    await sqs.until(() => (sqs.receives.get(messageId) ?? 0) >= 2 && sqs.receiveCalls > sqs.lastReceivedBy.get(messageId)!);
    release();
    await poller.stop();

    // Assert: deleted (the first receipt is stale once the message was received again)
    expect(starts).toBe(1);
    expect(await messagesLeft(sqs.client, queueUrl)).toBe(0);
    expect(logs.messages()).not.toContain('queue message handled but not deleted; its redelivery will find it done');
  });
});
