import type { AssistantConfig } from '../../../shared/domain/assistant-config';
import { pinnedFetch } from '../../../shared/security/pinned-fetch';
import type { LookupAll } from '../../../shared/security/ssrf';
import type { SecretBox } from '../../../shared/security/secret-box';
import { customKeyContext } from '../../../shared/services/assistant-service';
import { OpenAiLanguageModel } from '../adapters/openai-language-model';
import type { LanguageModel } from '../ports/language-model';
import type { OpenAiTarget } from './providers';

/** Options of {@link languageModels}. */
export interface LanguageModelsOptions {
  openai: OpenAiTarget;
  secretBox: SecretBox;
  /** Local development only: custom URLs on loopback/private networks (and plain http). */
  allowPrivateUrls: boolean;
  lookup?: LookupAll;
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
 * The third argument is the assistant's `custom_key_sealed` (the config alone does not carry it).
 */
export function languageModels(options: LanguageModelsOptions) {
  const platform = new OpenAiLanguageModel({ provider: 'openai', ...options.openai });
  const policy = { allowPrivate: options.allowPrivateUrls, requireHttps: !options.allowPrivateUrls };
  const guarded = pinnedFetch({ policy, ...(options.lookup && { lookup: options.lookup }) });
  return async function languageModelFor(businessId: number, config: AssistantConfig, customKeySealed?: string): Promise<LanguageModel> {
    if (config.model.provider !== 'custom') return platform;
    const apiKey = customKeySealed ? await options.secretBox.open(customKeySealed, customKeyContext(businessId)) : NO_KEY;
    return new OpenAiLanguageModel({ provider: 'custom', customUrl: config.model.custom_url, apiKey, fetch: guarded });
  };
}
