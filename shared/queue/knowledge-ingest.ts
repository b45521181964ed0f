import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { KNOWLEDGE_LIMITS, parseIngestJob, type IngestJob } from '../domain/knowledge';
import type { Logger } from '../log';
import { pollFairly } from './fair-poller';

/** Port: hand a document to the ingestion function. */
export interface IngestQueue {
  enqueue(job: IngestJob): Promise<void>;
}

/**
 * SQS adapter (fauxqs locally): one message per document; the handler is idempotent per document.
 * Each message carries its business as `MessageGroupId`, which makes the standard queue an SQS
 * fair queue: a business with a backlog of slow documents no longer delays other businesses'
 * (docs/decisions.md "Knowledge ingestion is fair across businesses"). The id is the business's
 * number alone, as in the body.
 */
export class SqsIngestQueue implements IngestQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async enqueue(job: IngestJob): Promise<void> {
    await this.sqs.send(
      new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(job), MessageGroupId: String(job.business_id) }),
    );
  }
}

/**
 * Messages the local poller holds received (waiting or in flight): more than one business's
 * whole backlog (50 bases of 100 documents), so another business's document is always received
 * while one business's wait. With it at 100, 130 slow documents of one business kept another's
 * message in the queue for 90 s. Two such backlogs at once can still hold a third business up.
 */
const MAX_HELD = KNOWLEDGE_LIMITS.basesPerBusiness * KNOWLEDGE_LIMITS.documentsPerBase + 1000;

/** The longest wait before a failed document is tried again (well under the queue's visibility timeout). */
const MAX_RETRY_DELAY_S = 15 * 60;

/**
 * Seconds before a document whose ingestion threw (our failure: the embeddings API, DynamoDB) is
 * tried again, by how many times it has been received: 60 s, doubling, at most 15 minutes. With
 * the queue's 5 receives (3 locally), a document is given up about 30 minutes (7 locally) after
 * its first try, not 5 × the 30-minute visibility timeout, and the dead-letter consumer marks it
 * failed ({@link pollDeadLetters}, functions/knowledge-dead-letters).
 */
export function ingestRetryDelayS(receiveCount: number): number {
  return Math.min(MAX_RETRY_DELAY_S, 60 * 2 ** Math.max(0, receiveCount - 1));
}

/** How many documents the local poller ingests at once, in all and per business. */
export interface IngestPollLimits {
  /** Documents in flight at once (default 4). */
  maxInFlight?: number;
  /** Documents of one business in flight at once (default 1): its others wait for other businesses' first. */
  maxPerBusiness?: number;
  /** Seconds before a failed document is tried again (default {@link ingestRetryDelayS}; tests pass 0). */
  retryDelayS?: (receiveCount: number) => number;
}

/**
 * The local stand-in for the SQS → Lambda trigger: long-polls the queue and runs the same handler
 * the Lambda runs, several documents at once and fairly across businesses (the part SQS fair
 * queues play on AWS; see {@link pollFairly}). A message is deleted once handled; a handler that
 * throws leaves it for redelivery after the visibility timeout, as on AWS.
 */
export function pollIngestQueue(
  sqs: SQSClient,
  queueUrl: string,
  handle: (body: string) => Promise<void>,
  log: Logger,
  limits: IngestPollLimits = {},
): { stop(): Promise<void> } {
  return pollFairly(sqs, queueUrl, {
    handle,
    groupOf: businessOf,
    log,
    maxInFlight: limits.maxInFlight ?? 4,
    maxPerGroup: limits.maxPerBusiness ?? 1,
    maxHeld: MAX_HELD,
    retryDelayS: limits.retryDelayS ?? ingestRetryDelayS,
  });
}

/**
 * The local stand-in for the dead-letter queue's function (functions/knowledge-dead-letters):
 * runs the same handler on each message the ingestion queue gave up on, which marks its document
 * failed. A handler that throws (DynamoDB down) leaves the message for redelivery.
 */
export function pollDeadLetters(
  sqs: SQSClient,
  dlqUrl: string,
  handle: (body: string) => Promise<void>,
  log: Logger,
): { stop(): Promise<void> } {
  return pollFairly(sqs, dlqUrl, { handle, groupOf: businessOf, log, maxInFlight: 4, maxPerGroup: 4, visibilityTimeoutS: 30 });
}

/** The business of an ingestion message, read from its body (fauxqs drops a standard queue's MessageGroupId). */
function businessOf(body: string): string | undefined {
  const job = parseIngestJob(body);
  return job ? `business:${job.business_id}` : undefined;
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
