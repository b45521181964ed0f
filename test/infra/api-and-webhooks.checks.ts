import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVENT_RULES } from '../../shared/events/rules';
import { logicalId, synthesizeTlsStage, TLS_STAGE } from './synth';

let api: Template;
let webhooks: Template;
let analysisFn: string;
let deliveryFn: string;
let bufferQueue: string;
let eventsDlq: string;

const lambdaEnv = (template: Template, id: string): Record<string, unknown> =>
  template.findResources('AWS::Lambda::Function')[id]!.Properties.Environment.Variables;

beforeAll(() => {
  const { templates } = synthesizeTlsStage();
  api = templates.api;
  webhooks = templates.webhooks;
  analysisFn = logicalId(webhooks, 'AWS::Lambda::Function', 'AnalysisFunction');
  deliveryFn = logicalId(webhooks, 'AWS::Lambda::Function', 'WebhookDeliveryFunction');
  bufferQueue = logicalId(webhooks, 'AWS::SQS::Queue', 'WebhookBufferQueue');
  eventsDlq = logicalId(webhooks, 'AWS::SQS::Queue', 'EventsDlq');
});

describe('the API function', () => {
  it('runs Node 24 on arm64 with JSON logs (request id on every line) and X-Ray tracing', () => {
    api.hasResourceProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      Timeout: 29,
      LoggingConfig: { LogFormat: 'JSON', ApplicationLogLevel: 'INFO', LogGroup: Match.anyValue() },
      TracingConfig: { Mode: 'Active' },
    });
  });

  it('gets exactly the environment the API reads', () => {
    api.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectEquals({
          TABLE_NAME: 'voice-agent-test',
          OUTBOUND_QUEUE_URL: Match.anyValue(),
          KNOWLEDGE_QUEUE_URL: Match.anyValue(),
          KNOWLEDGE_FUNCTION_NAME: Match.anyValue(),
          KMS_KEY_ID: Match.anyValue(),
          CURSOR_SECRET_ARN: Match.anyValue(),
          RECORDINGS_BUCKET: 'voice-agent-test-recordings-123456789012-eu-west-1',
          REQUIRE_HTTPS_URLS: 'true',
          ALLOW_PRIVATE_URLS: 'false',
          // The console's origin and the media service's web-call URL (test/infra/console.checks.ts).
          CONSOLE_ORIGIN: Match.anyValue(),
          WEB_CALL_URL: 'wss://voice.example.com/web/calls',
          POWERTOOLS_SERVICE_NAME: 'api',
          LOG_LEVEL: 'INFO',
          NODE_OPTIONS: '--enable-source-maps',
        }),
      },
    });
  });

  it('logs to its own log group with the stage retention', () => {
    api.hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: TLS_STAGE.logRetention });
  });
});

describe('the HTTP API', () => {
  it('sends every route to the function (payload v2) and has no other route', () => {
    api.resourceCountIs('AWS::ApiGatewayV2::Api', 1);
    api.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'HTTP' });
    api.resourceCountIs('AWS::ApiGatewayV2::Route', 1);
    api.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: '$default' });
    api.hasResourceProperties('AWS::ApiGatewayV2::Integration', { IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
  });

  it('throttles the stage as a backstop above one key (240/min = 4/s) and writes JSON access logs', () => {
    // Arrange
    const { rateLimit, burstLimit } = TLS_STAGE.api.throttle;

    // Assert
    expect(rateLimit).toBeGreaterThan(4);
    api.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: rateLimit, ThrottlingBurstLimit: burstLimit },
      AccessLogSettings: {
        DestinationArn: Match.anyValue(),
        Format: Match.serializedJson(Match.objectLike({ requestId: '$context.requestId', status: '$context.status' })),
      },
    });
  });

  it('outputs the API base URL', () => {
    api.hasOutput('ApiUrl', {
      Value: { 'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp('/api/v1$')])] },
    });
  });
});

describe('event rules (declared once in shared/events/rules.ts)', () => {
  it('creates exactly the declared rules, and the sweeper schedule', () => {
    webhooks.resourceCountIs('AWS::Events::Rule', EVENT_RULES.length + 1);
  });

  it('passes to the webhook queue only events whose assistant subscribed (detail.webhook = true)', () => {
    webhooks.hasResourceProperties('AWS::Events::Rule', {
      Name: 'voice-agent-test-call-events-to-webhooks',
      EventPattern: Match.objectLike({ detail: { webhook: [true] } }),
    });
  });

  it.each(EVENT_RULES.map((rule) => [rule.name, rule] as const))(
    '%s: same pattern, its consumer, a DLQ and 24 h of retries',
    (_name, rule) => {
      // Arrange
      const target = rule.target === 'analysis' ? analysisFn : bufferQueue;

      // Assert
      webhooks.hasResourceProperties('AWS::Events::Rule', {
        Name: `voice-agent-test-${rule.name}`,
        Description: rule.description,
        EventBusName: Match.anyValue(),
        EventPattern: {
          source: rule.pattern.source,
          'detail-type': rule.pattern['detail-type'],
          ...(rule.pattern.detail && { detail: rule.pattern.detail }),
        },
        Targets: [
          Match.objectLike({
            Arn: { 'Fn::GetAtt': [target, 'Arn'] },
            DeadLetterConfig: { Arn: { 'Fn::GetAtt': [eventsDlq, 'Arn'] } },
            RetryPolicy: { MaximumEventAgeInSeconds: 86_400, MaximumRetryAttempts: 185 },
          }),
        ],
      });
    },
  );
});

describe('the call sweeper', () => {
  it('runs every minute, one at a time, with the table, the bus, the outbound queue and the Twilio secret', () => {
    // Arrange
    const sweeperFn = logicalId(webhooks, 'AWS::Lambda::Function', 'SweeperFunction');
    // Assert
    webhooks.hasResourceProperties('AWS::Events::Rule', {
      Name: 'voice-agent-test-sweeper',
      ScheduleExpression: 'rate(1 minute)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [sweeperFn, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0 } })],
    });
    webhooks.hasResourceProperties('AWS::Lambda::Function', { Handler: Match.anyValue(), ReservedConcurrentExecutions: 1, Timeout: 50 });
    expect(webhooks.findResources('AWS::Lambda::Function')[sweeperFn]!.Properties.ReservedConcurrentExecutions).toBe(1);
    expect(lambdaEnv(webhooks, sweeperFn)).toEqual(
      expect.objectContaining({
        STAGE: 'test',
        TABLE_NAME: 'voice-agent-test',
        EVENT_BUS_NAME: expect.anything(),
        OUTBOUND_QUEUE_URL: expect.anything(),
        TWILIO_SECRET_ARN: expect.anything(),
      }),
    );
  });
});

describe('analysis', () => {
  it('reads the environment it needs and sends failed invocations to its DLQ after 2 retries', () => {
    expect(lambdaEnv(webhooks, analysisFn)).toEqual(
      expect.objectContaining({
        TABLE_NAME: 'voice-agent-test',
        EVENT_BUS_NAME: expect.anything(),
        OPENAI_SECRET_ARN: expect.anything(),
        KMS_KEY_ID: expect.anything(),
      }),
    );
    webhooks.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: analysisFn },
      MaximumRetryAttempts: 2,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [Match.stringLikeRegexp('^AnalysisDlq'), 'Arn'] } } },
    });
  });
});

describe('concurrency: one slow part cannot starve another', () => {
  it('reserves the API its own executions, and caps the analysis and the webhook deliveries', () => {
    api.hasResourceProperties('AWS::Lambda::Function', {
      Handler: 'index.handler',
      ReservedConcurrentExecutions: TLS_STAGE.concurrency.apiReserved,
    });
    expect(webhooks.findResources('AWS::Lambda::Function')[analysisFn]!.Properties.ReservedConcurrentExecutions).toBe(
      TLS_STAGE.concurrency.analysisMax,
    );
    webhooks.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: deliveryFn },
      ScalingConfig: { MaximumConcurrency: TLS_STAGE.concurrency.webhookDeliveryMax },
    });
  });
});

describe('webhook delivery', () => {
  it('consumes the buffer in small batches and reports partial failures', () => {
    webhooks.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [bufferQueue, 'Arn'] },
      FunctionName: { Ref: deliveryFn },
      BatchSize: 2,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('has a 30 s timeout and a buffer visibility timeout of at least 6x that', () => {
    // Arrange
    const fn = webhooks.findResources('AWS::Lambda::Function')[deliveryFn]!.Properties;
    const queue = webhooks.findResources('AWS::SQS::Queue')[bufferQueue]!.Properties;

    // Assert
    expect(fn.Timeout).toBe(30);
    expect(queue.VisibilityTimeout).toBeGreaterThanOrEqual(6 * fn.Timeout);
    expect(queue.RedrivePolicy).toEqual({ deadLetterTargetArn: expect.anything(), maxReceiveCount: 5 });
  });

  it('reads the environment it needs (it re-sends delayed messages to its own queue)', () => {
    expect(lambdaEnv(webhooks, deliveryFn)).toEqual(
      expect.objectContaining({
        TABLE_NAME: 'voice-agent-test',
        WEBHOOK_QUEUE_URL: { Ref: bufferQueue },
        KMS_KEY_ID: expect.anything(),
        RECORDINGS_BUCKET: 'voice-agent-test-recordings-123456789012-eu-west-1',
      }),
    );
  });
});

describe('queues', () => {
  it('every queue is encrypted and refuses non-TLS requests', () => {
    const queues = Object.entries(webhooks.findResources('AWS::SQS::Queue'));
    const policies = Object.values(webhooks.findResources('AWS::SQS::QueuePolicy'));
    for (const [id, queue] of queues) {
      expect(queue.Properties.SqsManagedSseEnabled, id).toBe(true);
      const policy = policies.find((p) => JSON.stringify(p.Properties.Queues).includes(id));
      expect(JSON.stringify(policy?.Properties.PolicyDocument), id).toContain('"aws:SecureTransport":"false"');
    }
  });
});

describe('knowledge ingestion', () => {
  // The queue's logical id (its DLQ's starts the same way).
  const ingestQueueId = () =>
    Object.keys(api.findResources('AWS::SQS::Queue')).find((id) => id.startsWith('KnowledgeIngestQueue') && !id.includes('Dlq'))!;

  it('takes one document per invocation, at most five at once, and reports partial failures', () => {
    // Arrange
    const ingestFn = logicalId(api, 'AWS::Lambda::Function', 'KnowledgeIngestFunction');
    const ingestQueue = ingestQueueId();

    // Assert: a batch's records run in series, so a batch of one is what keeps a slow document from
    // holding up another business's batch-mate.
    api.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [ingestQueue, 'Arn'] },
      FunctionName: { Ref: ingestFn },
      BatchSize: 1,
      ScalingConfig: { MaximumConcurrency: 5 },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it("gives the ingestion function what delays a failed document's retry (the queue URL and ChangeMessageVisibility)", () => {
    // Arrange
    const ingestFn = logicalId(api, 'AWS::Lambda::Function', 'KnowledgeIngestFunction');

    // Assert
    expect(lambdaEnv(api, ingestFn).KNOWLEDGE_QUEUE_URL).toEqual({ Ref: ingestQueueId() });
    const statements = Object.values(api.findResources('AWS::IAM::Policy'))
      .filter((policy) => JSON.stringify(policy.Properties.Roles).includes('KnowledgeIngestFunction'))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown }>);
    const onQueue = statements.find((statement) => JSON.stringify(statement.Resource).includes(ingestQueueId()));
    expect(onQueue?.Action).toContain('sqs:ChangeMessageVisibility');
  });

  it('consumes the DLQ with a function of its own that reads the table only (no OpenAI secret)', () => {
    // Arrange
    const dlq = Object.keys(api.findResources('AWS::SQS::Queue')).find((id) => id.startsWith('KnowledgeIngestQueueDlq'))!;
    const deadLetterFn = logicalId(api, 'AWS::Lambda::Function', 'KnowledgeDeadLettersFunction');

    // Assert
    api.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [dlq, 'Arn'] },
      FunctionName: { Ref: deadLetterFn },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(Object.keys(lambdaEnv(api, deadLetterFn)).sort()).toEqual(expect.arrayContaining(['POWERTOOLS_SERVICE_NAME', 'TABLE_NAME']));
    expect(lambdaEnv(api, deadLetterFn)).not.toHaveProperty('OPENAI_SECRET_ARN');
    const policies = Object.values(api.findResources('AWS::IAM::Policy')).filter((policy) =>
      JSON.stringify(policy.Properties.Roles).includes('KnowledgeDeadLettersFunction'),
    );
    expect(JSON.stringify(policies)).not.toContain('secretsmanager');
  });

  it('is a standard queue (an SQS fair queue once its messages carry a MessageGroupId), not FIFO', () => {
    // Arrange
    const queue = api.findResources('AWS::SQS::Queue')[ingestQueueId()]!.Properties;

    // Assert
    expect(queue.FifoQueue).toBeUndefined();
  });
});
