import { describe, expect, inject, it } from 'vitest';
import { createDb } from '../../../shared/db/client';
import { RateLimiter } from '../../../shared/db/rate-limiter';
import { createApiHarness } from '../../support/api-harness';
import { captureLogger } from '../../support/capture-logger';

function db() {
  return createDb({ tableName: inject('tableName'), region: 'local', endpoint: inject('dynamoEndpoint') });
}

let keySeq = 0;
const freshKey = () => `key-${Date.now()}-${keySeq++}`;

describe('rate limit: 240 accepted requests per key in any rolling 60 s', () => {
  it('accepts exactly 240 of 241 concurrent requests and answers the rest 429 with Retry-After', async () => {
    // Arrange
    const harness = await createApiHarness();
    const tenant = await harness.newTenant();
    // Act
    const responses = await Promise.all(Array.from({ length: 241 }, () => tenant.request('GET', '/phone-numbers')));
    // Assert
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(240);
    const limited = responses.filter((response) => response.status === 429);
    expect(limited).toHaveLength(1);
    expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await limited[0]!.json()).toMatchObject({ code: 'rate_limited' });
    expect(limited[0]!.headers.get('ratelimit')).toMatch(/^"default";r=0;t=\d+$/);
  });

  it('holds across two processes sharing the store (two limiters, one key)', async () => {
    // Arrange
    const a = new RateLimiter(db());
    const b = new RateLimiter(db());
    const key = freshKey();
    // Act
    const results = await Promise.all(Array.from({ length: 300 }, (_, i) => (i % 2 ? a : b).hit(1, key)));
    // Assert
    expect(results.filter((result) => result.allowed)).toHaveLength(240);
  });

  it('rolls: a slot frees exactly 60 s after it was taken (injected clock)', async () => {
    // Arrange
    let now = 1_000_000;
    const limiter = new RateLimiter(db(), { now: () => now });
    const key = freshKey();
    for (let i = 0; i < 240; i++) expect((await limiter.hit(7, key)).allowed).toBe(true);
    // Act
    now += 59_999;
    const early = await limiter.hit(7, key);
    now += 1;
    const onTime = await limiter.hit(7, key);
    const again = await limiter.hit(7, key);
    // Assert
    expect(early).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 1 });
    expect(onTime.allowed).toBe(true);
    expect(again.allowed).toBe(true);
  });

  it('never lets one key limit another', async () => {
    // Arrange
    const limiter = new RateLimiter(db(), { limit: 3 });
    const [first, second] = [freshKey(), freshKey()];
    for (let i = 0; i < 3; i++) await limiter.hit(9, first);
    // Act
    const exhausted = await limiter.hit(9, first);
    const other = await limiter.hit(9, second);
    // Assert
    expect(exhausted.allowed).toBe(false);
    expect(other).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('a cold process learns a full log from the store and refuses', async () => {
    // Arrange
    let now = 5_000_000;
    const key = freshKey();
    const warm = new RateLimiter(db(), { limit: 5, now: () => now });
    for (let i = 0; i < 5; i++) await warm.hit(3, key);
    const cold = new RateLimiter(db(), { limit: 5, now: () => now });
    // Act
    now += 1000;
    const first = await cold.hit(3, key);
    const second = await cold.hit(3, key);
    // Assert
    expect(first.allowed).toBe(false);
    expect(second).toMatchObject({ allowed: false, resetSeconds: 59 });
  });

  it('fails open when the store is unreachable', async () => {
    // Arrange
    const logs = captureLogger();
    const broken = createDb({ tableName: 'does-not-exist', region: 'local', endpoint: inject('dynamoEndpoint') });
    const limiter = new RateLimiter(broken, { log: logs.log });
    // Act
    const decision = await limiter.hit(1, freshKey());
    // Assert
    expect(decision.allowed).toBe(true);
    expect(logs.lines[0]).toMatchObject({ level: 'ERROR', message: expect.stringMatching(/fail open/) });
  });
});
