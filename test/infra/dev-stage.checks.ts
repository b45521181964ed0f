import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadStageConfig } from '../../infra/config';
import { render, synthesize, type SynthesizedService } from './synth';

let service: SynthesizedService;

beforeAll(() => {
  // dev as `npm run synth` sees it offline: no certificate, no account (environment-agnostic).
  service = synthesize(loadStageConfig('dev', {}, { CDK_DEFAULT_REGION: 'us-east-1' }));
});

describe('dev stage without a certificate', () => {
  it('synthesizes account-agnostic with no cdk-nag finding', () => {
    expect(service.stacks.data.account).toMatch(/^\$\{Token/);
    expect(new AwsSolutionsChecks(service.app).validateScope(service.app).violations).toEqual([]);
  });

  it('serves plain HTTP only, says Twilio cannot use it, and points PUBLIC_BASE_URL at the ALB', () => {
    const media = service.templates.media;
    media.resourceCountIs('AWS::ElasticLoadBalancingV2::Listener', 1);
    media.hasResourceProperties('AWS::ElasticLoadBalancingV2::Listener', { Port: 80, Protocol: 'HTTP' });
    Annotations.fromStack(service.stacks.media).hasWarning('*', Match.stringLikeRegexp('Twilio cannot call it'));
    media.hasOutput('MediaUrl', { Value: { 'Fn::Join': ['', ['http://', Match.anyValue()]] } });
  });

  it('hands out ws://<alb>/web/calls for web calls; the console (https) cannot open ws://, so neither its CSP nor the media tasks name it', () => {
    // Arrange
    const api = service.templates.api;
    const fn = Object.values(api.findResources('AWS::Lambda::Function')).find((f) =>
      String(f.Properties.Description).startsWith('Public REST API'),
    )!;
    const policy = Object.values(api.findResources('AWS::CloudFront::ResponseHeadersPolicy')).find(
      (p) => p.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy,
    )!;
    const csp = render(policy.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy);
    const container = Object.values(service.templates.media.findResources('AWS::ECS::TaskDefinition'))[0]!.Properties
      .ContainerDefinitions[0] as { Environment: Array<{ Name: string }> };

    // Assert
    expect(render(fn.Properties.Environment.Variables.WEB_CALL_URL)).toMatch(/^ws:\/\/<import VoiceAgent-dev-Media:\S+>\/web\/calls$/);
    expect(csp).toMatch(/connect-src 'self' <HttpApi\w+\.ApiEndpoint>; /);
    expect(csp).not.toMatch(/wss?:/);
    expect(container.Environment.map((entry) => entry.Name)).not.toContain('CONSOLE_ORIGIN');
  });

  it('names the recordings bucket from pseudo parameters', () => {
    service.templates.data.hasResourceProperties('AWS::S3::Bucket', {
      BucketName: { 'Fn::Join': ['', ['voice-agent-dev-recordings-', { Ref: 'AWS::AccountId' }, '-us-east-1']] },
    });
  });

  it('can be torn down: data is not retained and the table is not deletion-protected', () => {
    const data = service.templates.data;
    data.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Delete',
      Properties: Match.objectLike({ DeletionProtectionEnabled: false }),
    });
    data.hasResource('AWS::S3::Bucket', { DeletionPolicy: 'Delete' });
  });
});
