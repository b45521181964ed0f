import { Webhook } from 'standardwebhooks';
import { describe, expect, it, vi } from 'vitest';
import { RequestTimeoutError, type GuardedResponse } from '../../../shared/security/guarded-fetch';
import { BlockedUrlError } from '../../../shared/security/ssrf';
import { generateWebhookSecret } from '../../../shared/webhooks/secret';
import { sendWebhook, WEBHOOK_USER_AGENT, type WebhookFetch } from '../../../shared/webhooks/send';

const secret = generateWebhookSecret((size) => new Uint8Array(size).fill(5));
const payload = { type: 'call.completed', timestamp: '2026-11-22T09:21:23.123Z', data: { id: 7, summary: 'Booked a cleaning.' } };

function respond(status: number, headers: Record<string, string> = {}): WebhookFetch & { calls: Parameters<WebhookFetch>[] } {
  const calls: Parameters<WebhookFetch>[] = [];
  const fetch = async (...args: Parameters<WebhookFetch>): Promise<GuardedResponse> => {
    calls.push(args);
    return { status, headers, bodyText: 'receiver said something private', bodyTruncated: false, latencyMs: 42 };
  };
  return Object.assign(fetch, { calls });
}

function failWith(error: unknown): WebhookFetch {
  return async () => {
    throw error;
  };
}

function clock(...isoTimes: string[]) {
  const times = isoTimes.map((iso) => new Date(iso));
  return () => times.shift() ?? new Date(isoTimes.at(-1)!);
}

const base = { url: 'https://hooks.example.com/in', payload, webhookId: 'msg_7', secrets: [secret], allowPrivate: false };

describe('sendWebhook', () => {
  it('POSTs the serialised payload once, signed, with JSON and user-agent headers', async () => {
    // Arrange
    const fetch = respond(204);
    const now = new Date();

    // Act
    const attempt = await sendWebhook({ ...base, now: () => now, fetchImpl: fetch });

    // Assert
    expect(attempt).toEqual({ at: now.toISOString(), status: 204, latency_ms: 42, error: null, outcome: 'delivered', retry_after_s: null });
    const [url, init, options] = fetch.calls[0]!;
    expect(url).toBe(base.url);
    expect(init.method).toBe('POST');
    expect(init.body).toBe(JSON.stringify(payload));
    expect(init.headers).toMatchObject({ 'content-type': 'application/json', 'user-agent': WEBHOOK_USER_AGENT, 'webhook-id': 'msg_7' });
    expect(init.headers!['webhook-timestamp']).toBe(String(Math.floor(now.getTime() / 1000)));
    expect(options).toEqual({ allowPrivate: false, requireHttps: true, timeoutMs: 10_000 });
    expect(new Webhook(secret).verify(init.body!, init.headers!)).toEqual(payload);
  });

  it('keeps the webhook-id and refreshes the timestamp on every attempt', async () => {
    // Arrange
    const fetch = respond(500);

    // Act
    await sendWebhook({ ...base, now: () => new Date('2026-11-22T09:00:00Z'), fetchImpl: fetch });
    await sendWebhook({ ...base, now: () => new Date('2026-11-22T09:00:05Z'), fetchImpl: fetch });

    // Assert
    const [first, second] = fetch.calls.map(([, init]) => init.headers!);
    expect(first!['webhook-id']).toBe(second!['webhook-id']);
    expect(Number(second!['webhook-timestamp']) - Number(first!['webhook-timestamp'])).toBe(5);
    expect(first!['webhook-signature']).not.toBe(second!['webhook-signature']);
  });

  it('lets a local receiver be plain http when private targets are allowed, unless told otherwise', async () => {
    const fetch = respond(200);
    await sendWebhook({ ...base, allowPrivate: true, now: () => new Date(), fetchImpl: fetch });
    await sendWebhook({ ...base, allowPrivate: true, requireHttps: true, timeoutMs: 500, now: () => new Date(), fetchImpl: fetch });
    expect(fetch.calls.map(([, , options]) => options)).toEqual([
      { allowPrivate: true, requireHttps: false, timeoutMs: 10_000 },
      { allowPrivate: true, requireHttps: true, timeoutMs: 500 },
    ]);
  });

  it.each([
    [301, 'retry'],
    [410, 'give_up'],
    [404, 'retry'],
    [500, 'retry'],
  ] as const)('records status %i as %s without keeping the body', async (status, outcome) => {
    const attempt = await sendWebhook({ ...base, now: () => new Date(), fetchImpl: respond(status) });
    expect(attempt).toMatchObject({ status, outcome, error: null });
    expect(JSON.stringify(attempt)).not.toContain('private');
  });

  it.each([429, 503])('passes on a %i Retry-After for the scheduler', async (status) => {
    const attempt = await sendWebhook({ ...base, now: () => new Date(), fetchImpl: respond(status, { 'retry-after': '90' }) });
    expect(attempt).toMatchObject({ status, outcome: 'retry', retry_after_s: 90 });
  });

  it('ignores Retry-After on other statuses', async () => {
    const attempt = await sendWebhook({ ...base, now: () => new Date(), fetchImpl: respond(500, { 'retry-after': '90' }) });
    expect(attempt.retry_after_s).toBeNull();
  });

  it.each([
    ['timeout', new RequestTimeoutError(10_000), 'timeout after 10000 ms', 'retry'],
    ['refused connection', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'network: ECONNREFUSED', 'retry'],
    ['plain error', new Error('connect to 10.1.2.3:8080 failed'), 'network: the request failed', 'retry'],
    [
      'SSRF refusal',
      new BlockedUrlError(
        'hooks.example.com resolves to a blocked address (10.0.0.1 is a private address)',
        'hooks.example.com resolves to a blocked address',
      ),
      'blocked: hooks.example.com resolves to a blocked address',
      'give_up',
    ],
  ])('records a %s as an error with no status', async (_, error, text, outcome) => {
    // Arrange
    const now = clock('2026-11-22T09:00:00.000Z', '2026-11-22T09:00:10.000Z');

    // Act
    const attempt = await sendWebhook({ ...base, now, fetchImpl: failWith(error) });

    // Assert
    expect(attempt).toEqual({
      at: '2026-11-22T09:00:00.000Z',
      status: null,
      latency_ms: 10_000,
      error: text,
      outcome,
      retry_after_s: null,
    });
  });

  it('throws before any request for a malformed secret (our bug, not the receiver)', async () => {
    const fetch = vi.fn<WebhookFetch>();
    await expect(sendWebhook({ ...base, secrets: ['nope'], now: () => new Date(), fetchImpl: fetch })).rejects.toThrow(
      'invalid webhook secret',
    );
    expect(fetch).not.toHaveBeenCalled();
  });
});
