import { describe, expect, it } from 'vitest';
import { defaultAssistantConfig, type AssistantConfig } from '../../../shared/domain/assistant-config';
import { SUBSCRIPTION_CACHE_MS, subscribesTo, WebhookSubscriptions } from '../../../shared/services/webhook-subscriptions';

const base = defaultAssistantConfig();
const subscribed = (kinds: AssistantConfig['advanced']['server_events']): AssistantConfig => ({
  ...base,
  advanced: { ...base.advanced, server_url: 'https://hooks.example.com/x', server_events: kinds },
});

/** A stored assistant config the test edits, counting the reads. */
function store(config: AssistantConfig | 'fails') {
  const state = { config, reads: 0 };
  const assistants = {
    findAssistant: async () => {
      state.reads++;
      if (state.config === 'fails') throw new Error('throttled');
      return { config: state.config } as Awaited<
        ReturnType<import('../../../shared/db/assistant-repository').AssistantRepository['findAssistant']>
      >;
    },
  };
  return { state, assistants };
}

describe('webhook subscriptions', () => {
  it.each([
    ['no URL', { ...base, advanced: { ...base.advanced, server_events: ['call.started'] } } as AssistantConfig, false],
    ['URL, other kinds', subscribed(['call.completed']), false],
    ['URL and the kind', subscribed(['call.started', 'call.completed']), true],
  ])('%s → %s for call.started', (_name, config, expected) => {
    expect(subscribesTo(config, 'call.started')).toBe(expected);
  });

  it('reads an assistant once a minute at most, and sees a subscription added after the cache window', async () => {
    // Arrange
    const { state, assistants } = store(base);
    let now = 0;
    const subscriptions = new WebhookSubscriptions({ assistants, nowMs: () => now });
    // Act
    const before = await subscriptions.has(1, 2, 'call.started');
    state.config = subscribed(['call.started']);
    now += SUBSCRIPTION_CACHE_MS - 1;
    const stale = await subscriptions.has(1, 2, 'call.started');
    now += 1;
    const fresh = await subscriptions.has(1, 2, 'call.started');
    // Assert
    expect([before, stale, fresh]).toEqual([false, false, true]);
    expect(state.reads).toBe(2);
  });

  it('counts a failed read as subscribed, so an outage never drops a webhook (delivery decides)', async () => {
    const { assistants } = store('fails');
    expect(await new WebhookSubscriptions({ assistants, nowMs: () => 0 }).has(1, 2, 'call.completed')).toBe(true);
  });
});
