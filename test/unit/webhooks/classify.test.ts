import { describe, expect, it } from 'vitest';
import { classifyAttempt, type AttemptResult, type AttemptOutcome } from '../../../shared/webhooks/classify';

describe('classifyAttempt (docs/design.md "Webhooks", Standard Webhooks)', () => {
  it.each<[string, AttemptResult, AttemptOutcome]>([
    ['200', { status: 200 }, 'delivered'],
    ['201', { status: 201 }, 'delivered'],
    ['204', { status: 204 }, 'delivered'],
    ['299', { status: 299 }, 'delivered'],
    ['301 (redirects are failures)', { status: 301 }, 'retry'],
    ['302', { status: 302 }, 'retry'],
    ['304', { status: 304 }, 'retry'],
    ['307', { status: 307 }, 'retry'],
    ['400', { status: 400 }, 'retry'],
    ['401 (receiver rotating keys)', { status: 401 }, 'retry'],
    ['403', { status: 403 }, 'retry'],
    ['404 (receiver mid-deploy)', { status: 404 }, 'retry'],
    ['408', { status: 408 }, 'retry'],
    ['410 Gone', { status: 410 }, 'give_up'],
    ['413', { status: 413 }, 'retry'],
    ['429', { status: 429 }, 'retry'],
    ['500', { status: 500 }, 'retry'],
    ['502', { status: 502 }, 'retry'],
    ['503', { status: 503 }, 'retry'],
    ['504', { status: 504 }, 'retry'],
    ['timeout', { status: null, error: 'timeout' }, 'retry'],
    ['network error', { error: 'network' }, 'retry'],
    ['blocked by the SSRF guard', { error: 'blocked' }, 'give_up'],
    ['nothing known', {}, 'retry'],
  ])('%s → %s', (_, result, outcome) => {
    expect(classifyAttempt(result)).toBe(outcome);
  });
});
