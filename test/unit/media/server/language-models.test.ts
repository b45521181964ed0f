import { describe, expect, it } from 'vitest';
import { defaultAssistantConfig, type AssistantConfig } from '../../../../shared/domain/assistant-config';
import { ProviderError } from '../../../../shared/errors';
import { LocalSecretBox } from '../../../../shared/security/secret-box';
import { customKeyContext } from '../../../../shared/services/assistant-service';
import type { ModelSource, ProviderShelf } from '../../../../media-service/src/call/providers';
import type { LanguageModel } from '../../../../media-service/src/ports/language-model';
import { languageModelsOver } from '../../../../media-service/src/server/language-models';

/** What a model source was asked for: by which provider name, where, with which key. */
interface Asked {
  provider: string;
  url: string;
  key: string;
}

/** A model the test never streams: these tests look at which source built it, and with what. */
const unstreamed: LanguageModel = {
  stream: () => {
    throw new Error('not streamed in a lookup test');
  },
};

/** Sources that write down each endpoint they are asked to open, and the key it came with. */
function recordingSources(names: readonly ('openai' | 'custom')[]) {
  const asked: Asked[] = [];
  const source = (provider: string): ModelSource => ({
    open: async (endpoint) => {
      asked.push({ provider, url: endpoint.url, key: await endpoint.apiKey() });
      return unstreamed;
    },
  });
  const models: ProviderShelf<'models'> = Object.fromEntries(names.map((name) => [name, { port: source(name), label: name }]));
  return { models, asked };
}

const BUSINESS = 7;
const OWN_URL = 'https://llm.acme.test/v1';
const box = new LocalSecretBox('language-models test');

/** The default config with `model` changed. */
const withModel = (model: Partial<AssistantConfig['model']>): AssistantConfig => {
  const config = defaultAssistantConfig();
  return { ...config, model: { ...config.model, ...model } };
};

describe('languageModelsOver: the call model from the registry by model.provider', () => {
  describe.each<{ name: string; model: Partial<AssistantConfig['model']>; asked: Asked[] }>([
    { name: 'openai, no fallback, no stored key', model: {}, asked: [{ provider: 'openai', url: '', key: 'no-key' }] },
    {
      name: 'custom with a custom fallback on its own URL: both get the stored key',
      model: { provider: 'custom', custom_url: OWN_URL, fallback: { provider: 'custom', model: 'b', custom_url: OWN_URL } },
      asked: [
        { provider: 'custom', url: OWN_URL, key: 'sk-biz' },
        { provider: 'custom', url: OWN_URL, key: 'sk-biz' },
      ],
    },
    {
      name: 'custom with a custom fallback elsewhere: the fallback never gets the stored key',
      model: { provider: 'custom', custom_url: OWN_URL, fallback: { provider: 'custom', model: 'b', custom_url: 'https://other.test/v1' } },
      asked: [
        { provider: 'custom', url: OWN_URL, key: 'sk-biz' },
        { provider: 'custom', url: 'https://other.test/v1', key: 'no-key' },
      ],
    },
    {
      name: 'custom with the platform model as fallback',
      model: { provider: 'custom', custom_url: OWN_URL, fallback: { provider: 'openai', model: 'gpt-5.6-luna', custom_url: '' } },
      asked: [
        { provider: 'custom', url: OWN_URL, key: 'sk-biz' },
        { provider: 'openai', url: '', key: 'no-key' },
      ],
    },
  ])('$name', ({ model, asked }) => {
    it('asks the registry entry of each provider named, primary first', async () => {
      // Arrange
      const sources = recordingSources(['openai', 'custom']);
      const sealed = model.provider === 'custom' ? await box.seal('sk-biz', customKeyContext(BUSINESS)) : undefined;
      // Act
      await languageModelsOver(sources.models, box)(BUSINESS, withModel(model), sealed);
      // Assert
      expect(sources.asked).toEqual(asked);
    });
  });

  it.each<{ name: string; model: Partial<AssistantConfig['model']> }>([
    { name: 'the primary', model: { provider: 'custom', custom_url: OWN_URL } },
    { name: 'the fallback', model: { fallback: { provider: 'custom', model: 'b', custom_url: OWN_URL } } },
  ])('a provider missing from the registry ($name) rejects, naming it, as a permanent failure', async ({ model }) => {
    // Arrange
    const sources = recordingSources(['openai']);
    // Act
    const opened = languageModelsOver(sources.models, box)(BUSINESS, withModel(model));
    // Assert
    await expect(opened).rejects.toThrow(ProviderError);
    await expect(opened).rejects.toMatchObject({ provider: 'custom', message: 'no custom model provider configured', retryable: false });
  });
});
