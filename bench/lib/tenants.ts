import type { SQSClient } from '@aws-sdk/client-sqs';
import { createApp } from '../../functions/api/app';
import { createAdminService, createApiDeps, type CoreDeps } from '../../functions/lib/deps';
import { SqsOutboundCallQueue } from '../../shared/queue/outbound-calls';
import { silentLogger } from '../../shared/log';

/** Calls per business per run: far under the API's per-key limit (shared/domain/rate-limits.ts). */
const CALLS_PER_BUSINESS = 20;

/** One bench business: its key and an assistant with eager replies on and one with them off. */
interface BenchTenant {
  businessId: number;
  apiKey: string;
  assistants: { eager: number; patient: number };
}

/** A placed call (what to read back from DynamoDB once it ended). */
export interface PlacedCall {
  businessId: number;
  callId: number;
}

/**
 * The bench's assistant: a short greeting, no filler, notices or recording (they would add audio
 * that is not a reply, or S3 writes), a 2-minute cap so each call reserves 2 plan minutes.
 */
function assistantConfig(eager: boolean) {
  return {
    first_message: 'Hi, this is Acme Dental.',
    transcriber: { eager },
    advanced: { recording: false, recording_notice: false, ai_disclosure: false, fillers: false, memory: false, max_duration_s: 120 },
  };
}

/**
 * Businesses and assistants created through the admin service and the real API (DynamoDB Local,
 * the fauxqs outbound queue), and `place` to queue calls with POST /calls, spread over businesses.
 */
export async function createTenants(core: CoreDeps, sqs: SQSClient, queueUrl: string, maxCalls: number) {
  const app = createApp(createApiDeps(core, new SqsOutboundCallQueue(sqs, queueUrl), silentLogger));
  const admin = createAdminService(core, 'test');
  const request = async (key: string, method: string, path: string, body: unknown) => {
    const response = await app.request(`/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 200) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as { id: number };
  };
  const tenants: BenchTenant[] = [];
  for (let i = 0; i < Math.ceil(maxCalls / CALLS_PER_BUSINESS); i++) {
    const business = await admin.createBusiness(`Bench ${i}`, 1_000_000);
    await admin.addNumber(business.business_id, {
      number: `+1555${String(2000000 + i)}`,
      provider: 'sandbox',
      assistantId: null,
      label: '',
    });
    const eager = await request(business.api_key, 'POST', '/assistants', { name: 'Bench eager', config: assistantConfig(true) });
    const patient = await request(business.api_key, 'POST', '/assistants', { name: 'Bench', config: assistantConfig(false) });
    tenants.push({ businessId: business.business_id, apiKey: business.api_key, assistants: { eager: eager.id, patient: patient.id } });
  }

  return {
    /** Queues `count` calls (POST /calls, 10 at a time) for the eager or the patient assistant. */
    async place(count: number, eager: boolean): Promise<PlacedCall[]> {
      const placed: PlacedCall[] = [];
      for (let start = 0; start < count; start += 10) {
        const batch = Array.from({ length: Math.min(10, count - start) }, (_, k) => tenants[(start + k) % tenants.length]!);
        const created = await Promise.all(
          batch.map((tenant) =>
            request(tenant.apiKey, 'POST', '/calls', {
              assistant_id: eager ? tenant.assistants.eager : tenant.assistants.patient,
              to: '+15550100123',
            }),
          ),
        );
        created.forEach((call, k) => placed.push({ businessId: batch[k]!.businessId, callId: call.id }));
      }
      return placed;
    },
  };
}
