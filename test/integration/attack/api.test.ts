import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../functions/api/app';
import { generateApiKey } from '../../../shared/auth/api-key';
import { createApiHarness, type ApiHarness, type TenantClient } from '../../support/api-harness';

/**
 * Attack suite, the REST API from outside: unknown and malformed keys, floods of failed
 * authentications from one address, oversized and deeply nested bodies, non-canonical ids,
 * deep offsets and forged request ids. Probes that depend on the transport (the client's address,
 * headers) go over real HTTP to the app served by @hono/node-server, as `npm run dev` serves it.
 */

let harness: ApiHarness;
let tenant: TenantClient;
let server: ServerType;
let base: string;

beforeAll(async () => {
  harness = await createApiHarness({ unlimited: true });
  tenant = await harness.newTenant();
  server = serve({ fetch: createApp(harness.deps).fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

type Json = Record<string, any>;
const json = async (response: Response): Promise<Json> => (await response.json()) as Json;

/** Counts the DynamoDB GetItem calls made while `work` runs. */
async function countReads(work: () => Promise<void>): Promise<number> {
  let reads = 0;
  const name = `count-reads-${Math.random()}`;
  harness.core.db.doc.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'GetItemCommand') reads++;
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    await work();
  } finally {
    harness.core.db.doc.middlewareStack.remove(name);
  }
  return reads;
}

describe('attack: keys that belong to nobody', () => {
  it('cost one lookup per key, not one per request, and answer 401 with WWW-Authenticate', async () => {
    // Arrange: a well-formed key (right shape and checksum) that belongs to nobody, and a malformed one
    const unknown = harness.clientFor(0, generateApiKey('test'));
    const malformed = harness.clientFor(0, 'vk_test_nope');
    // Act
    let statuses: number[] = [];
    const reads = await countReads(async () => {
      statuses = await Promise.all(Array.from({ length: 20 }, async () => (await unknown.request('GET', '/assistants')).status));
      statuses.push((await unknown.request('GET', '/assistants')).status);
    });
    const refused = await malformed.request('GET', '/assistants');
    // Assert
    expect(new Set(statuses)).toEqual(new Set([401]));
    expect(reads).toBeLessThanOrEqual(20);
    const again = await countReads(async () => void (await unknown.request('GET', '/assistants')));
    expect(again).toBe(0);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="api", error="invalid_token"');
  });

  it('a request with no key at all gets WWW-Authenticate: Bearer', async () => {
    // Act
    const response = await fetch(`${base}/assistants`);
    // Assert
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="api"');
  });
});

describe('attack: a flood of failed authentications from one address', () => {
  it('is throttled with 429 after 20 failures a minute, while a key that authenticated recently keeps working (even once its cached record expired)', async () => {
    // Arrange: a separate app, so this address's count starts at zero; records are cached 1 ms only
    const app = serve({ fetch: createApp({ ...harness.deps, authCacheMs: 1 }).fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => app.once('listening', resolve));
    const url = `http://127.0.0.1:${(app.address() as AddressInfo).port}/api/v1/assistants`;
    const good = { authorization: `Bearer ${tenant.apiKey}` };
    const warmed = await fetch(url, { headers: good });
    const newcomer = await harness.newTenant();
    // Act
    const failed: number[] = [];
    for (let i = 0; i < 20; i++) failed.push((await fetch(url, { headers: { authorization: 'Bearer vk_test_nope' } })).status);
    const throttled = await fetch(url, { headers: { authorization: 'Bearer vk_test_nope' } });
    const anonymous = await fetch(url);
    const stillGood = await fetch(url, { headers: good });
    const notYetKnown = await fetch(url, { headers: { authorization: `Bearer ${newcomer.apiKey}` } });
    await new Promise((resolve) => app.close(resolve));
    // Assert
    expect(warmed.status).toBe(200);
    expect(new Set(failed)).toEqual(new Set([401]));
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await json(throttled)).toMatchObject({ code: 'rate_limited' });
    expect(anonymous.status).toBe(429);
    expect(stillGood.status).toBe(200);
    expect(notYetKnown.status).toBe(429);
  });
});

describe('attack: bodies built to hurt', () => {
  it('refuses JSON nested 5,000 deep with a small 422 json_invalid, not a 500', async () => {
    // Act
    const response = await tenant.request('POST', '/assistants', '['.repeat(5000) + ']'.repeat(5000));
    const text = await response.text();
    // Assert
    expect(response.status).toBe(422);
    expect(JSON.parse(text).detail[0]).toMatchObject({
      loc: ['body'],
      type: 'json_invalid',
      ctx: { error: 'JSON nested deeper than 64 levels' },
    });
    expect(text.length).toBeLessThan(500);
  });

  it('bounds every string inside a list, and echoes only a cut of what was sent', async () => {
    // Arrange
    const huge = 'x'.repeat(50_000);
    const config = {
      advanced: { idle_messages: [huge], end_call_phrases: [huge] },
      transcriber: { keyterms: [huge] },
      analysis: { structured: [{ name: 'size', type: 'enum', options: [huge] }] },
    };
    // Act
    const response = await tenant.request('POST', '/assistants', { config });
    const text = await response.text();
    // Assert
    expect(response.status).toBe(422);
    const locs = (JSON.parse(text).detail as Json[]).map((item) => item.loc.join('.'));
    expect(locs).toEqual(
      expect.arrayContaining([
        'body.config.advanced.idle_messages.0',
        'body.config.advanced.end_call_phrases.0',
        'body.config.transcriber.keyterms.0',
        'body.config.analysis.structured.0.options.0',
      ]),
    );
    for (const item of JSON.parse(text).detail as Json[]) expect(String(item.input).length).toBeLessThanOrEqual(101);
    expect(text.length).toBeLessThan(4000);
  });

  it('bounds the whole config: each field within its bound can still not add up past 128 KiB', async () => {
    // Arrange: a 30,000-character prompt in a 3-byte script (90 KB), and 100 long pronunciations (54 KB)
    const config = {
      system_prompt: '日'.repeat(30_000),
      voice: { pronunciations: Array.from({ length: 100 }, () => ({ word: '語'.repeat(60), say: '音'.repeat(120) })) },
    };
    // Act
    const response = await tenant.request('POST', '/assistants', { config });
    // Assert
    expect(response.status).toBe(422);
    expect((await json(response)).detail).toEqual([
      expect.objectContaining({ loc: ['body', 'config'], type: 'value_error', ctx: expect.objectContaining({ max_bytes: 131072 }) }),
    ]);
  });

  it('answers a small body with 120,000 invalid list items with one short 422 (length checked before items)', async () => {
    // Act
    const ones = Array.from({ length: 120_000 }, () => 1);
    const response = await tenant.request('POST', '/assistants', { config: { advanced: { idle_messages: ones } } });
    const text = await response.text();
    // Assert
    expect(response.status).toBe(422);
    const detail = JSON.parse(text).detail as Json[];
    expect(detail).toEqual([
      expect.objectContaining({
        loc: ['body', 'config', 'advanced', 'idle_messages'],
        type: 'too_long',
        ctx: expect.objectContaining({ max_length: 1000 }),
      }),
    ]);
    expect(text.length).toBeLessThan(2_000);
  });

  it('lists at most 50 items however many fields are invalid', async () => {
    // Act: 100 pronunciations (the most allowed), each with two fields of the wrong type
    const pronunciations = Array.from({ length: 100 }, () => ({ word: 1, say: 2 }));
    const response = await tenant.request('POST', '/assistants', { config: { voice: { pronunciations } } });
    // Assert
    expect(response.status).toBe(422);
    expect((await json(response)).detail).toHaveLength(50);
  });

  it('refuses a chunked body (no Content-Length) with 413 once it passes 256 KiB, without reading the rest', async () => {
    // Arrange: up to 64 MiB of spaces, written only as fast as the server reads them
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const url = new URL(`${base}/assistants`);
    let written = 0;
    // Act
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.apiKey}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      });
      let answered = false;
      request.on('response', (response) => {
        answered = true;
        response.resume();
        resolve(response.statusCode ?? 0);
        request.destroy();
      });
      request.on('error', (error) => (answered ? undefined : reject(error)));
      const pump = () => {
        while (!answered && written < 64 * 1024 * 1024) {
          written += chunk.length;
          if (!request.write(chunk)) return void request.once('drain', pump);
        }
        if (!answered) request.end();
      };
      pump();
    });
    // Assert: socket buffers hold a few MiB at most; the whole 64 MiB was never sent
    expect(status).toBe(413);
    expect(written).toBeLessThan(16 * 1024 * 1024);
  });

  it('refuses a body over 256 KiB with 413', async () => {
    // Act
    const response = await tenant.request('POST', '/assistants', JSON.stringify({ name: 'x', pad: 'y'.repeat(300 * 1024) }));
    // Assert
    expect(response.status).toBe(413);
    expect(await json(response)).toMatchObject({ code: 'payload_too_large' });
  });
});

describe('attack: paths, queries and headers', () => {
  it.each(['%20%32', '02', '+2', '2%20'])('refuses the non-canonical id %s with 422 instead of reading id 2', async (raw) => {
    // Act
    const response = await tenant.request('GET', `/assistants/${raw}`);
    // Assert
    expect(response.status).toBe(422);
    expect((await json(response)).detail[0]).toMatchObject({ loc: ['path', 'assistant_id'], type: 'int_parsing' });
  });

  it('serves an offset past 1,000 on GET /calls (the spec sets no bound; cursors reach further cheaply, attack/paging.test.ts)', async () => {
    // Act
    const deep = await tenant.request('GET', '/calls?offset=1001');
    const negative = await tenant.request('GET', '/calls?offset=-1');
    // Assert
    expect(deep.status).toBe(200);
    expect(await json(deep)).toMatchObject({ data: [], offset: 1001, has_more: false, next_cursor: null });
    expect((await json(negative)).detail[0]).toMatchObject({ loc: ['query', 'offset'], type: 'greater_than_equal' });
  });

  it('explains an empty Idempotency-Key correctly', async () => {
    // Arrange
    const assistant = await json(await tenant.request('POST', '/assistants', {}));
    // Act
    const response = await tenant.request('POST', '/calls', { assistant_id: assistant.id, to: '+14155550123' }, { 'idempotency-key': '' });
    // Assert
    expect(response.status).toBe(422);
    expect((await json(response)).detail[0]).toMatchObject({
      loc: ['header', 'idempotency-key'],
      type: 'string_too_short',
      msg: 'String should have at least 1 character',
    });
  });

  it.each([['x'.repeat(129)], ['<script>alert(1)</script>'], ['a b']])(
    'replaces a client X-Request-Id that is too long or not plain (%#)',
    async (forged) => {
      // Act
      const response = await fetch(`${base}/openapi.json`, { headers: { 'x-request-id': forged } });
      // Assert
      const id = response.headers.get('x-request-id') ?? '';
      expect(id).not.toBe(forged);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
    },
  );

  it('keeps a plain client X-Request-Id', async () => {
    // Act
    const response = await fetch(`${base}/openapi.json`, { headers: { 'x-request-id': 'req-2026_11-24' } });
    // Assert
    expect(response.headers.get('x-request-id')).toBe('req-2026_11-24');
  });
});
