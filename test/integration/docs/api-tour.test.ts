import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAiSandboxServer } from '../../../media-service/src/sandbox/openai-server';
import { createApiHarness, type TenantClient } from '../../support/api-harness';
import { parseTour, type Tour } from '../../support/doc-tour';
import { runStep } from '../../support/doc-tour-replay';
import { knowledgeApi, startFixtureServer } from '../../support/knowledge-harness';

/**
 * docs/api-tour.md, replayed request by request against the API on loopback (DynamoDB Local,
 * fauxqs, the sandbox OpenAI for knowledge embeddings, ingestion in process): a request that
 * fails or an answer that lacks a field the document shows fails the test, so the tour cannot
 * rot. Calls are only accepted here (nothing dials), as the document's `# tour: call` marks say.
 */

const TOUR = join(import.meta.dirname, '..', '..', '..', 'docs', 'api-tour.md');

let openai: OpenAiSandboxServer;
let fixtures: Awaited<ReturnType<typeof startFixtureServer>>;
let api: ReturnType<typeof knowledgeApi>;
let server: ReturnType<typeof serve>;
let apiUrl: string;
let tenant: TenantClient;

beforeAll(async () => {
  openai = await OpenAiSandboxServer.start();
  fixtures = await startFixtureServer();
  const harness = await createApiHarness({ allowPrivateUrls: true });
  api = knowledgeApi(harness, openai);
  tenant = await harness.newTenant({ minutes: 500 });
  // As `npm run dev` seeds it: the business's first assistant, its default, before the tour makes its own.
  const seeded = await tenant.request('POST', '/assistants', { name: 'Front desk', template: 'receptionist' });
  expect(seeded.status).toBe(200);
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: api.app.fetch, port: 0, hostname: '127.0.0.1' }, (address: AddressInfo) => resolve(address.port));
  });
  apiUrl = `http://127.0.0.1:${port}/api/v1`;
}, 60_000);

afterAll(async () => {
  server?.close();
  await fixtures?.close();
  await openai?.close();
});

/** Replays a tour's steps in order; every difference, prefixed with the document's line. */
async function walk(tour: Tour): Promise<string[]> {
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const vars: Record<string, string> = { ...tour.exports, API: apiUrl, KEY: tenant.apiKey, FILES: fixtures.url, DAY: tomorrow };
  const failures: string[] = [];
  for (const step of tour.steps) {
    await api.idle(); // documents added by URL or text are ready before the next read, as a person waits for them
    try {
      const result = await runStep(step, vars);
      failures.push(...result.errors.map((error) => `line ${step.line}: ${step.method} ${step.url}: ${error}`));
    } catch (error) {
      failures.push(`line ${step.line}: ${String(error)}`);
    }
  }
  return failures;
}

describe('docs/api-tour.md', () => {
  it('answers every request of the tour as the document shows', async () => {
    // Arrange
    const tour = parseTour(readFileSync(TOUR, 'utf8'));

    // Act
    const failures = await walk(tour);

    // Assert
    expect(tour.steps.length).toBeGreaterThan(40);
    expect(failures).toEqual([]);
  }, 60_000);

  it('fails on a field the document shows and the API does not return', async () => {
    // Arrange: the same request twice, once with a misspelt field
    const doc = (field: string) =>
      ['```sh', 'curl -s $API/usage -H "Authorization: Bearer $KEY"', `# → {"${field}": 480, …}`, '```'].join('\n');

    // Act
    const right = await walk(parseTour(doc('minutes_remaining')));
    const wrong = await walk(parseTour(doc('minutes_remainin')));

    // Assert
    expect(right).toEqual([]);
    expect(wrong).toEqual([expect.stringContaining('$.minutes_remainin: missing')]);
  });
});
