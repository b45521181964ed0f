import type { AssistantRepository } from '../db/assistant-repository';
import { defaultAssistantConfig, type AssistantConfig } from '../domain/assistant-config';
import type { EventType } from '../events/catalog';
import type { Logger } from '../log';

/** True when an assistant's config asks for `type` as a webhook (a server URL, and the kind chosen). */
export function subscribesTo(config: AssistantConfig, type: EventType): boolean {
  const { server_url: url, server_events: kinds } = config.advanced;
  return url.trim() !== '' && (kinds as readonly string[]).includes(type);
}

/**
 * How long a publisher trusts an assistant's webhook settings: a subscription added (or removed)
 * takes effect for events published at most this long after the save, per process. Removal is
 * immediate in effect anyway: the delivery function reads the settings again before sending.
 */
export const SUBSCRIPTION_CACHE_MS = 60_000;

/** Entries kept per process (oldest dropped first): one per assistant publishing here recently. */
const MAX_ENTRIES = 10_000;

/**
 * Whether a call event has a webhook subscriber, asked by the publishers (call engine, analysis)
 * so the event carries `webhook: true|false` and the EventBridge rule to the delivery queue passes
 * only `true`: events nobody subscribed to never reach the queue or the delivery function. One
 * assistant read per assistant per {@link SUBSCRIPTION_CACHE_MS} per process; a failed read counts
 * as subscribed (the delivery function decides, as before), so an outage never drops a webhook.
 *
 * @example
 * const webhook = await subscriptions.has(call.business_id, call.assistant_id, 'call.started');
 */
export class WebhookSubscriptions {
  readonly #cache = new Map<string, { config: AssistantConfig; until: number }>();

  constructor(private readonly deps: { assistants: Pick<AssistantRepository, 'findAssistant'>; nowMs: () => number; log?: Logger }) {}

  async has(businessId: number, assistantId: number, type: EventType): Promise<boolean> {
    try {
      return subscribesTo(await this.#config(businessId, assistantId), type);
    } catch (error) {
      this.deps.log?.warn('webhook subscription read failed; the event goes to delivery', { error });
      return true;
    }
  }

  async #config(businessId: number, assistantId: number): Promise<AssistantConfig> {
    const key = `${businessId}/${assistantId}`;
    const now = this.deps.nowMs();
    const cached = this.#cache.get(key);
    if (cached && cached.until > now) return cached.config;
    const config = (await this.deps.assistants.findAssistant(businessId, assistantId))?.config ?? defaultAssistantConfig();
    this.#cache.delete(key);
    if (this.#cache.size >= MAX_ENTRIES) this.#cache.delete(this.#cache.keys().next().value!);
    this.#cache.set(key, { config, until: now + SUBSCRIPTION_CACHE_MS });
    return config;
  }
}
