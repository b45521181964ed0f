/**
 * `npm run bench:api`: DynamoDB round trips per request (total and sequential) for each endpoint,
 * p50/p95 in-process handler latency against DynamoDB Local, and the bundled API Lambda's size and
 * cold import time. Prints numbers; asserts nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { build } from 'esbuild';
import { createApp } from '../functions/api/app';
import { createAdminService, createApiDeps, createCoreDeps } from '../functions/lib/deps';
import { ApiConfigSchema } from '../functions/lib/config';
import { readConfig } from '../shared/config';
import { createDb } from '../shared/db/client';
import { ensureTable } from '../shared/db/create-table';
import { SqsOutboundCallQueue } from '../shared/queue/outbound-calls';
import { startDynamoDbLocal } from '../scripts/local/stand-ins/dynamodb-local';
import { startFauxqsServer } from '../scripts/local/stand-ins/fauxqs';
import { silentLogger } from '../shared/log';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);

interface Span {
  start: number;
  end: number;
}

/** Sequential depth: how many non-overlapping waves the calls form (the critical path). */
function sequentialDepth(spans: Span[]): number {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let waves = 0;
  let waveEnd = -Infinity;
  for (const span of sorted) {
    if (span.start >= waveEnd) {
      waves++;
      waveEnd = span.end;
    } else {
      waveEnd = Math.max(waveEnd, span.end);
    }
  }
  return waves;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main(): Promise<void> {
  const [dynamo, fauxqs] = await Promise.all([startDynamoDbLocal(), startFauxqsServer()]);
  try {
    const tableName = 'bench';
    await ensureTable(createDb({ tableName, region: 'local', endpoint: dynamo.endpoint }));
    const config = readConfig(ApiConfigSchema, {
      TABLE_NAME: tableName,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      SQS_ENDPOINT: fauxqs.endpoint,
      OUTBOUND_QUEUE_URL: 'x',
      LOCAL_SECRET_KEY: 'bench',
    });
    const core = createCoreDeps(config);
    let spans: Span[] = [];
    core.db.doc.middlewareStack.add(
      (next) => async (args) => {
        const span = { start: performance.now(), end: 0 };
        try {
          return await next(args);
        } finally {
          span.end = performance.now();
          spans.push(span);
        }
      },
      { step: 'initialize', name: 'countRoundTrips' },
    );
    const sqs = new SQSClient({ region: 'us-east-1', endpoint: fauxqs.endpoint, credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
    const queue = await sqs.send(new CreateQueueCommand({ QueueName: 'bench-outbound' }));
    const deps = createApiDeps(core, new SqsOutboundCallQueue(sqs, queue.QueueUrl!), silentLogger);
    const app = createApp(deps);
    const admin = createAdminService(core, 'test');

    // Many businesses, so the per-key limit (API_KEY_RATE_LIMIT) never throttles the benchmark.
    const tenants: { key: string; assistantId: number; callId: number }[] = [];
    const call = async (
      key: string,
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ): Promise<Response> =>
      app.request(`/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    for (let i = 0; i < Math.ceil((ITERATIONS * 8 * 2) / 200) + 2; i++) {
      const business = await admin.createBusiness(`Bench ${i}`, 100_000);
      await admin.addNumber(business.business_id, {
        number: `+1555${String(1000000 + i)}`,
        provider: 'sandbox',
        assistantId: null,
        label: '',
      });
      const assistant = (await (await call(business.api_key, 'POST', '/assistants', {})).json()) as { id: number };
      const created = (await (
        await call(business.api_key, 'POST', '/calls', { assistant_id: assistant.id, to: '+14155550100' })
      ).json()) as { id: number };
      tenants.push({ key: business.api_key, assistantId: assistant.id, callId: created.id });
    }

    const cases: [string, (t: (typeof tenants)[number], i: number) => Promise<Response>][] = [
      ['GET /assistants', (t) => call(t.key, 'GET', '/assistants')],
      ['GET /assistants/{id}', (t) => call(t.key, 'GET', `/assistants/${t.assistantId}`)],
      ['PATCH /assistants/{id} (name)', (t) => call(t.key, 'PATCH', `/assistants/${t.assistantId}`, { name: 'renamed' })],
      ['POST /calls', (t) => call(t.key, 'POST', '/calls', { assistant_id: t.assistantId, to: '+14155550100' })],
      [
        'POST /calls (Idempotency-Key)',
        (t, i) => call(t.key, 'POST', '/calls', { assistant_id: t.assistantId, to: '+14155550100' }, { 'idempotency-key': `bench-${i}` }),
      ],
      ['GET /calls', (t) => call(t.key, 'GET', '/calls?limit=20')],
      ['GET /calls/{id}', (t) => call(t.key, 'GET', `/calls/${t.callId}`)],
      ['GET /phone-numbers', (t) => call(t.key, 'GET', '/phone-numbers')],
      // A create takes its place in the business's quota in the same transaction.
      ['POST /knowledge-bases', (t, i) => call(t.key, 'POST', '/knowledge-bases', { name: `Bench ${i}` })],
      [
        'POST /knowledge-bases (Idempotency-Key)',
        (t, i) => call(t.key, 'POST', '/knowledge-bases', { name: `Keyed ${i}` }, { 'idempotency-key': `bench-kb-${i}` }),
      ],
    ];
    const rows: string[] = [];
    let tenantCursor = 0;
    for (const [name, run] of cases) {
      const latencies: number[] = [];
      const totals: number[] = [];
      const depths: number[] = [];
      for (let i = 0; i < ITERATIONS; i++) {
        const tenant = tenants[tenantCursor++ % tenants.length]!;
        await call(tenant.key, 'GET', '/tools'); // keep the key warm in the auth cache (as a busy Lambda would be)
        spans = [];
        const start = performance.now();
        const response = await run(tenant, i);
        latencies.push(performance.now() - start);
        if (response.status !== 200) throw new Error(`${name} answered ${response.status}: ${await response.text()}`);
        totals.push(spans.length);
        depths.push(sequentialDepth(spans));
      }
      rows.push(
        `${name.padEnd(32)} DynamoDB round trips: typical ${percentile(totals, 50)} (sequential ${percentile(depths, 50)}), max ${Math.max(...totals)} (sequential ${Math.max(...depths)})  p50 ${percentile(latencies, 50).toFixed(1)} ms  p95 ${percentile(latencies, 95).toFixed(1)} ms`,
      );
    }
    console.log(`API handler against DynamoDB Local, ${ITERATIONS} requests per endpoint, warm process:`);
    for (const row of rows) console.log(`  ${row}`);
    reportBundle();
  } finally {
    await Promise.all([dynamo.stop(), fauxqs.stop()]);
  }
}

/** Bundles the API Lambda as `cdk deploy` would (esbuild, minified) and times a cold import. */
function reportBundle(): void {
  // Inside the repo (git-ignored dist/) so the externalised AWS SDK resolves from node_modules.
  const dir = join(process.cwd(), 'dist', 'bench-api');
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, 'index.mjs');
  return void build({
    entryPoints: ['functions/api/index.ts'],
    bundle: true,
    minify: true,
    platform: 'node',
    target: 'node24',
    format: 'esm',
    outfile,
    external: ['@aws-sdk/*'],
    banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
  }).then(() => {
    const size = statSync(outfile).size;
    const probe = join(dir, 'probe.mjs');
    writeFileSync(
      probe,
      `const t = performance.now(); await import(${JSON.stringify(outfile)}); console.log((performance.now() - t).toFixed(1));`,
    );
    const env = { ...process.env, TABLE_NAME: 't', OUTBOUND_QUEUE_URL: 'q', LOCAL_SECRET_KEY: 'k' };
    const times = Array.from({ length: 5 }, () =>
      Number(execFileSync(process.execPath, [probe], { env, cwd: process.cwd() }).toString().trim()),
    );
    console.log(`API Lambda bundle: ${(size / 1024).toFixed(0)} KiB minified (AWS SDK v3 provided by the runtime, as on Lambda)`);
    console.log(`Cold import of the bundle: median ${percentile(times, 50).toFixed(0)} ms over ${times.length} fresh processes`);
  });
}

void main();
