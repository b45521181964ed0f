import { describe, expect, it } from 'vitest';
import { DeliveryRepository } from '../../../shared/db/delivery-repository';
import { createAdminService } from '../../../functions/lib/deps';
import { createApiHarness } from '../../support/api-harness';

describe('admin deliveries', () => {
  it("lists a business's webhook attempts, per call or all, and GET /calls/{id} shows them", async () => {
    // Arrange
    const harness = await createApiHarness();
    const tenant = await harness.newTenant();
    const assistant = (await (await tenant.request('POST', '/assistants', {})).json()) as { id: number };
    const call = (await (await tenant.request('POST', '/calls', { assistant_id: assistant.id, to: '+14155550123' })).json()) as {
      id: number;
    };
    const deliveries = new DeliveryRepository(harness.core.db);
    const admin = createAdminService(harness.core, 'test');
    const created = await deliveries.ensureDelivery({
      business_id: tenant.businessId,
      call_id: call.id,
      webhook_id: 'evt_1',
      event_type: 'call.completed',
      occurred_at: '2026-11-23T10:00:00.000Z',
      url: 'https://hooks.example.com/x',
      next_attempt_at: '2026-11-23T10:00:00.000Z',
      created_at: '2026-11-23T10:00:00.000Z',
    } as never);
    await deliveries.recordAttempt(
      created,
      { at: '2026-11-23T10:00:00.100Z', status: 503, latency_ms: 42, error: 'HTTP 503' },
      { state: 'pending', nextAttemptAt: '2026-11-23T10:00:05.100Z', now: '2026-11-23T10:00:00.100Z' },
    );
    // Act
    const forCall = await admin.deliveries(tenant.businessId, call.id);
    const forBusiness = await admin.deliveries(tenant.businessId, null);
    const detail = (await (await tenant.request('GET', `/calls/${call.id}`)).json()) as { webhook_deliveries: unknown[] };
    // Assert
    expect(forCall.deliveries).toEqual([
      expect.objectContaining({
        call_id: call.id,
        webhook_id: 'evt_1',
        state: 'pending',
        attempts: [{ at: '2026-11-23T10:00:00.100Z', status: 503, latency_ms: 42, error: 'HTTP 503' }],
      }),
    ]);
    expect(forBusiness.deliveries).toEqual(forCall.deliveries);
    expect(detail.webhook_deliveries).toHaveLength(1);
  });
});
