import { ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { OutboundConsumer } from '../../../media-service/src/calls/outbound-consumer';
import type { CallRecord } from '../../../shared/db/call-repository';
import { createApiHarness } from '../../support/api-harness';

async function setup() {
  const harness = await createApiHarness();
  const tenant = await harness.newTenant();
  const assistant = (await (await tenant.request('POST', '/assistants', {})).json()) as { id: number };
  const call = (await (await tenant.request('POST', '/calls', { assistant_id: assistant.id, to: '+14155550123' })).json()) as { id: number };
  const dialled: CallRecord[] = [];
  const logs: string[] = [];
  const consumer = new OutboundConsumer({
    sqs: harness.sqs,
    queueUrl: harness.queueUrl,
    calls: harness.core.callRepo,
    dial: async (record) => void dialled.push(record),
    owner: 'task-1',
    now: () => new Date('2026-11-23T10:00:00.000Z'),
    log: (message) => logs.push(message),
  });
  const receive = async () =>
    (await harness.sqs.send(new ReceiveMessageCommand({ QueueUrl: harness.queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }))).Messages ?? [];
  return { harness, tenant, call, consumer, dialled, logs, receive };
}

describe('outbound-calls consumer (fauxqs + DynamoDB Local)', () => {
  it('claims and dials the call the API enqueued, then deletes the job', async () => {
    // Arrange
    const { harness, tenant, call, consumer, dialled, receive } = await setup();
    const [message] = await receive();
    // Act
    const outcome = await consumer.handle(message!);
    // Assert
    expect(outcome).toBe('dialled');
    expect(dialled.map((record) => record.id)).toEqual([call.id]);
    const stored = await harness.core.callRepo.getCallRecord(tenant.businessId, call.id);
    expect(stored).toMatchObject({ claimed_by: 'task-1', status: 'queued' });
  });

  it('never dials twice when the same job is delivered again', async () => {
    // Arrange
    const { harness, tenant, call, consumer, dialled, receive } = await setup();
    await harness.sqs.send(
      new SendMessageCommand({ QueueUrl: harness.queueUrl, MessageBody: JSON.stringify({ business_id: tenant.businessId, call_id: call.id }) }),
    );
    const messages = await receive();
    // Act
    const outcomes = await Promise.all(messages.map((message) => consumer.handle(message)));
    // Assert
    expect(messages).toHaveLength(2);
    expect(outcomes.sort()).toEqual(['already_claimed', 'dialled']);
    expect(dialled).toHaveLength(1);
  });

  it('leaves a malformed job for the DLQ and deletes a job whose call does not exist', async () => {
    // Arrange
    const { harness, consumer, logs, receive } = await setup();
    await receive(); // take the API's own job out of the way (it becomes visible again later)
    await harness.sqs.send(new SendMessageCommand({ QueueUrl: harness.queueUrl, MessageBody: '{"business_id": "x"}' }));
    await harness.sqs.send(new SendMessageCommand({ QueueUrl: harness.queueUrl, MessageBody: JSON.stringify({ business_id: 1, call_id: 987654321 }) }));
    const messages = await receive();
    // Act
    const outcomes = await Promise.all(messages.map((message) => consumer.handle(message)));
    // Assert
    expect(outcomes.sort()).toEqual(['call_missing', 'invalid']);
    expect(logs.some((line) => line.includes('malformed'))).toBe(true);
  });
});
