import { randomUUID } from 'node:crypto';
import { CreateQueueCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { inject } from 'vitest';
import { createApp } from '../../functions/api/app';
import { createAdminService, createApiDeps, createCoreDeps, type ApiSettings, type CoreDeps } from '../../functions/lib/deps';
import { ApiConfigSchema } from '../../functions/lib/config';
import { readConfig } from '../../shared/config';
import { createDb } from '../../shared/db/client';
import { ensureTable } from '../../shared/db/create-table';
import { SqsOutboundCallQueue } from '../../shared/queue/outbound-calls';
import { captureLogger } from './capture-logger';

/** A random E.164 number from a space (10^13) wide enough that test runs never collide. */
export function uniqueNumber(): string {
  return `+1${BigInt(`0x${randomUUID().replace(/-/g, '').slice(0, 12)}`) % 10_000_000_000_000n}`.padEnd(15, '7');
}

/** A test client bound to one business's API key. */
export interface TenantClient {
  businessId: number;
  apiKey: string;
  webhookSecret: string;
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
}

/** Options for the harness; the defaults match production's URL policy. */
export interface HarnessOptions {
  allowPrivateUrls?: boolean;
  now?: () => number;
  /** Replace the DynamoDB limiter with one that accepts everything (fuzzing thousands of requests). */
  unlimited?: boolean;
  /** The clock of the use cases (bookings' notice and horizon); default: the real one. */
  clock?: () => Date;
  /** A table of its own, created here (a sweep reads every open call of its table, so it needs one alone). */
  tableName?: string;
  /** The API's web-call URL and console origin; default a web-call URL ({@link TEST_WEB_CALL_URL}) and no console origin. */
  settings?: ApiSettings;
}

/** The `url` POST /calls/web answers under the harness (nothing listens there: the API only hands it out). */
export const TEST_WEB_CALL_URL = 'ws://127.0.0.1:3001/web/calls';

/**
 * The API wired to the real stand-ins (DynamoDB Local, fauxqs) with real repositories: a fresh
 * queue per harness and a fresh business per tenant, so tests never clean up after each other.
 */
export async function createApiHarness(options: HarnessOptions = {}) {
  const sqsEndpoint = inject('sqsEndpoint');
  if (!sqsEndpoint.includes('127.0.0.1') && !sqsEndpoint.includes('localhost'))
    throw new Error('Refusing to run against a non-local SQS endpoint.');
  if (options.tableName) await ensureTable(createDb({ tableName: options.tableName, region: 'local', endpoint: inject('dynamoEndpoint') }));
  const config = readConfig(ApiConfigSchema, {
    TABLE_NAME: options.tableName ?? inject('tableName'),
    AWS_REGION: 'us-east-1',
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    OUTBOUND_QUEUE_URL: 'set-below',
    SQS_ENDPOINT: sqsEndpoint,
    LOCAL_SECRET_KEY: 'test-secret-key',
    ALLOW_PRIVATE_URLS: options.allowPrivateUrls ? 'true' : 'false',
    REQUIRE_HTTPS_URLS: options.allowPrivateUrls ? 'false' : 'true',
  });
  const sqs = new SQSClient({
    region: 'us-east-1',
    endpoint: sqsEndpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const queue = await sqs.send(new CreateQueueCommand({ QueueName: `outbound-${randomUUID()}` }));
  const core: CoreDeps = createCoreDeps(config);
  const logs = captureLogger();
  const settings = options.settings ?? { webCallUrl: TEST_WEB_CALL_URL };
  const deps = createApiDeps(core, new SqsOutboundCallQueue(sqs, queue.QueueUrl!), logs.log, options.clock, settings);
  if (options.now) deps.now = options.now;
  if (options.unlimited) {
    deps.rateLimiter = { hit: async () => ({ allowed: true, limit: 240, remaining: 240, resetSeconds: 0 }) };
    deps.feedRateLimiter = { hitFeed: async () => ({ allowed: true, limit: 60, remaining: 60, resetSeconds: 0 }) };
  }
  const app = createApp(deps);
  const admin = createAdminService(core, 'test');

  function clientFor(businessId: number, apiKey: string, webhookSecret = ''): TenantClient {
    return {
      businessId,
      apiKey,
      webhookSecret,
      request: (method, path, body, headers = {}) =>
        Promise.resolve(
          app.request(`/api/v1${path}`, {
            method,
            headers: {
              authorization: `Bearer ${apiKey}`,
              ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
              ...headers,
            },
            body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
          }),
        ),
    };
  }

  /** A new business with a key and (unless `numbers: 0`) one sandbox number. */
  async function newTenant(setup: { minutes?: number; numbers?: number } = {}): Promise<TenantClient & { numberIds: number[] }> {
    const created = await admin.createBusiness(`Biz ${randomUUID().slice(0, 8)}`, setup.minutes ?? 100);
    const numberIds: number[] = [];
    for (let i = 0; i < (setup.numbers ?? 1); i++) {
      const number = await admin.addNumber(created.business_id, {
        number: uniqueNumber(),
        provider: 'sandbox',
        assistantId: null,
        label: `line ${i + 1}`,
      });
      numberIds.push(number.id);
    }
    return { ...clientFor(created.business_id, created.api_key, created.webhook_secret), numberIds };
  }

  /** Messages waiting on this harness's outbound queue. */
  async function queuedJobs(): Promise<unknown[]> {
    const received = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queue.QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    return (received.Messages ?? []).map((message) => JSON.parse(message.Body ?? 'null'));
  }

  return { app, core, deps, admin, logs, newTenant, clientFor, queuedJobs, sqs, sqsEndpoint, queueUrl: queue.QueueUrl! };
}

export type ApiHarness = Awaited<ReturnType<typeof createApiHarness>>;
