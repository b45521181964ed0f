import { describe, expect, it } from 'vitest';
import { hasTls, loadStageConfig, StageConfigError, STAGES, validateStageConfig } from '../../infra/config';

const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/abc';

describe('loadStageConfig', () => {
  it('builds dev without a certificate, in the CLI region, account-agnostic when none is known', () => {
    // Act
    const config = loadStageConfig('dev', {}, { CDK_DEFAULT_REGION: 'eu-central-1' });

    // Assert
    expect(config.stage).toBe('dev');
    expect(config.env).toEqual({ account: undefined, region: 'eu-central-1' });
    expect(hasTls(config)).toBe(false);
  });
});

describe('loadStageConfig overrides and refusals', () => {
  it('refuses prod without a domain and certificate (Twilio only calls https/wss)', () => {
    expect(() => loadStageConfig('prod', {}, {})).toThrow(StageConfigError);
    expect(() => loadStageConfig('prod', {}, {})).toThrow(/certificateArn are required outside dev/);
  });

  it('applies command-line overrides for the media domain, hosted zone and alarm email', () => {
    // Act
    const config = loadStageConfig(
      'prod',
      {
        domainName: 'voice.example.com',
        certificateArn: CERT,
        hostedZoneId: 'Z1',
        hostedZoneName: 'example.com',
        alarmEmail: 'ops@example.com',
        emailDomain: 'mail.example.com',
      },
      { CDK_DEFAULT_ACCOUNT: '123456789012' },
    );

    // Assert
    expect(hasTls(config)).toBe(true);
    expect(config.media.hostedZone).toEqual({ id: 'Z1', name: 'example.com' });
    expect(config.alarmEmail).toBe('ops@example.com');
    expect(config.emailDomain).toBe('mail.example.com');
    expect(config.env.account).toBe('123456789012');
  });

  it('refuses prod without an email domain (the assistants email from it), and a malformed one anywhere', () => {
    const media = { domainName: 'voice.example.com', certificateArn: CERT };
    expect(() => loadStageConfig('prod', media, {})).toThrow(/emailDomain is required outside dev/);
    expect(() => loadStageConfig('dev', { emailDomain: 'not a domain' }, {})).toThrow(/emailDomain: a domain name/);
    expect(loadStageConfig('dev', {}, {}).emailDomain).toBeUndefined();
  });

  it.each([
    ['a domain without a certificate', { domainName: 'voice.example.com' }, /go together/],
    ['a certificate without a domain', { certificateArn: CERT }, /go together/],
  ])('refuses %s', (_name, overrides, message) => {
    expect(() => loadStageConfig('dev', overrides, {})).toThrow(message);
  });

  it('refuses an unknown stage and names the known ones', () => {
    expect(() => loadStageConfig('staging', {}, {})).toThrow(/Known stages: dev, prod/);
  });
});

describe('STAGES', () => {
  it.each(Object.entries(STAGES))('%s throttles above one key (240/min) and scales within bounds', (_name, stage) => {
    expect(stage.api.throttle.rateLimit).toBeGreaterThan(240 / 60);
    expect(stage.api.throttle.burstLimit).toBeGreaterThanOrEqual(stage.api.throttle.rateLimit);
    expect(stage.media.desiredTasks).toBeGreaterThanOrEqual(1);
    expect(stage.media.maxTasks).toBeGreaterThanOrEqual(stage.media.desiredTasks);
    expect(stage.media.targetActiveCallsPerTask).toBeGreaterThan(0);
    expect(stage.media.targetActiveCallsPerTask).toBeLessThan(stage.media.maxCallsPerTask);
  });

  it('sizes prod for 1,000 concurrent calls with headroom: at the scaling target, and twice over at the per-task cap', () => {
    const { maxTasks, targetActiveCallsPerTask, maxCallsPerTask } = STAGES.prod!.media;
    expect(maxTasks * targetActiveCallsPerTask).toBeGreaterThanOrEqual(1_500);
    expect(maxTasks * maxCallsPerTask).toBeGreaterThanOrEqual(2_000);
  });

  it('refuses a scaling target at or above the per-task cap (tasks would fill before the fleet grows)', () => {
    const prod = loadStageConfig('prod', { domainName: 'voice.example.com', certificateArn: CERT, emailDomain: 'mail.example.com' });
    expect(() => validateStageConfig({ ...prod, media: { ...prod.media, targetActiveCallsPerTask: 60 } })).toThrow(
      /targetActiveCallsPerTask < maxCallsPerTask/,
    );
  });
});
