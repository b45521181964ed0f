import { beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../../support/api-harness';

/**
 * Attack suite, the custom model endpoint (`model.provider: custom`): the business's stored key
 * never follows the config to a new address.
 */

let harness: ApiHarness;

beforeAll(async () => {
  harness = await createApiHarness();
});

type Json = Record<string, any>;
const json = async (response: Response): Promise<Json> => (await response.json()) as Json;

/** A tenant with an assistant on a custom endpoint whose key is stored. */
async function assistantWithCustomKey() {
  const tenant = await harness.newTenant();
  const model = { provider: 'custom', custom_url: 'https://llm.example.com/v1', custom_key: 'sk-secret-123' };
  const created = await json(await tenant.request('POST', '/assistants', { config: { model } }));
  expect(created.config.model.custom_key_set).toBe(true);
  return { tenant, created };
}

describe('attack: the stored custom_key and a changed custom_url', () => {
  it('drops the stored key when a PATCH changes custom_url without sending a new key', async () => {
    // Arrange
    const { tenant, created } = await assistantWithCustomKey();
    const config = { ...created.config, model: { ...created.config.model, custom_url: 'https://attacker.example.net/v1' } };
    // Act
    const patched = await json(await tenant.request('PATCH', `/assistants/${created.id}`, { config }));
    // Assert
    expect(patched.config.model.custom_key_set).toBe(false);
    const stored = await harness.core.assistantRepo.getAssistant(tenant.businessId, created.id);
    expect(stored.custom_key_sealed).toBeUndefined();
  });

  it('drops the stored key when the provider changes, so switching back does not revive it', async () => {
    // Arrange
    const { tenant, created } = await assistantWithCustomKey();
    const toOpenAi = { ...created.config, model: { ...created.config.model, provider: 'openai' } };
    // Act
    await tenant.request('PATCH', `/assistants/${created.id}`, { config: toOpenAi });
    const back = await json(await tenant.request('PATCH', `/assistants/${created.id}`, { config: created.config }));
    // Assert
    expect(back.config.model.custom_key_set).toBe(false);
  });

  it('keeps the key for the same URL, and takes a new key sent with a new URL', async () => {
    // Arrange
    const { tenant, created } = await assistantWithCustomKey();
    const moved = { ...created.config, model: { ...created.config.model, custom_url: 'https://llm2.example.com/v1', custom_key: 'sk-new-456' } };
    // Act
    const same = await json(await tenant.request('PATCH', `/assistants/${created.id}`, { config: created.config }));
    const withNewKey = await json(await tenant.request('PATCH', `/assistants/${created.id}`, { config: moved }));
    // Assert
    expect(same.config.model.custom_key_set).toBe(true);
    expect(withNewKey.config.model.custom_key_set).toBe(true);
    expect(JSON.stringify(withNewKey)).not.toContain('sk-new-456');
  });
});
