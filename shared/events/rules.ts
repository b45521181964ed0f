import { EVENT_SOURCE, WEBHOOK_EVENT_TYPES } from './catalog';

/** Which consumer a rule feeds: the analysis function, or the webhook delivery buffer queue. */
export type RuleTarget = 'analysis' | 'webhooks';

/** An EventBridge rule as data: the same declaration drives `infra/` and the local router. */
export interface EventRule {
  name: string;
  description: string;
  pattern: { source: string[]; 'detail-type': string[]; detail?: { webhook: true[] } };
  target: RuleTarget;
}

/** The rules, declared once. */
export const EVENT_RULES: readonly EventRule[] = [
  {
    name: 'call-ended-to-analysis',
    description: 'Analyse every ended call (summary, score, structured data, outcome), then emit call.completed.',
    pattern: { source: [EVENT_SOURCE], 'detail-type': ['call.ended'] },
    target: 'analysis',
  },
  {
    name: 'call-events-to-webhooks',
    description: 'Buffer the webhook-visible events for signed delivery to business servers.',
    // Only events a business subscribed to: the rest never reach the queue or the delivery function.
    pattern: { source: [EVENT_SOURCE], 'detail-type': [...WEBHOOK_EVENT_TYPES], detail: { webhook: [true] } },
    target: 'webhooks',
  },
];

/** True when an event matches a rule's pattern (the subset of EventBridge matching these rules use). */
export function matchesRule(rule: EventRule, source: string, detailType: string, detail: { webhook?: boolean } = {}): boolean {
  if (rule.pattern.detail && detail.webhook !== true) return false;
  return rule.pattern.source.includes(source) && rule.pattern['detail-type'].includes(detailType);
}
