import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { startLocalSweeper } from '../../../scripts/local/sweeper';
import { LocalEventRouter } from '../../../shared/events/event-bus';
import { SqsOutboundCallQueue } from '../../../shared/queue/outbound-calls';
import { silentLogger } from '../../../shared/log';
import { outboundCallRecord } from '../../support/call-states';
import { createApiHarness } from '../../support/api-harness';
import { captureLogger } from '../../support/capture-logger';

/** A carrier that is never reached: these calls have no carrier sid, so nothing is hung up. */
const NO_CARRIER = { accountSid: 'AC1', authToken: 'unused', baseUrl: 'http://127.0.0.1:9' };

describe("the local stack's sweeper (a timer in the dev process)", () => {
  it('ends a call whose engine died within the limits set in the env', async () => {
    // Arrange: an answered call whose engine stopped heartbeating a moment ago
    const harness = await createApiHarness({ tableName: `local-sweeper-${randomUUID()}` });
    const tenant = await harness.newTenant({ minutes: 10 });
    const now = new Date().toISOString();
    const record = outboundCallRecord(await harness.core.ids.nextId(), tenant.businessId, now);
    await harness.core.callRepo.insertCall({ ...record, status: 'in_progress', started_at: now, heartbeat_at: now });
    const logs = captureLogger();
    // Act
    const stop = startLocalSweeper(harness.core, {
      queue: new SqsOutboundCallQueue(harness.sqs, harness.queueUrl),
      events: new LocalEventRouter({ analysis: async () => {}, webhooks: async () => {} }),
      carrier: NO_CARRIER,
      env: { SWEEP_EVERY_MS: '100', SWEEP_STALE_HEARTBEAT_MS: '200' },
      log: logs.log,
    });
    try {
      // The sweeper logs the ending once it is written.
      await vi.waitFor(() => expect(logs.lines.map((line) => line.fields?.rule)).toContain('heartbeat_stale'), {
        timeout: 10_000,
        interval: 100,
      });
    } finally {
      stop();
    }
    // Assert
    expect(await harness.core.callRepo.getCallRecord(tenant.businessId, record.id)).toMatchObject({
      status: 'ended',
      ended_reason: 'error',
      ended_at: now,
    });
    expect(logs.lines.map((line) => line.fields)).toContainEqual(expect.objectContaining({ call_id: record.id, action: 'ended' }));
  });

  it('refuses a limit that is not a positive whole number of ms, naming the variable', () => {
    // Act
    const start = () =>
      startLocalSweeper(
        { db: undefined as never },
        {
          queue: { enqueue: async () => {} },
          events: new LocalEventRouter({ analysis: async () => {}, webhooks: async () => {} }),
          carrier: NO_CARRIER,
          env: { SWEEP_STALE_HEARTBEAT_MS: '2s' },
          log: silentLogger,
        },
      );
    // Assert
    expect(start).toThrow('SWEEP_STALE_HEARTBEAT_MS must be a whole number of ms from 1 to 86400000, got "2s".');
  });
});
