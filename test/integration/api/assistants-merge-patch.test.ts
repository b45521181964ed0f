import { beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness, type TenantClient } from '../../support/api-harness';

let harness: ApiHarness;

beforeAll(async () => {
  harness = await createApiHarness({ unlimited: true });
});

type Json = Record<string, any>;
const json = async (response: Response): Promise<Json> => (await response.json()) as Json;

const MERGE = { 'content-type': 'application/merge-patch+json' };

/** An assistant with settings in several sections, so a patch of one can be seen to keep the rest. */
async function tenantWithAssistant(): Promise<{ tenant: TenantClient; id: number; etag: string }> {
  const tenant = await harness.newTenant();
  const response = await tenant.request('POST', '/assistants', {
    name: 'Front desk',
    config: {
      first_message: 'Hello, Acme here.',
      model: { temperature: 0.9 },
      voice: { speed: 1.1 },
      variables: { city: 'Leeds', shop: 'Acme' },
      advanced: { end_call_phrases: ['bye', 'ciao'], max_duration_s: 900 },
    },
  });
  return { tenant, id: (await json(response)).id, etag: response.headers.get('etag')! };
}

describe('ETag on assistant responses', () => {
  it('sends the same strong tag on POST and GET, and a new one after PATCH', async () => {
    // Arrange
    const { tenant, id, etag } = await tenantWithAssistant();
    // Act
    const read = await tenant.request('GET', `/assistants/${id}`);
    const patched = await tenant.request('PATCH', `/assistants/${id}`, { name: 'Reception' });
    // Assert
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(read.headers.get('etag')).toBe(etag);
    expect(patched.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(patched.headers.get('etag')).not.toBe(etag);
  });
});

describe('PATCH /assistants/{id} with application/merge-patch+json', () => {
  it('changes one nested field and keeps every other setting', async () => {
    // Arrange
    const { tenant, id } = await tenantWithAssistant();
    const before = await json(await tenant.request('GET', `/assistants/${id}`));
    // Act
    const response = await tenant.request('PATCH', `/assistants/${id}`, { config: { model: { max_tokens: 500 } } }, MERGE);
    // Assert
    const after = await json(response);
    expect(response.status).toBe(200);
    expect(after.config.model).toEqual({ ...before.config.model, max_tokens: 500 });
    expect({ ...after.config, model: before.config.model }).toEqual(before.config);
    expect(after.name).toBe('Front desk');
    expect(await json(await tenant.request('GET', `/assistants/${id}`))).toEqual(after);
  });

  it('patches an assistant created without a name (the empty name it keeps is not an update of it)', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    const id = (await json(await tenant.request('POST', '/assistants', {}))).id;
    // Act
    const response = await tenant.request('PATCH', `/assistants/${id}`, { config: { model: { max_tokens: 300 } } }, MERGE);
    const renamed = await tenant.request('PATCH', `/assistants/${id}`, { name: '' }, MERGE);
    // Assert
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({ name: '', config: { model: { max_tokens: 300 } } });
    expect(renamed.status).toBe(200);
  });

  it('removes a member sent as null (a variable; an optional setting returns to its default)', async () => {
    // Arrange
    const { tenant, id } = await tenantWithAssistant();
    // Act
    const after = await json(
      await tenant.request('PATCH', `/assistants/${id}`, { config: { variables: { city: null }, first_message: null } }, MERGE),
    );
    // Assert
    expect(after.config.variables).toEqual({ shop: 'Acme' });
    expect(after.config.first_message).toBe('');
    expect(after.config.model.temperature).toBe(0.9);
  });

  it('sets and clears outbound_first_message on its own, leaving first_message as it was', async () => {
    // Arrange
    const { tenant, id } = await tenantWithAssistant();
    const patch = (value: string | null) =>
      tenant.request('PATCH', `/assistants/${id}`, { config: { outbound_first_message: value } }, MERGE).then(json);
    // Act
    const set = await patch('Hi {{name}}, Acme calling.');
    const cleared = await patch(null);
    const tooLong = await tenant.request('PATCH', `/assistants/${id}`, { config: { outbound_first_message: 'x'.repeat(1001) } }, MERGE);
    // Assert
    expect(set.config).toMatchObject({ first_message: 'Hello, Acme here.', outbound_first_message: 'Hi {{name}}, Acme calling.' });
    expect(cleared.config).toMatchObject({ first_message: 'Hello, Acme here.', outbound_first_message: '' });
    expect(tooLong.status).toBe(422);
    expect((await json(tooLong)).detail[0].loc).toEqual(['body', 'config', 'outbound_first_message']);
  });

  it('replaces an array rather than merging it', async () => {
    // Arrange
    const { tenant, id } = await tenantWithAssistant();
    // Act
    const after = await json(
      await tenant.request('PATCH', `/assistants/${id}`, { config: { advanced: { end_call_phrases: ['bye'] } } }, MERGE),
    );
    // Assert
    expect(after.config.advanced.end_call_phrases).toEqual(['bye']);
    expect(after.config.advanced.max_duration_s).toBe(900);
  });

  it('validates the merged result like a full update: 422 at the field, nothing written', async () => {
    // Arrange
    const { tenant, id, etag } = await tenantWithAssistant();
    // Act
    const response = await tenant.request('PATCH', `/assistants/${id}`, { config: { model: { temperature: 2 } }, name: null }, MERGE);
    // Assert
    expect(response.status).toBe(422);
    const locs = (await json(response)).detail.map((item: Json) => item.loc);
    expect(locs).toContainEqual(['body', 'name']);
    expect((await tenant.request('GET', `/assistants/${id}`)).headers.get('etag')).toBe(etag);
  });

  it('points a 422 inside the merged config at the field', async () => {
    // Arrange
    const { tenant, id } = await tenantWithAssistant();
    // Act
    const response = await tenant.request('PATCH', `/assistants/${id}`, { config: { model: { temperature: 2 } } }, MERGE);
    // Assert
    expect(response.status).toBe(422);
    expect((await json(response)).detail[0].loc).toEqual(['body', 'config', 'model', 'temperature']);
  });

  it('keeps application/json as the spec says: config replaces the whole configuration', async () => {
    // Arrange
    const { tenant, id } = await tenantWithAssistant();
    // Act
    const after = await json(await tenant.request('PATCH', `/assistants/${id}`, { config: { model: { max_tokens: 500 } } }));
    // Assert
    expect(after.config.model.temperature).toBe(0.4);
    expect(after.config.variables).toEqual({});
  });

  it('applies every concurrent merge patch without If-Match: no edit is lost', async () => {
    // Arrange
    const { tenant, id } = await tenantWithAssistant();
    const names = ['a', 'b', 'c', 'd'];
    // Act
    const responses = await Promise.all(
      names.map((name) => tenant.request('PATCH', `/assistants/${id}`, { config: { variables: { [name]: name } } }, MERGE)),
    );
    // Assert
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const after = await json(await tenant.request('GET', `/assistants/${id}`));
    expect(after.config.variables).toEqual({ city: 'Leeds', shop: 'Acme', a: 'a', b: 'b', c: 'c', d: 'd' });
  });
});

describe('If-Match on PATCH and DELETE /assistants/{id}', () => {
  it('refuses a stale tag with 412 precondition_failed and writes nothing', async () => {
    // Arrange
    const { tenant, id, etag } = await tenantWithAssistant();
    const changed = await tenant.request('PATCH', `/assistants/${id}`, { name: 'Changed' }, { 'if-match': etag });
    // Act
    const stale = await tenant.request('PATCH', `/assistants/${id}`, { name: 'Lost' }, { 'if-match': etag, ...MERGE });
    // Assert
    expect(changed.status).toBe(200);
    expect(stale.status).toBe(412);
    expect(await json(stale)).toEqual({ code: 'precondition_failed', detail: expect.any(String) });
    const read = await tenant.request('GET', `/assistants/${id}`);
    expect((await json(read)).name).toBe('Changed');
    expect(read.headers.get('etag')).toBe(changed.headers.get('etag'));
  });

  it('accepts * for any current version, and a list holding the current tag', async () => {
    // Arrange
    const { tenant, id, etag } = await tenantWithAssistant();
    // Act
    const any = await tenant.request('PATCH', `/assistants/${id}`, { name: 'Any' }, { 'if-match': '*' });
    const listed = await tenant.request(
      'PATCH',
      `/assistants/${id}`,
      { name: 'Listed' },
      {
        'if-match': `${etag}, ${any.headers.get('etag')}`,
      },
    );
    // Assert
    expect(any.status).toBe(200);
    expect(listed.status).toBe(200);
  });

  it('lets exactly one of 10 concurrent PATCHes with the same If-Match win', async () => {
    // Arrange
    const { tenant, id, etag } = await tenantWithAssistant();
    // Act
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        tenant.request('PATCH', `/assistants/${id}`, { config: { variables: { winner: String(i) } } }, { 'if-match': etag, ...MERGE }),
      ),
    );
    // Assert
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(412)]);
    const winner = await json(responses.find((r) => r.status === 200)!);
    expect((await json(await tenant.request('GET', `/assistants/${id}`))).config.variables).toEqual(winner.config.variables);
  });

  it('refuses DELETE with a stale tag (412, still there) and deletes with the current one', async () => {
    // Arrange
    const { tenant, id, etag } = await tenantWithAssistant();
    const changed = await tenant.request('PATCH', `/assistants/${id}`, { name: 'Changed' });
    // Act
    const stale = await tenant.request('DELETE', `/assistants/${id}`, undefined, { 'if-match': etag });
    const stillThere = await tenant.request('GET', `/assistants/${id}`);
    const current = await tenant.request('DELETE', `/assistants/${id}`, undefined, { 'if-match': changed.headers.get('etag')! });
    // Assert
    expect(stale.status).toBe(412);
    expect(stillThere.status).toBe(200);
    expect(current.status).toBe(200);
    expect((await tenant.request('GET', `/assistants/${id}`)).status).toBe(404);
  });

  it('refuses DELETE of a non-default assistant with a stale tag too', async () => {
    // Arrange
    const { tenant } = await tenantWithAssistant();
    const second = await tenant.request('POST', '/assistants', { name: 'Second' });
    const { id } = await json(second);
    await tenant.request('PATCH', `/assistants/${id}`, { name: 'Second, renamed' });
    // Act
    const stale = await tenant.request('DELETE', `/assistants/${id}`, undefined, { 'if-match': second.headers.get('etag')! });
    // Assert
    expect(stale.status).toBe(412);
    expect((await tenant.request('GET', `/assistants/${id}`)).status).toBe(200);
  });

  it('answers 404, not 412, for a missing assistant, and 422 for a malformed If-Match', async () => {
    // Arrange
    const { tenant, id } = await tenantWithAssistant();
    // Act
    const missing = await tenant.request('PATCH', '/assistants/999999999', { name: 'X' }, { 'if-match': '*' });
    const malformed = await tenant.request('PATCH', `/assistants/${id}`, { name: 'X' }, { 'if-match': 'not-quoted' });
    // Assert
    expect(missing.status).toBe(404);
    expect(malformed.status).toBe(422);
    expect((await json(malformed)).detail[0].loc).toEqual(['header', 'if-match']);
  });
});
