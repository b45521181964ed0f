import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import * as v from 'valibot';

/** The job the API puts on the outbound-calls queue for the call engine. */
export const OutboundCallJobSchema = v.strictObject({
  business_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  call_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  /** How many times the job was sent back (deferred at the concurrency cap, or retried after a dial that placed nothing; absent: never); sets its next wait. */
  attempt: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100_000))),
});

export type OutboundCallJob = v.InferOutput<typeof OutboundCallJobSchema>;

/** Port: hand an outbound call to the call engine. */
export interface OutboundCallQueue {
  enqueue(job: OutboundCallJob): Promise<void>;
}

/** SQS adapter (fauxqs locally): one message per call; the consumer claims calls idempotently. */
export class SqsOutboundCallQueue implements OutboundCallQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async enqueue(job: OutboundCallJob): Promise<void> {
    await this.sqs.send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(job) }));
  }
}

/** A received job: what the queue handed over (an SQS message has this shape). */
export interface ReceivedJob {
  MessageId?: string;
  Body?: string;
  /** The queue's handle for this delivery (delete, extend). */
  ReceiptHandle?: string;
}

/** How one receive is bounded: at most `max` jobs (1–10, default 10). */
export interface ReceiveOptions {
  max?: number;
}

/** Port: the call engine's side of the outbound-calls queue. */
export interface OutboundJobs {
  /** Waits up to `waitS` for up to 10 jobs, each hidden from other consumers for `visibilityS`. */
  receive(waitS: number, visibilityS: number, options?: ReceiveOptions): Promise<ReceivedJob[]>;
  /** Hands a received job back untouched: visible to every consumer at once (a task that stopped). */
  release(job: ReceivedJob): Promise<void>;
  /** Puts a job back, visible after `delayS` (a call deferred at the concurrency cap). */
  resend(job: OutboundCallJob, delayS: number): Promise<void>;
  /** Keeps the job hidden for another `visibilityS` (a slow dial). */
  extend(job: ReceivedJob, visibilityS: number): Promise<void>;
  /** The job is done: it is never delivered again. */
  complete(job: ReceivedJob): Promise<void>;
}

/** SQS adapter of {@link OutboundJobs} (fauxqs locally). */
export class SqsOutboundJobs implements OutboundJobs {
  constructor(
    private readonly sqs: Pick<SQSClient, 'send'>,
    private readonly queueUrl: string,
  ) {}

  async receive(waitS: number, visibilityS: number, options: ReceiveOptions = {}): Promise<ReceivedJob[]> {
    const received = await this.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: this.queueUrl,
        MaxNumberOfMessages: Math.min(10, Math.max(1, options.max ?? 10)),
        WaitTimeSeconds: waitS,
        VisibilityTimeout: visibilityS,
      }),
    );
    return received.Messages ?? [];
  }

  async release(job: ReceivedJob): Promise<void> {
    await this.extend(job, 0);
  }

  async resend(job: OutboundCallJob, delayS: number): Promise<void> {
    await this.sqs.send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(job), DelaySeconds: delayS }));
  }

  async extend(job: ReceivedJob, visibilityS: number): Promise<void> {
    await this.sqs.send(
      new ChangeMessageVisibilityCommand({ QueueUrl: this.queueUrl, ReceiptHandle: job.ReceiptHandle, VisibilityTimeout: visibilityS }),
    );
  }

  async complete(job: ReceivedJob): Promise<void> {
    await this.sqs.send(new DeleteMessageCommand({ QueueUrl: this.queueUrl, ReceiptHandle: job.ReceiptHandle }));
  }
}
