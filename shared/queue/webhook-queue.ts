import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';

/** SQS caps `DelaySeconds` at 15 minutes; longer waits hop through the queue. */
export const MAX_QUEUE_DELAY_S = 900;

/** Port: put a delivery message on the webhook queue, visible after `delaySeconds` (≤ 900). */
export interface WebhookQueue {
  send(body: string, delaySeconds: number): Promise<void>;
}

/** SQS adapter of the webhook queue (fauxqs locally). */
export class SqsWebhookQueue implements WebhookQueue {
  constructor(
    private readonly sqs: Pick<SQSClient, 'send'>,
    private readonly queueUrl: string,
  ) {}

  async send(body: string, delaySeconds: number): Promise<void> {
    const delay = Math.min(MAX_QUEUE_DELAY_S, Math.max(0, Math.ceil(delaySeconds)));
    await this.sqs.send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: body, DelaySeconds: delay }));
  }
}
