import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadStageConfig } from '../../infra/config';
import { synthesize, type SynthesizedService } from './synth';

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
