import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  generateWebhookSecret,
  InvalidWebhookSecretError,
  isWebhookSecret,
  parseWebhookSecret,
  WEBHOOK_SECRET_BYTES,
} from '../../../shared/webhooks/secret';
import { signWebhook } from '../../../shared/webhooks/signing';

function bytes(fill: number) {
  return (size: number) => new Uint8Array(size).fill(fill);
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('generateWebhookSecret / parseWebhookSecret', () => {
  it('is whsec_ + base64 of 32 bytes from the injected source', () => {
    // Arrange / Act
    const secret = generateWebhookSecret(bytes(7));

    // Assert
    expect(secret).toBe(`whsec_${Buffer.alloc(32, 7).toString('base64')}`);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(parseWebhookSecret(secret)).toEqual(new Uint8Array(WEBHOOK_SECRET_BYTES).fill(7));
  });

  it('defaults to node:crypto and never repeats', () => {
    const secrets = new Set(Array.from({ length: 50 }, () => generateWebhookSecret()));
    expect(secrets.size).toBe(50);
  });

  it('refuses a random source that returns the wrong length', () => {
    expect(() => generateWebhookSecret(() => new Uint8Array(16))).toThrow(RangeError);
  });

  it.each([
    ['no prefix', Buffer.alloc(32, 1).toString('base64')],
    ['wrong prefix', `whsk_${Buffer.alloc(32, 1).toString('base64')}`],
    ['empty key', 'whsec_'],
    ['not base64', 'whsec_!!!!notbase64!!!!notbase64!!!!notbase64!'],
    ['missing padding', `whsec_${Buffer.alloc(32, 1).toString('base64').replace(/=+$/, '')}`],
    ['too short (16 bytes)', `whsec_${Buffer.alloc(16, 1).toString('base64')}`],
    ['too long (65 bytes)', `whsec_${Buffer.alloc(65, 1).toString('base64')}`],
  ])('refuses a secret with %s', (_, secret) => {
    expect(() => parseWebhookSecret(secret)).toThrow(InvalidWebhookSecretError);
    expect(isWebhookSecret(secret)).toBe(false);
  });

  it('accepts 24 and 64 byte keys (the spec bounds)', () => {
    expect(isWebhookSecret(`whsec_${Buffer.alloc(24, 2).toString('base64')}`)).toBe(true);
    expect(isWebhookSecret(`whsec_${Buffer.alloc(64, 2).toString('base64')}`)).toBe(true);
  });

  it('never puts the secret in the error message', () => {
    const secret = `whsec_${Buffer.alloc(8, 9).toString('base64')}`;
    expect(() => parseWebhookSecret(secret)).toThrow(expect.objectContaining({ message: expect.not.stringContaining(secret.slice(6)) }));
  });
});

describe('signWebhook (verified by the standardwebhooks reference library)', () => {
  const current = generateWebhookSecret(bytes(1));
  const previous = generateWebhookSecret(bytes(2));
  const body = JSON.stringify({
    type: 'call.completed',
    timestamp: '2026-11-22T09:21:23.123Z',
    data: { id: 42, summary: 'Café ☕ booked' },
  });

  it('produces headers that Webhook.verify accepts, returning the payload', () => {
    // Arrange
    const timestamp = nowSeconds();

    // Act
    const headers = signWebhook({ id: 'msg_2f9Qx', timestamp, body, secrets: [current] });

    // Assert
    expect(headers['webhook-id']).toBe('msg_2f9Qx');
    expect(headers['webhook-timestamp']).toBe(String(timestamp));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(current).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('matches the reference signer byte for byte', () => {
    const timestamp = 1_767_225_600;
    const ours = signWebhook({ id: 'msg_1', timestamp, body, secrets: [current] })['webhook-signature'];
    expect(ours).toBe(new Webhook(current).sign('msg_1', new Date(timestamp * 1000), body));
  });

  it('signs with every secret during rotation; either secret verifies', () => {
    // Arrange / Act
    const headers = signWebhook({ id: 'msg_rot', timestamp: nowSeconds(), body, secrets: [current, previous] });

    // Assert
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(current).verify(body, { ...headers })).not.toThrow();
    expect(() => new Webhook(previous).verify(body, { ...headers })).not.toThrow();
    expect(() => new Webhook(generateWebhookSecret(bytes(3))).verify(body, { ...headers })).toThrow('No matching signature');
  });

  it('does not repeat a signature when the same secret is passed twice', () => {
    const headers = signWebhook({ id: 'msg_dup', timestamp: nowSeconds(), body, secrets: [current, current] });
    expect(headers['webhook-signature'].split(' ')).toHaveLength(1);
  });

  it('fails verification when one byte of the body changes (the exact string is signed)', () => {
    const headers = signWebhook({ id: 'msg_x', timestamp: nowSeconds(), body, secrets: [current] });
    const reserialised = JSON.stringify(JSON.parse(body), null, 1);
    expect(() => new Webhook(current).verify(reserialised, { ...headers })).toThrow();
  });

  it.each([
    ['an id with a dot', { id: 'msg.1' }],
    ['an id with a space', { id: 'msg 1' }],
    ['an empty id', { id: '' }],
    ['a fractional timestamp', { timestamp: 1.5 }],
    ['a negative timestamp', { timestamp: -1 }],
    ['no secrets', { secrets: [] }],
  ])('refuses %s', (_, override) => {
    const input = { id: 'msg_1', timestamp: 1_767_225_600, body, secrets: [current], ...override };
    expect(() => signWebhook(input)).toThrow(RangeError);
  });

  it('refuses a malformed secret', () => {
    expect(() => signWebhook({ id: 'msg_1', timestamp: 1, body, secrets: ['secret'] })).toThrow(InvalidWebhookSecretError);
  });
});
