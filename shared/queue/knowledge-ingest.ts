import { DeleteMessageCommand, ReceiveMessageCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { IngestJob } from '../domain/knowledge';
import type { Logger } from '../log';

/** Port: hand a document to the ingestion function. */
export interface IngestQueue {
  enqueue(job: IngestJob): Promise<void>;
}

/** SQS adapter (fauxqs locally): one message per document; the handler is idempotent per document. */
export class SqsIngestQueue implements IngestQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async enqueue(job: IngestJob): Promise<void> {
    await this.sqs.send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(job) }));
  }
}

/**
 * The local stand-in for the SQS → Lambda trigger: long-polls the queue and runs the same handler
 * the Lambda runs, one message at a time, deleting it once handled (a handler that throws leaves
 * it for redelivery after the visibility timeout, as on AWS).
 */
export function pollIngestQueue(
  sqs: SQSClient,
  queueUrl: string,
  handle: (body: string) => Promise<void>,
  log: Logger,
): { stop(): Promise<void> } {
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      try {
        const received = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
        for (const message of received.Messages ?? []) {
          try {
            await handle(message.Body ?? '');
            await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle }));
          } catch (error) {
            log.error('knowledge ingestion: a message failed; it will be redelivered', { error });
          }
        }
      } catch (error) {
        if (!stopped) log.warn('knowledge ingestion: receive failed', { error });
        if (!stopped) await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

/**
 * No queue configured (API tests, one-off tools): the handler runs in this process on the next
 * turn of the event loop, still after the response, one document at a time.
 */
export class InProcessIngestQueue implements IngestQueue {
  #tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly handle: (body: string) => Promise<void>,
    private readonly log: Logger,
  ) {}

  async enqueue(job: IngestJob): Promise<void> {
    const body = JSON.stringify(job);
    this.#tail = this.#tail
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => this.handle(body))
      .catch((error: unknown) => this.log.error('knowledge ingestion failed (in process)', { error }));
  }

  /** Resolves once every queued document has been handled (tests). */
  async idle(): Promise<void> {
    let tail;
    do {
      tail = this.#tail;
      await tail;
    } while (tail !== this.#tail);
  }
}
