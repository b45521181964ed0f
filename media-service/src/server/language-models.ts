import type { AssistantConfig } from '../../../shared/domain/assistant-config';
import { pinnedFetch } from '../../../shared/security/pinned-fetch';
import type { LookupAll } from '../../../shared/security/ssrf';
import type { SecretBox } from '../../../shared/security/secret-box';
import { customKeyContext } from '../../../shared/services/assistant-service';
import { OpenAiLanguageModel } from '../adapters/openai-language-model';
import { FallbackLanguageModel } from '../adapters/fallback-language-model';
import type { LanguageModel } from '../ports/language-model';
import type { FaultListener } from '../ports/provider-faults';
import type { OpenAiTarget } from './providers';

/** Options of {@link languageModels}. */
export interface LanguageModelsOptions {
  openai: OpenAiTarget;
  secretBox: SecretBox;
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
 * `CallSessionDeps.languageModelFor`: the platform's OpenAI client for `provider: openai`, and for
 * `provider: custom` a client on the business's `custom_url` with its KMS-sealed key (opened with
 * the business's context, so a key copied to another business does not open). Every request to the
 * custom URL goes through the pinned fetch: checked against SSRF again (DNS answers can change after
 * it was saved), connected to the address that check approved, and never redirected.
 *
 * The model is wrapped for the call (`FallbackLanguageModel`): watched for stalls, and
 * `model.fallback` (built the same way) answers once it fails. A custom fallback is sent the stored
 * key only when its URL is the assistant's own `custom_url`.
 *
 * The third argument is the assistant's `custom_key_sealed` (the config alone does not carry it).
 */
export function languageModels(options: LanguageModelsOptions) {
  const sendTag = options.sandboxTags ?? false;
  const platform = new OpenAiLanguageModel({ provider: 'openai', ...options.openai, sendTag });
  const policy = { allowPrivate: options.allowPrivateUrls, requireHttps: !options.allowPrivateUrls };
  const guarded = pinnedFetch({ policy, ...(options.lookup && { lookup: options.lookup }) });
  const custom = (customUrl: string, apiKey: string) =>
    new OpenAiLanguageModel({ provider: 'custom', customUrl, apiKey, fetch: guarded, sendTag });
  return async function languageModelFor(
    businessId: number,
    config: AssistantConfig,
    customKeySealed?: string,
    call: ModelCallOptions = {},
  ): Promise<LanguageModel> {
    const { model } = config;
    const key = async () => (customKeySealed ? await options.secretBox.open(customKeySealed, customKeyContext(businessId)) : NO_KEY);
    const primary = model.provider === 'custom' ? custom(model.custom_url, await key()) : platform;
    const own = model.provider === 'custom' && model.fallback?.custom_url === model.custom_url;
    const fallback = model.fallback && {
      model: model.fallback.provider === 'custom' ? custom(model.fallback.custom_url, own ? await key() : NO_KEY) : platform,
      name: model.fallback.model,
    };
    return new FallbackLanguageModel({ primary, ...(fallback && { fallback }), ...call });
  };
}
