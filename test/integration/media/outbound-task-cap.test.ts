import { ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { describe, expect, it, vi } from 'vitest';
import { OutboundConsumer } from '../../../media-service/src/calls/outbound-consumer';
import { SessionRegistry } from '../../../media-service/src/server/session-registry';
import { TaskAdmission } from '../../../media-service/src/server/task-admission';
import type { CallRecord } from '../../../shared/db/call-repository';
import { SqsOutboundJobs } from '../../../shared/queue/outbound-calls';
import { silentLogger } from '../../../shared/log';
import { createApiHarness } from '../../support/api-harness';
import { holdSeat as seat } from '../../support/session-seat';

/** An outbound consumer on a fresh fauxqs queue whose task has room for `maxCalls`. */
async function setup(maxCalls: number) {
  const harness = await createApiHarness();
  const tenant = await harness.newTenant();
  const assistant = (await (await tenant.request('POST', '/assistants', {})).json()) as { id: number };
  const placeCall = async () =>
    ((await (await tenant.request('POST', '/calls', { assistant_id: assistant.id, to: '+14155550123' })).json()) as { id: number }).id;
  const registry = new SessionRegistry();
  // Dialled calls stop counting when the test says so (a manual pending-dial timer).
  const lapses: Array<() => void> = [];
  const admission = new TaskAdmission({ maxCalls, registry, timer: (run) => (lapses.push(run), () => undefined) });
  const dialled: CallRecord[] = [];
  const consumer = new OutboundConsumer({
    jobs: new SqsOutboundJobs(harness.sqs, harness.queueUrl),
    calls: harness.core.callRepo,
    dial: async (record) => (dialled.push(record), 'dialled' as const),
    owner: 'task-1',
    now: () => new Date(),
    log: silentLogger,
    waitTimeS: 20,
    admission,
  });
  /** Peeks at the queue without taking anything (visibility 0: the jobs stay visible). */
  const visibleJobs = async () =>
    (
      await harness.sqs.send(
        new ReceiveMessageCommand({ QueueUrl: harness.queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 0 }),
      )
    ).Messages ?? [];
  return { harness, tenant, registry, admission, consumer, dialled, placeCall, visibleJobs, lapses };
}

describe('outbound consumer and the task admission cap (fauxqs + DynamoDB Local)', () => {
  it('receives nothing while the task is at its cap, so the job stays on the queue; resumes once a call ends', async () => {
    // Arrange
    const { registry, consumer, dialled, placeCall, visibleJobs } = await setup(2);
    const held = [seat(registry, 9001), seat(registry, 9002)];
    const running = consumer.run();
    await vi.waitFor(() => expect(consumer.state).toBe('at_task_cap'));
    // Act
    const callId = await placeCall();
    const waiting = await visibleJobs();
    held[0]!.end();
    await vi.waitFor(() => expect(dialled.map((call) => call.id)).toEqual([callId]));
    consumer.stop();
    await running;
    // Assert
    expect(waiting.map((message) => JSON.parse(message.Body!))).toEqual([{ business_id: expect.any(Number), call_id: callId }]);
    expect(dialled[0]).toMatchObject({ id: callId, claimed_by: 'task-1' });
    expect(await visibleJobs()).toEqual([]);
    expect(consumer.state).toBe('stopped');
  });

  it('asks for at most the room left, and counts what it dialled until the pending window lapses', async () => {
    // Arrange
    const { registry, admission, consumer, dialled, placeCall, visibleJobs, lapses } = await setup(3);
    seat(registry, 9001);
    const calls = [await placeCall(), await placeCall(), await placeCall()];
    // Act
    const running = consumer.run();
    await vi.waitFor(() => expect(dialled).toHaveLength(2));
    await vi.waitFor(() => expect(consumer.state).toBe('at_task_cap'));
    const leftWhileFull = await visibleJobs();
    lapses.shift()!();
    await vi.waitFor(() => expect(dialled).toHaveLength(3));
    consumer.stop();
    await running;
    // Assert
    expect(leftWhileFull).toHaveLength(1);
    expect(dialled.map((call) => call.id).sort()).toEqual([...calls].sort());
    expect(admission.load).toBe(3);
  });

  it('on stop() starts no receive and hands back, untouched, a job the last long poll brings (drain)', async () => {
    // Arrange
    const { harness, tenant, consumer, dialled, visibleJobs } = await setup(10);
    const running = consumer.run();
    await vi.waitFor(() => expect(consumer.state).toBe('receiving'));
    // Act
    consumer.stop();
    await harness.sqs.send(
      new SendMessageCommand({
        QueueUrl: harness.queueUrl,
        MessageBody: JSON.stringify({ business_id: tenant.businessId, call_id: 424242 }),
      }),
    );
    await running;
    // Assert
    expect(consumer.state).toBe('stopped');
    expect(dialled).toEqual([]);
    expect((await visibleJobs()).map((message) => JSON.parse(message.Body!).call_id)).toEqual([424242]);
  });
});
