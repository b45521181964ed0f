import { randomUUID } from 'node:crypto';
import { CreateQueueCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { IngestJob } from '../../../shared/domain/knowledge';
import { pollIngestQueue, SqsIngestQueue, type IngestPollLimits } from '../../../shared/queue/knowledge-ingest';
import { captureLogger } from '../../support/capture-logger';

const sqs = new SQSClient({
  region: 'us-east-1',
  endpoint: inject('sqsEndpoint'),
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});

interface Gate {
  promise: Promise<void>;
  open: () => void;
  fail: (error: Error) => void;
}

function gate(): Gate {
  let open!: () => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<void>((resolve, reject) => ((open = resolve), (fail = reject)));
  promise.catch(() => undefined); // a gate failed before its document starts is not an unhandled rejection
  return { promise, open, fail };
}

/**
 * An ingestion handler whose documents finish when the test says: it records who started, who
 * finished, and the most documents in flight at once, in all and per business.
 */
class BlockingHandler {
  readonly gates = new Map<number, Gate>();
  readonly started: IngestJob[] = [];
  readonly finished: number[] = [];
  readonly running = new Map<number, number>();
  maxRunning = 0;
  readonly maxPerBusiness = new Map<number, number>();
  #waiters: Array<() => void> = [];

  gateOf(documentId: number): Gate {
    if (!this.gates.has(documentId)) this.gates.set(documentId, gate());
    return this.gates.get(documentId)!;
  }

  readonly handle = async (body: string): Promise<void> => {
    const job = JSON.parse(body) as IngestJob;
    this.running.set(job.business_id, (this.running.get(job.business_id) ?? 0) + 1);
    const total = [...this.running.values()].reduce((sum, n) => sum + n, 0);
    this.maxRunning = Math.max(this.maxRunning, total);
    this.maxPerBusiness.set(job.business_id, Math.max(this.maxPerBusiness.get(job.business_id) ?? 0, this.running.get(job.business_id)!));
    this.started.push(job);
    this.#notify();
    try {
      await this.gateOf(job.document_id).promise;
      this.finished.push(job.document_id);
    } finally {
      this.running.set(job.business_id, this.running.get(job.business_id)! - 1);
      this.#notify();
    }
  };

  /** Resolves once `test` holds (checked after every start and finish; no sleeping). */
  until(test: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = () => (test() ? resolve() : this.#waiters.push(check));
      check();
    });
  }

  hasStarted(documentId: number): boolean {
    return this.started.some((job) => job.document_id === documentId);
  }

  #notify() {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const check of waiters) check();
  }
}

const active: Array<{ handler: BlockingHandler; poller: { stop(): Promise<void> } }> = [];
afterEach(async () => {
  // A failed test may leave documents blocked: stop (nothing more starts), then let them finish.
  const stopping = active.map(({ poller }) => poller.stop());
  for (const { handler } of active.splice(0)) for (const job of handler.started) handler.gateOf(job.document_id).open();
  await Promise.all(stopping);
});

async function newQueue(): Promise<string> {
  const created = await sqs.send(new CreateQueueCommand({ QueueName: `ingest-fair-${randomUUID()}` }));
  return created.QueueUrl!;
}

async function counts(queueUrl: string): Promise<{ visible: number; invisible: number }> {
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return { visible: Number(Attributes!.ApproximateNumberOfMessages), invisible: Number(Attributes!.ApproximateNumberOfMessagesNotVisible) };
}

async function start(limits: IngestPollLimits, documents: Array<[business: number, document: number]>) {
  const queueUrl = await newQueue();
  const queue = new SqsIngestQueue(sqs, queueUrl);
  for (const [business, document] of documents) await queue.enqueue({ business_id: business, knowledge_base_id: 1, document_id: document });
  const handler = new BlockingHandler();
  const logs = captureLogger();
  const poller = pollIngestQueue(sqs, queueUrl, handler.handle, logs.log, limits);
  active.push({ handler, poller });
  return { queueUrl, handler, logs, poller };
}

const A = 101;
const B = 202;
const C = 303;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('local knowledge ingestion is fair across businesses', () => {
  it("handles business B's document while business A's ten are all blocked, within both limits, each exactly once", async () => {
    // Arrange: A's documents 1-10 block until released; B's document 11 was queued after them.
    const { queueUrl, handler, poller } = await start({ maxInFlight: 4, maxPerBusiness: 2 }, [
      ...range(1, 10).map((doc): [number, number] => [A, doc]),
      [B, 11],
    ]);
    handler.gateOf(11).open();

    // Act
    await handler.until(() => handler.finished.includes(11));

    // Assert: B is done while none of A's has finished and only two of them have started.
    expect(handler.finished).toEqual([11]);
    expect(handler.started.filter((job) => job.business_id === A)).toHaveLength(2);

    // Act: A's documents finish.
    for (const doc of range(1, 10)) handler.gateOf(doc).open();
    await handler.until(() => handler.finished.length === 11);
    await poller.stop();

    // Assert
    expect([...handler.finished].sort((x, y) => x - y)).toEqual(range(1, 11));
    expect(handler.started).toHaveLength(11);
    expect(handler.maxRunning).toBeLessThanOrEqual(4);
    expect(handler.maxPerBusiness.get(A)).toBe(2);
    expect(handler.maxPerBusiness.get(B)).toBe(1);
    expect(await counts(queueUrl)).toEqual({ visible: 0, invisible: 0 });
  });

  it("handles B's document behind 150 of A's blocked (more than the 100 the poller once held)", async () => {
    // Arrange
    const { handler, poller } = await start({}, [...range(1, 150).map((doc): [number, number] => [A, doc]), [B, 151]]);
    handler.gateOf(151).open();
    // Act
    await handler.until(() => handler.finished.includes(151));
    // Assert
    expect(handler.finished).toEqual([151]);
    for (const doc of range(1, 150)) handler.gateOf(doc).open();
    await handler.until(() => handler.finished.length === 151);
    await poller.stop();
  });

  it("starts other businesses' waiting documents before the next of a business already being served", async () => {
    // Arrange: A has five queued before B's and C's one each; two at a time, two a business.
    const { handler } = await start({ maxInFlight: 2, maxPerBusiness: 2 }, [
      ...range(1, 5).map((doc): [number, number] => [A, doc]),
      [B, 6],
      [C, 7],
    ]);
    await handler.until(() => handler.started.length === 2);
    const [first, second] = handler.started;

    // Act: one document finishes at a time.
    handler.gateOf(first!.document_id).open();
    await handler.until(() => handler.started.length === 3);
    handler.gateOf(second!.document_id).open();
    await handler.until(() => handler.started.length === 4);

    // Assert: B and C went before A's third, whatever was received first.
    const firstFour = handler.started.map((job) => job.business_id);
    expect(firstFour.filter((business) => business === A)).toHaveLength(2);
    expect(firstFour).toContain(B);
    expect(firstFour).toContain(C);
    for (const doc of range(1, 7)) handler.gateOf(doc).open();
  });

  it('leaves the message of a handler that threw for redelivery, and deletes the others', async () => {
    // Arrange
    const { queueUrl, handler, logs, poller } = await start({ maxInFlight: 4, maxPerBusiness: 1 }, [
      [A, 1],
      [B, 2],
    ]);
    handler.gateOf(1).fail(new Error('DynamoDB is down'));
    handler.gateOf(2).open();

    // Act
    await handler.until(() => handler.started.length === 2 && [...handler.running.values()].every((n) => n === 0));
    await poller.stop();

    // Assert: A's message is still on the queue (in flight until its visibility lapses), B's is gone.
    expect(handler.finished).toEqual([2]);
    expect(await counts(queueUrl)).toEqual({ visible: 0, invisible: 1 });
    expect(logs.messages()).toContain('queue message failed; it will be redelivered');
  });

  it('stop() waits for the documents in flight and hands the waiting ones back to the queue', async () => {
    // Arrange: one of A's three at a time, so two wait in the poller.
    const { queueUrl, handler, poller } = await start({ maxInFlight: 4, maxPerBusiness: 1 }, [
      [A, 1],
      [A, 2],
      [A, 3],
    ]);
    await handler.until(() => handler.started.length === 1);
    let stopped = false;

    // Act: stop while one is in flight; the two waiting go back first.
    const stopping = poller.stop().then(() => (stopped = true));
    while ((await counts(queueUrl)).visible < 2) {
      /* the hand-back is one ChangeMessageVisibilityBatch after the current long poll (≤ 1 s) */
    }
    const stoppedBeforeDrain = stopped;
    handler.gateOf(handler.started[0]!.document_id).open();
    await stopping;

    // Assert
    expect(stoppedBeforeDrain).toBe(false);
    expect(handler.started).toHaveLength(1);
    expect(handler.finished).toEqual([handler.started[0]!.document_id]);
    expect(await counts(queueUrl)).toEqual({ visible: 2, invisible: 0 });
  });
});

describe('SqsIngestQueue', () => {
  it('sends the business id as the MessageGroupId (what makes an SQS standard queue a fair queue)', async () => {
    // Arrange: fauxqs drops a standard queue's MessageGroupId, so a FIFO queue shows what was sent.
    const created = await sqs.send(
      new CreateQueueCommand({
        QueueName: `ingest-group-${randomUUID()}.fifo`,
        Attributes: { FifoQueue: 'true', ContentBasedDeduplication: 'true' },
      }),
    );

    // Act
    await new SqsIngestQueue(sqs, created.QueueUrl!).enqueue({ business_id: 42, knowledge_base_id: 7, document_id: 9 });
    const received = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: created.QueueUrl, MessageSystemAttributeNames: ['MessageGroupId'], WaitTimeSeconds: 1 }),
    );

    // Assert
    expect(received.Messages).toHaveLength(1);
    expect(received.Messages![0]!.Attributes).toEqual({ MessageGroupId: '42' });
    expect(JSON.parse(received.Messages![0]!.Body!)).toEqual({ business_id: 42, knowledge_base_id: 7, document_id: 9 });
  });
});
