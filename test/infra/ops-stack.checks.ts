import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_START_FAILED } from '../../media-service/src/server/media-runtime';
import { synthesizeTlsStage, TLS_STAGE, type SynthesizedService } from './synth';

let service: SynthesizedService;
let ops: Template;

type AlarmProps = Record<string, unknown> & { AlarmName: string; Metrics?: Array<Record<string, unknown>> };
const alarms = (): AlarmProps[] => Object.values(ops.findResources('AWS::CloudWatch::Alarm')).map((alarm) => alarm.Properties);
const alarm = (suffix: string): AlarmProps => {
  const found = alarms().find((props) => props.AlarmName === `voice-agent-test-${suffix}`);
  if (!found) throw new Error(`no alarm voice-agent-test-${suffix}`);
  return found;
};
/** The metric names an alarm reads (directly or inside metric math). */
const metricNames = (props: AlarmProps): string[] =>
  props.Metrics
    ? props.Metrics.flatMap((query) =>
        (query.MetricStat as { Metric?: { MetricName: string } })?.Metric
          ? [(query.MetricStat as { Metric: { MetricName: string } }).Metric.MetricName]
          : [],
      )
    : [props.MetricName as string];

beforeAll(() => {
  service = synthesizeTlsStage();
  ops = service.templates.ops;
});

describe('alarms', () => {
  it('watch the depth of every DLQ of every stack', () => {
    // Arrange
    const dlqNames = Object.values(service.templates)
      .flatMap((template) => Object.values(template.findResources('AWS::SQS::Queue')))
      .map((queue) => queue.Properties.QueueName as string)
      .filter((name) => name.endsWith('-dlq'));

    // Assert
    expect(dlqNames).toHaveLength(6);
    for (const name of dlqNames) {
      const props = alarm(`${name.replace(/^voice-agent-test-/, '')}-depth`);
      expect(props).toMatchObject({ MetricName: 'ApproximateNumberOfMessagesVisible', Namespace: 'AWS/SQS', Threshold: 1 });
    }
  });

  it('watch the API 5xx rate as a share of requests', () => {
    expect(metricNames(alarm('api-5xx-rate')).sort()).toEqual(['5xx', 'Count']);
    expect(alarm('api-5xx-rate').Threshold).toBe(1);
  });

  it('watch the webhook delivery failure rate', () => {
    expect(metricNames(alarm('webhook-failure-rate')).sort()).toEqual(['Errors', 'Invocations']);
  });

  it('watch knowledge documents given up after every ingestion retry (each invocation of the dead-letter function)', () => {
    expect(alarm('knowledge-documents-given-up')).toMatchObject({
      MetricName: 'Invocations',
      Namespace: 'AWS/Lambda',
      Statistic: 'Sum',
      Threshold: 1,
    });
  });

  it("watch the call sweeper's errors", () => {
    expect(alarm('sweeper-errors')).toMatchObject({ MetricName: 'Errors', Namespace: 'AWS/Lambda', Threshold: 3 });
  });
});

describe('alarms on the call engine', () => {
  it('watch calls ended with `error` from the engine metric (VoiceAgent / CallsEndedWithError / Stage)', () => {
    expect(alarm('calls-ended-with-error')).toMatchObject({
      Namespace: 'VoiceAgent',
      MetricName: 'CallsEndedWithError',
      Dimensions: [{ Name: 'Stage', Value: 'test' }],
      Statistic: 'Sum',
    });
  });

  it('watch media CPU and active calls per task above the scaling target', () => {
    expect(alarm('media-cpu')).toMatchObject({ Namespace: 'AWS/ECS', MetricName: 'CPUUtilization', Threshold: 80 });
    expect(alarm('media-active-calls')).toMatchObject({
      Namespace: 'VoiceAgent',
      MetricName: 'ActiveCalls',
      Statistic: 'Average',
      Threshold: Math.ceil(TLS_STAGE.media.targetActiveCallsPerTask * 1.2),
    });
  });

  it('watch media tasks that cannot start (a stage without Twilio credentials), counted from their log line', () => {
    // Arrange
    const filters = Object.values(service.templates.media.findResources('AWS::Logs::MetricFilter')).map((filter) => filter.Properties);
    // Assert
    expect(alarm('media-start-failed')).toMatchObject({
      Namespace: 'VoiceAgent',
      MetricName: 'MediaStartFailed',
      Dimensions: [{ Name: 'Stage', Value: 'test' }],
      Threshold: 1,
    });
    expect(filters).toContainEqual(
      expect.objectContaining({
        FilterPattern: `{ $.message = "${MEDIA_START_FAILED}" }`,
        MetricTransformations: [
          expect.objectContaining({
            MetricNamespace: 'VoiceAgent',
            MetricName: 'MediaStartFailed',
            MetricValue: '1',
            Dimensions: [{ Key: 'Stage', Value: '$.stage' }],
          }),
        ],
      }),
    );
  });

  it('all notify the alarm topic on alarm and on recovery, and never alarm on missing data', () => {
    for (const props of alarms()) {
      expect(props, props.AlarmName).toMatchObject({ TreatMissingData: 'notBreaching' });
      expect(JSON.stringify(props.AlarmActions)).toMatch(/"Ref":"Alarms/);
      expect(JSON.stringify(props.OKActions)).toMatch(/"Ref":"Alarms/);
    }
  });
});

describe('alarm topic and dashboard', () => {
  it('encrypts the topic with a rotating key CloudWatch may use, refuses plain HTTP and emails ops', () => {
    ops.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
    ops.hasResourceProperties('AWS::KMS::Key', {
      EnableKeyRotation: true,
      KeyPolicy: {
        Statement: Match.arrayWith([
          Match.objectLike({ Principal: { Service: 'cloudwatch.amazonaws.com' }, Action: ['kms:Decrypt', 'kms:GenerateDataKey*'] }),
        ]),
      },
    });
    ops.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
      },
    });
    ops.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: TLS_STAGE.alarmEmail });
  });

  it('has a dashboard for the stage', () => {
    ops.hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardName: 'voice-agent-test' });
  });
});
