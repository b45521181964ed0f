import type { AssistantConfig } from '../../../shared/domain/assistant-config';
import { ProviderError } from '../../../shared/errors';
import { pinnedFetch } from '../../../shared/security/pinned-fetch';
import type { LookupAll } from '../../../shared/security/ssrf';
import type { SecretBox } from '../../../shared/security/secret-box';
import { customKeyContext } from '../../../shared/services/assistant-service';
import { OpenAiLanguageModel } from '../adapters/openai-language-model';
import { FallbackLanguageModel } from '../adapters/fallback-language-model';
import type { LanguageModel } from '../ports/language-model';
import type { FaultListener } from '../ports/provider-faults';
import { sandboxLabel } from '../call/call-metrics';
import { findProvider, type ProviderNames, type ProviderShelf } from '../call/providers';
import type { OpenAiTarget } from './providers';

/** Options of {@link modelSources}. */
export interface ModelSourcesOptions {
  openai: OpenAiTarget;
  /** Local development only: custom URLs on loopback/private networks (and plain http). */
  allowPrivateUrls: boolean;
  lookup?: LookupAll;
  /**
   * The platform model is a sandbox (`npm run dev`, tests): every request carries `?tag=<call SID>`,
   * custom endpoints' too, so a sandbox standing in for either can act on a fault number's fault.
   */
  sandboxTags?: boolean;
}

/** What one call adds to its model: its SID (the sandbox's tag) and where faults are reported. */
export interface ModelCallOptions {
  tag?: string;
  onFault?: FaultListener;
}

/** A custom endpoint saved without a key still gets a bearer token (the SDK refuses an empty one). */
const NO_KEY = 'no-key';

/**
 * The registry's model providers (`ProviderRegistry.models`): the platform's OpenAI client for
 * `provider: openai` (labelled as the sandbox's when `sandboxTags`), and for `provider: custom` a
 * client on the endpoint's URL with the key it is given. Every request to a custom URL goes through
 * the pinned fetch: checked against SSRF again (DNS answers can change after it was saved),
 * connected to the address that check approved, and never redirected.
 */
export function modelSources(options: ModelSourcesOptions): ProviderShelf<'models'> {
  const sendTag = options.sandboxTags ?? false;
  const platform = new OpenAiLanguageModel({ provider: 'openai', ...options.openai, sendTag });
  const policy = { allowPrivate: options.allowPrivateUrls, requireHttps: !options.allowPrivateUrls };
  const guarded = pinnedFetch({ policy, ...(options.lookup && { lookup: options.lookup }) });
  return {
    openai: { port: { open: () => Promise.resolve(platform) }, label: sendTag ? sandboxLabel('openai') : 'openai' },
    custom: {
      port: {
        open: async (endpoint) =>
          new OpenAiLanguageModel({
            provider: 'custom',
            customUrl: endpoint.url,
            apiKey: await endpoint.apiKey(),
            fetch: guarded,
            sendTag,
          }),
      },
      label: 'custom',
    },
  };
}

/**
 * `CallSessionDeps.languageModelFor` over the registry's models: the entry for `model.provider`,
 * sent the business's KMS-sealed key (opened with the business's context, so a key copied to another
 * business does not open) when it is `custom`. The model is wrapped for the call
 * (`FallbackLanguageModel`): watched for stalls, and `model.fallback` (looked up the same way)
 * answers once it fails. A custom fallback is sent the stored key only when its URL is the
 * assistant's own `custom_url`. A provider missing from `models` rejects (every composition has both).
 *
 * The third argument is the assistant's `custom_key_sealed` (the config alone does not carry it).
 */
export function languageModelsOver(models: ProviderShelf<'models'>, secretBox: SecretBox) {
  const source = (name: ProviderNames['models']) => {
    const found = findProvider({ models }, 'models', name);
    if (!found.ok) throw new ProviderError(name, found.reason, undefined, { retryable: false });
    return found.entry.port;
  };
  return async function languageModelFor(
    businessId: number,
    config: AssistantConfig,
    customKeySealed?: string,
    call: ModelCallOptions = {},
  ): Promise<LanguageModel> {
    const { model } = config;
    const key = async () => (customKeySealed ? await secretBox.open(customKeySealed, customKeyContext(businessId)) : NO_KEY);
    const primary = await source(model.provider).open({ url: model.custom_url, apiKey: key });
    const own = model.provider === 'custom' && model.fallback?.custom_url === model.custom_url;
    const fallback = model.fallback && {
      model: await source(model.fallback.provider).open({
        url: model.fallback.custom_url,
        apiKey: own ? key : () => Promise.resolve(NO_KEY),
      }),
      name: model.fallback.model,
    };
    return new FallbackLanguageModel({ primary, ...(fallback && { fallback }), ...call });
  };
}
