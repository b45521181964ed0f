import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../shared/config';
import { readMediaConfig } from '../../../media-service/src/config';
import { newSandboxAuthToken } from '../../../media-service/src/sandbox/carrier';
import { paymentsTarget } from '../../../media-service/src/server/providers';

/** What infra sets on a deployed stage, with the Twilio secret still empty (as the data stack creates it). */
const DEPLOYED = {
  PUBLIC_BASE_URL: 'https://media.example.com',
  TABLE_NAME: 't',
  OUTBOUND_QUEUE_URL: 'https://sqs.example.com/q',
  KMS_KEY_ID: 'k',
  STREAM_TOKEN_SECRET: 'x'.repeat(32),
  TWILIO_ACCOUNT_SID: '',
  TWILIO_AUTH_TOKEN: '',
};

describe('media configuration: the console origin', () => {
  it('reads CONSOLE_ORIGIN as a comma-separated list of origins, none when unset', () => {
    const deployed = { ...DEPLOYED, SANDBOX_CARRIER: 'true' };
    expect(readMediaConfig(deployed).CONSOLE_ORIGIN).toEqual([]);
    expect(readMediaConfig({ ...deployed, CONSOLE_ORIGIN: ' http://localhost:3000, http://127.0.0.1:3000 ' }).CONSOLE_ORIGIN).toEqual([
      'http://localhost:3000',
      'http://127.0.0.1:3000',
    ]);
  });

  it.each(['localhost:3000', 'https://console.example.com/app', 'ftp://x.example.com'])('refuses %j (not an origin)', (origin) => {
    expect(() => readMediaConfig({ ...DEPLOYED, SANDBOX_CARRIER: 'true', CONSOLE_ORIGIN: origin })).toThrow(
      /CONSOLE_ORIGIN must be origins/,
    );
  });
});

describe('media configuration: the carrier', () => {
  it('refuses to start a stage without Twilio credentials, saying what to fill in, instead of falling back to the sandbox', () => {
    // Act
    const error = (() => {
      try {
        return readMediaConfig(DEPLOYED);
      } catch (e) {
        return e;
      }
    })();
    // Assert
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN are empty');
    expect((error as Error).message).toContain('voice-agent/<stage>/twilio');
  });

  it('runs the sandbox carrier only when SANDBOX_CARRIER=true, and never together with Twilio credentials', () => {
    // Act
    const sandbox = readMediaConfig({ ...DEPLOYED, SANDBOX_CARRIER: 'true' });
    const twilio = readMediaConfig({ ...DEPLOYED, TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 'tok' });
    // Assert
    expect(sandbox.SANDBOX_CARRIER).toBe(true);
    expect(twilio.SANDBOX_CARRIER).toBe(false);
    expect(() => readMediaConfig({ ...DEPLOYED, SANDBOX_CARRIER: 'true', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 'tok' })).toThrow(
      /choose one carrier/,
    );
    expect(() => readMediaConfig({ ...DEPLOYED, TWILIO_ACCOUNT_SID: 'AC1' })).toThrow(/must be set together/);
  });

  it('reads the sender address and SES settings; a deployed stage without an address still starts (email then refuses)', () => {
    // Arrange
    const deployed = { ...DEPLOYED, SANDBOX_CARRIER: 'true', STAGE: 'dev' };
    // Act
    const unset = readMediaConfig(deployed);
    const set = readMediaConfig({ ...deployed, EMAIL_FROM_ADDRESS: 'assistant@mail.example.com', SES_REGION: 'eu-west-1' });
    // Assert
    expect(unset.EMAIL_FROM_ADDRESS).toBeUndefined();
    expect(set).toMatchObject({ EMAIL_FROM_ADDRESS: 'assistant@mail.example.com', SES_REGION: 'eu-west-1', SES_ENDPOINT: undefined });
  });

  it('gives every sandbox carrier a random auth token, not a constant', () => {
    // Act
    const tokens = new Set(Array.from({ length: 20 }, () => newSandboxAuthToken()));
    // Assert
    expect(tokens.size).toBe(20);
    for (const token of tokens) expect(token).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('media configuration: the admission cap', () => {
  it('takes 60 calls per task unless MEDIA_MAX_CALLS says otherwise, and refuses a cap below 1 or not a number', () => {
    // Arrange
    const base = { ...DEPLOYED, SANDBOX_CARRIER: 'true' };
    // Act / Assert
    expect(readMediaConfig(base).MEDIA_MAX_CALLS).toBe(60);
    expect(readMediaConfig({ ...base, MEDIA_MAX_CALLS: '25' }).MEDIA_MAX_CALLS).toBe(25);
    for (const bad of ['0', '-1', 'many', '1.5'])
      expect(() => readMediaConfig({ ...base, MEDIA_MAX_CALLS: bad })).toThrow(/MEDIA_MAX_CALLS/);
  });
});

describe('media configuration: payment links', () => {
  const twilio = { ...DEPLOYED, TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 'tok' };

  it.each([
    ['a deployed stage: Stripe, no fallback key', {}, {}],
    ['a Stripe override', { STRIPE_API_URL: 'https://stripe.internal:8443' }, { host: 'stripe.internal', port: 8443, protocol: 'https' }],
    [
      'the local stack: the sandbox already running, with its test key',
      { SANDBOX_PAYMENTS: 'true', STRIPE_API_URL: 'http://127.0.0.1:4111' },
      { host: '127.0.0.1', port: 4111, protocol: 'http', fallbackKey: 'sk_test_sandbox_local' },
    ],
  ])('points the Stripe SDK for %s', (_case, env, target) => {
    expect(paymentsTarget(readMediaConfig({ ...twilio, ...env }))).toEqual(target);
  });

  it('never sends the sandbox key to Stripe: SANDBOX_PAYMENTS without a sandbox to point at is refused', () => {
    expect(() => paymentsTarget(readMediaConfig({ ...twilio, SANDBOX_PAYMENTS: 'true' }))).toThrow(
      /SANDBOX_PAYMENTS needs the sandbox payment server/,
    );
  });

  it('never sends the sandbox key off this machine: SANDBOX_PAYMENTS with a STRIPE_API_URL that is not loopback is refused', () => {
    for (const url of ['https://api.stripe.com', 'http://10.0.0.5:4111', 'http://127.0.0.1.nip.io:4111']) {
      expect(() => paymentsTarget(readMediaConfig({ ...twilio, SANDBOX_PAYMENTS: 'true', STRIPE_API_URL: url }))).toThrow(
        /STRIPE_API_URL must be a sandbox on this machine/,
      );
    }
    expect(paymentsTarget(readMediaConfig({ ...twilio, SANDBOX_PAYMENTS: 'true', STRIPE_API_URL: 'http://[::1]:4111' }))).toMatchObject({
      fallbackKey: 'sk_test_sandbox_local',
    });
  });

  it('refuses a STRIPE_API_URL that is not an origin', () => {
    expect(() => readMediaConfig({ ...twilio, STRIPE_API_URL: 'https://api.stripe.com/v1/checkout' })).toThrow(/STRIPE_API_URL/);
  });
});
