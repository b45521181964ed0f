import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ALB_IDLE_TIMEOUT_S,
  MAX_CALL_DURATION_S,
  MEDIA_DEREGISTRATION_DELAY_S,
  OUTBOUND_AGE_SCALE_OUT_FAST_S,
  OUTBOUND_AGE_SCALE_OUT_S,
} from '../../infra/constants';
import { WAIT_AT_CAP } from '../../media-service/src/calls/outbound-consumer';
import { REPO_ROOT } from '../../infra/paths';
import { synthesizeTlsStage, TLS_STAGE, type SynthesizedService } from './synth';

let service: SynthesizedService;
let media: Template;

type Container = { Environment: Array<{ Name: string; Value: unknown }>; Secrets: Array<{ Name: string }>; [key: string]: unknown };
const container = (): Container =>
  Object.values(media.findResources('AWS::ECS::TaskDefinition'))[0]!.Properties.ContainerDefinitions[0] as Container;

beforeAll(() => {
  service = synthesizeTlsStage();
  media = service.templates.media;
});

describe('load balancer', () => {
  it('is internet-facing with an idle timeout above the longest call (3600 s), within the ALB max, and access logs', () => {
    expect(ALB_IDLE_TIMEOUT_S).toBeGreaterThan(MAX_CALL_DURATION_S);
    expect(ALB_IDLE_TIMEOUT_S).toBeLessThanOrEqual(4000);
    media.hasResourceProperties('AWS::ElasticLoadBalancingV2::LoadBalancer', {
      Scheme: 'internet-facing',
      LoadBalancerAttributes: Match.arrayWith([
        { Key: 'idle_timeout.timeout_seconds', Value: '4000' },
        { Key: 'routing.http.drop_invalid_header_fields.enabled', Value: 'true' },
        { Key: 'access_logs.s3.enabled', Value: 'true' },
      ]),
    });
  });

  it('has one listener: HTTPS 443 with the stage certificate and a TLS 1.2+ policy', () => {
    media.resourceCountIs('AWS::ElasticLoadBalancingV2::Listener', 1);
    media.hasResourceProperties('AWS::ElasticLoadBalancingV2::Listener', {
      Port: 443,
      Protocol: 'HTTPS',
      Certificates: [{ CertificateArn: TLS_STAGE.media.certificateArn }],
      SslPolicy: Match.stringLikeRegexp('^ELBSecurityPolicy-TLS13-1-2'),
    });
  });
});

describe('network access', () => {
  it('admits only 443 from the internet and only the ALB into the tasks on 8080', () => {
    const groups = Object.values(media.findResources('AWS::EC2::SecurityGroup'));
    const inline = groups.flatMap((group) => (group.Properties.SecurityGroupIngress ?? []) as Array<Record<string, unknown>>);
    expect(inline).toEqual([expect.objectContaining({ CidrIp: '0.0.0.0/0', FromPort: 443, ToPort: 443 })]);
    media.hasResourceProperties('AWS::EC2::SecurityGroupIngress', {
      FromPort: 8080,
      ToPort: 8080,
      SourceSecurityGroupId: { 'Fn::GetAtt': [Match.stringLikeRegexp('^LoadBalancerSecurityGroup'), 'GroupId'] },
    });
  });

  it('health-checks GET /health and lets leaving tasks finish their calls (deregistration delay 3600 s)', () => {
    media.hasResourceProperties('AWS::ElasticLoadBalancingV2::TargetGroup', {
      Port: 8080,
      TargetType: 'ip',
      HealthCheckPath: '/health',
      TargetGroupAttributes: Match.arrayWith([{ Key: 'deregistration_delay.timeout_seconds', Value: '3600' }]),
    });
  });
});

describe('public URL', () => {
  it('aliases the media domain to the ALB and outputs the media URL', () => {
    media.hasResourceProperties('AWS::Route53::RecordSet', { Name: 'voice.example.com.', Type: 'A' });
    media.hasOutput('MediaUrl', { Value: 'https://voice.example.com' });
  });
});

describe('task', () => {
  it('runs arm64 with a 120 s stop timeout, port 8080, a container health check and JSON-ready logs', () => {
    media.hasResourceProperties('AWS::ECS::TaskDefinition', {
      RuntimePlatform: { CpuArchitecture: 'ARM64', OperatingSystemFamily: 'LINUX' },
      RequiresCompatibilities: ['FARGATE'],
    });
    expect(container()).toMatchObject({
      StopTimeout: 120,
      PortMappings: [expect.objectContaining({ ContainerPort: 8080 })],
      HealthCheck: { Command: ['CMD-SHELL', expect.stringContaining('/health')] },
      LogConfiguration: { LogDriver: 'awslogs', Options: expect.objectContaining({ mode: 'non-blocking' }) },
    });
  });

  it('gets the environment the engine reads, and no credential as plain environment', () => {
    // Arrange
    const env = Object.fromEntries(container().Environment.map((entry) => [entry.Name, entry.Value]));

    // Assert
    expect(env).toMatchObject({
      PORT: '8080',
      TABLE_NAME: 'voice-agent-test',
      PUBLIC_BASE_URL: 'https://voice.example.com',
      STAGE: 'test',
      EMAIL_FROM_ADDRESS: 'assistant@mail.example.com',
      POWERTOOLS_SERVICE_NAME: 'media',
      LOG_LEVEL: 'INFO',
    });
    for (const name of ['OUTBOUND_QUEUE_URL', 'EVENT_BUS_NAME', 'RECORDINGS_BUCKET', 'KMS_KEY_ID']) expect(env).toHaveProperty(name);
    expect(Object.keys(env).filter((name) => /TOKEN|SECRET|API_KEY|AUTH/.test(name))).toEqual([]);
    // A deployed task never runs the sandbox carrier: without Twilio credentials it does not start.
    expect(env).not.toHaveProperty('SANDBOX_CARRIER');
  });

  it('creates the SES domain identity of the stage email domain (Easy DKIM, 2048-bit) and outputs its DKIM records', () => {
    media.hasResourceProperties('AWS::SES::EmailIdentity', {
      EmailIdentity: 'mail.example.com',
      DkimAttributes: { SigningEnabled: true },
      DkimSigningAttributes: { NextSigningKeyLength: 'RSA_2048_BIT' },
    });
    const outputs = Object.keys(media.findOutputs('*'));
    expect(outputs.filter((name) => name.startsWith('EmailDkimRecord'))).toEqual([
      'EmailDkimRecord1',
      'EmailDkimRecord2',
      'EmailDkimRecord3',
    ]);
  });

  it('injects provider credentials from Secrets Manager', () => {
    expect(
      container()
        .Secrets.map((secret) => secret.Name)
        .sort(),
    ).toEqual(['DEEPGRAM_API_KEY', 'OPENAI_API_KEY', 'STREAM_TOKEN_SECRET', 'TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN']);
  });
});

describe('image', () => {
  it('builds the image from media-service/Dockerfile for arm64 with a filtered context', () => {
    // Arrange
    const assembly = service.app.synth();
    const manifest = JSON.parse(readFileSync(join(assembly.directory, `${service.stacks.media.artifactId}.assets.json`), 'utf8'));
    const image = Object.values(manifest.dockerImages as Record<string, { source: Record<string, string> }>)[0]!.source;
    const context = join(assembly.directory, image.directory!);

    // Assert
    expect(image).toMatchObject({ dockerFile: 'media-service/Dockerfile', platform: 'linux/arm64' });
    expect(existsSync(join(context, 'media-service/Dockerfile'))).toBe(true);
    expect(existsSync(join(context, 'package-lock.json'))).toBe(true);
    for (const excluded of ['node_modules', 'functions', 'infra', 'test', '.git'])
      expect(existsSync(join(context, excluded)), excluded).toBe(false);
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync(join(REPO_ROOT, 'media-service/Dockerfile'), 'utf8');
  const stages = dockerfile.split(/^FROM /m).slice(1);

  it('is multi-stage: node:24 builds the esbuild bundle, node:24-slim runs it', () => {
    expect(stages).toHaveLength(2);
    expect(stages[0]).toMatch(/^--platform=\$BUILDPLATFORM node:24 AS build/);
    expect(stages[0]).toContain('npm ci');
    expect(stages[0]).toContain('esbuild media-service/src/main.ts');
    expect(stages[1]).toMatch(/^node:24-slim/);
  });

  it('runs as a non-root user and copies only the bundle into the runtime image', () => {
    expect(stages[1]).toMatch(/^USER node$/m);
    expect(stages[1]).not.toMatch(/^USER root/m);
    expect(stages[1]!.match(/^COPY .*/gm)).toEqual(['COPY --from=build /out/ ./']);
  });
});

describe('service and scaling', () => {
  it('runs in private subnets without public IPs and rolls back failed deployments', () => {
    media.hasResourceProperties('AWS::ECS::Service', {
      LaunchType: 'FARGATE',
      NetworkConfiguration: { AwsvpcConfiguration: Match.objectLike({ AssignPublicIp: 'DISABLED' }) },
      DeploymentConfiguration: Match.objectLike({ DeploymentCircuitBreaker: { Enable: true, Rollback: true }, MinimumHealthyPercent: 100 }),
    });
    media.hasResourceProperties('AWS::ECS::Cluster', { ClusterSettings: [{ Name: 'containerInsights', Value: 'enhanced' }] });
  });

  it('tracks the average ActiveCalls per task (VoiceAgent namespace, Stage dimension) between the stage bounds', () => {
    media.hasResourceProperties('AWS::ApplicationAutoScaling::ScalableTarget', {
      MinCapacity: TLS_STAGE.media.desiredTasks,
      MaxCapacity: TLS_STAGE.media.maxTasks,
    });
    media.hasResourceProperties('AWS::ApplicationAutoScaling::ScalingPolicy', {
      TargetTrackingScalingPolicyConfiguration: Match.objectLike({
        TargetValue: TLS_STAGE.media.targetActiveCallsPerTask,
        CustomizedMetricSpecification: {
          Namespace: 'VoiceAgent',
          MetricName: 'ActiveCalls',
          Dimensions: [{ Name: 'Stage', Value: 'test' }],
          Statistic: 'Average',
        },
      }),
    });
  });

  it('scales on nothing but active calls and the outbound queue: no CPU policy (Node saturates one of two vCPUs at 50 %)', () => {
    const policies = Object.values(media.findResources('AWS::ApplicationAutoScaling::ScalingPolicy'));
    expect(policies.map((policy) => policy.Properties.PolicyType).sort()).toEqual(['StepScaling', 'TargetTrackingScaling']);
    expect(JSON.stringify(policies)).not.toContain('CPUUtilization');
  });

  it('adds 2 tasks when the oldest queued outbound call is 120 s old for 2 minutes, 4 past 300 s', () => {
    // Arrange
    const alarms = Object.values(media.findResources('AWS::CloudWatch::Alarm')).filter(
      (alarm) => alarm.Properties.MetricName === 'ApproximateAgeOfOldestMessage',
    );
    // Assert
    // Twice the longest wait of a call deferred at its business's cap: older means no task is receiving.
    expect(OUTBOUND_AGE_SCALE_OUT_S).toBeGreaterThanOrEqual((2 * WAIT_AT_CAP.capMs) / 1000);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]!.Properties).toMatchObject({
      Namespace: 'AWS/SQS',
      Statistic: 'Maximum',
      Period: 60,
      Threshold: OUTBOUND_AGE_SCALE_OUT_S,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 2,
      DatapointsToAlarm: 2,
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::ImportValue': expect.stringMatching(/OutboundCallsQueue/) } }],
    });
    media.hasResourceProperties('AWS::ApplicationAutoScaling::ScalingPolicy', {
      PolicyType: 'StepScaling',
      StepScalingPolicyConfiguration: {
        AdjustmentType: 'ChangeInCapacity',
        Cooldown: 120,
        MetricAggregationType: 'Maximum',
        StepAdjustments: [
          {
            MetricIntervalLowerBound: 0,
            MetricIntervalUpperBound: OUTBOUND_AGE_SCALE_OUT_FAST_S - OUTBOUND_AGE_SCALE_OUT_S,
            ScalingAdjustment: 2,
          },
          { MetricIntervalLowerBound: OUTBOUND_AGE_SCALE_OUT_FAST_S - OUTBOUND_AGE_SCALE_OUT_S, ScalingAdjustment: 4 },
        ],
      },
    });
  });

  it('caps each task at the stage cap and drains inside the stop timeout, after the load balancer has let calls end', () => {
    // Arrange
    const env = Object.fromEntries(container().Environment.map((entry) => [entry.Name, entry.Value]));
    // Assert
    expect(env).toMatchObject({ MEDIA_MAX_CALLS: '60', DRAIN_TIMEOUT_MS: '100000' });
    expect(TLS_STAGE.media.targetActiveCallsPerTask).toBeLessThan(TLS_STAGE.media.maxCallsPerTask);
    expect(Number(env.DRAIN_TIMEOUT_MS) / 1000 + 20).toBeLessThanOrEqual(container().StopTimeout as number);
    expect(MEDIA_DEREGISTRATION_DELAY_S).toBeGreaterThanOrEqual(MAX_CALL_DURATION_S);
  });

  it('logs VPC flows', () => {
    media.hasResourceProperties('AWS::EC2::FlowLog', { ResourceType: 'VPC', TrafficType: 'ALL' });
  });
});
