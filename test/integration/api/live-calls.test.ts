import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { tableWebCallTokens } from '../../../media-service/src/adapters/dynamodb-web-call-tokens';
import { hashListenToken, parseListenToken } from '../../../shared/auth/listen-token';
import { keys } from '../../../shared/db/table';
import { createApiHarness, type ApiHarness, type TenantClient } from '../../support/api-harness';
import { strictResponseErrors } from '../../support/openapi-strict';

/**
 * POST /calls/{id}/listen and POST /calls/{id}/end on the API (docs/api-tour.md "Listening to a live
 * call"): the answers' shapes, the token kept as its hash and redeemed once, and every refusal.
 */

let harness: ApiHarness;
const NOW = Date.parse('2026-11-29T10:00:00.000Z');

beforeAll(async () => {
  harness = await createApiHarness({ clock: () => new Date(NOW) });
});

type Json = Record<string, any>;
const json = async (response: Response): Promise<Json> => (await response.json()) as Json;

async function rawCall(businessId: number, callId: number): Promise<Json> {
  const { db } = harness.core;
  const got = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: keys.call(businessId, callId), ConsistentRead: true }));
  return got.Item as Json;
}

/** A web call of a new tenant, moved to `status` as the engine would move it. */
async function callIn(status: 'queued' | 'in_progress' | 'ended', tenant?: TenantClient) {
  const owner = tenant ?? (await harness.newTenant());
  const assistant = await json(await owner.request('POST', '/assistants', { name: 'Greeter' }));
  const created = await json(await owner.request('POST', '/calls/web', { assistant_id: assistant.id }));
  const callId = created.call_id as number;
  if (status !== 'queued') await harness.core.callRepo.markAnswered(owner.businessId, callId, new Date(NOW).toISOString());
  if (status === 'ended') {
    const { db } = harness.core;
    await db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: keys.call(owner.businessId, callId),
        UpdateExpression: 'SET #status = :ended',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':ended': 'ended' },
      }),
    );
  }
  return { tenant: owner, callId };
}

describe('POST /calls/{id}/listen', () => {
  it('answers {url, token, expires_at} for a call in progress and keeps only the hash', async () => {
    // Arrange
    const { tenant, callId } = await callIn('in_progress');
    // Act
    const response = await tenant.request('POST', `/calls/${callId}/listen`);
    // Assert
    const body = await json(response);
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body).toEqual({
      url: 'ws://127.0.0.1:3001/web/listen',
      token: expect.stringMatching(/^wl_\d+\.\d+\.[A-Za-z0-9_-]{43}$/),
      expires_at: '2026-11-29T10:01:00.000Z',
    });
    expect(strictResponseErrors('CallListen', body)).toEqual([]);
    expect(parseListenToken(body.token)).toEqual({ callId, businessId: tenant.businessId });
    const stored = await rawCall(tenant.businessId, callId);
    expect(stored.listen_token_hash).toBe(hashListenToken(body.token));
    expect(stored.listen_token_expires_at).toBe(NOW + 60_000);
    expect(JSON.stringify(stored)).not.toContain(body.token);
    const detail = await json(await tenant.request('GET', `/calls/${callId}`));
    expect(Object.keys(detail).filter((key) => key.startsWith('listen') || key.startsWith('end_'))).toEqual([]);
  });

  it('is redeemed once, only with its own hash, while the token is fresh and the call in progress', async () => {
    // Arrange
    const { tenant, callId } = await callIn('in_progress');
    const { token } = await json(await tenant.request('POST', `/calls/${callId}/listen`));
    const tokens = tableWebCallTokens(harness.core.db);
    // Act
    const expired = await tokens.redeemListen(tenant.businessId, callId, hashListenToken(token), NOW + 60_000);
    const wrong = await tokens.redeemListen(tenant.businessId, callId, hashListenToken(`${token}x`), NOW);
    const asWebCall = await tokens.redeem(tenant.businessId, callId, hashListenToken(token), NOW);
    const first = await tokens.redeemListen(tenant.businessId, callId, hashListenToken(token), NOW);
    const second = await tokens.redeemListen(tenant.businessId, callId, hashListenToken(token), NOW);
    // Assert
    expect([expired, wrong, asWebCall]).toEqual([undefined, undefined, undefined]);
    expect(first).toMatchObject({ id: callId, status: 'in_progress' });
    expect(first).not.toHaveProperty('listen_token_hash');
    expect(second).toBeUndefined();
  });

  it.each(['queued', 'ended'] as const)('answers 409 call_not_live for a %s call', async (status) => {
    // Arrange
    const { tenant, callId } = await callIn(status);
    // Act
    const response = await tenant.request('POST', `/calls/${callId}/listen`);
    // Assert
    expect(response.status).toBe(409);
    expect(await json(response)).toEqual({ code: 'call_not_live', detail: expect.stringContaining(status) });
    expect((await rawCall(tenant.businessId, callId)).listen_token_hash).toBeUndefined();
  });

  it("answers 404 for another business's call and for no call, 422 for a bad id", async () => {
    // Arrange
    const { callId } = await callIn('in_progress');
    const stranger = await harness.newTenant();
    // Act
    const theirs = await stranger.request('POST', `/calls/${callId}/listen`);
    const none = await stranger.request('POST', '/calls/999999999/listen');
    const bad = await stranger.request('POST', '/calls/abc/listen');
    // Assert
    expect(theirs.status).toBe(404);
    expect(await json(theirs)).toMatchObject({ code: 'not_found' });
    expect(none.status).toBe(404);
    expect(bad.status).toBe(422);
  });
});

describe('POST /calls/{id}/end', () => {
  it.each(['queued', 'in_progress'] as const)('answers 202 {id, status} for a %s call and records the request', async (status) => {
    // Arrange
    const { tenant, callId } = await callIn(status);
    // Act
    const response = await tenant.request('POST', `/calls/${callId}/end`);
    const again = await tenant.request('POST', `/calls/${callId}/end`);
    // Assert
    const body = await json(response);
    expect(response.status).toBe(202);
    expect(body).toEqual({ id: callId, status });
    expect(strictResponseErrors('CallEndRequest', body)).toEqual([]);
    expect(again.status).toBe(202);
    expect((await rawCall(tenant.businessId, callId)).end_requested_at).toBe('2026-11-29T10:00:00.000Z');
    expect(await harness.core.callRepo.endRequested(tenant.businessId, callId)).toBe(true);
  });

  it("answers 409 conflict for an ended call, 404 for another business's", async () => {
    // Arrange
    const { tenant, callId } = await callIn('ended');
    const live = await callIn('in_progress');
    // Act
    const ended = await tenant.request('POST', `/calls/${callId}/end`);
    const theirs = await tenant.request('POST', `/calls/${live.callId}/end`);
    // Assert
    expect(ended.status).toBe(409);
    expect(await json(ended)).toEqual({ code: 'conflict', detail: `Call ${callId} has already ended.` });
    expect(theirs.status).toBe(404);
    expect(await harness.core.callRepo.endRequested(live.tenant.businessId, live.callId)).toBe(false);
  });
});
