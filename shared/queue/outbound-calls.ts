import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import * as v from 'valibot';

/** The job the API puts on the outbound-calls queue for the call engine. */
export const OutboundCallJobSchema = v.strictObject({
  business_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  call_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
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
