import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, LogGroupLogDestination, PayloadFormatVersion, type HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { hasTls, type StageConfig } from '../config';
import { API_FUNCTION_TIMEOUT_S, WEB_CALL_PATH } from '../constants';
import { ConsoleSite } from '../constructs/console-site';
import { KnowledgeDeadLetters } from '../constructs/knowledge-dead-letters';
import { KnowledgeIngest } from '../constructs/knowledge-ingest';
import { NodeFunction } from '../constructs/node-function';
import { acknowledge } from '../nag';
import { recordingsBucketName, stageNames } from '../stage-names';
import type { DataStack } from './data-stack';

/** Props of the API stack. */
export interface ApiStackProps extends StackProps {
  readonly config: StageConfig;
  readonly data: DataStack;
  /**
   * The media service's public WebSocket base (`wss://voice.example.com`; `ws://<alb>` without
   * TLS): the API hands out `<it>/web/calls` for web calls, and on a TLS stage the console may
   * connect to it.
   */
  readonly mediaWebSocketUrl: string;
}

/** One JSON line per request; `requestId` is the id the API puts in 500 bodies and its logs. */
const ACCESS_LOG_FORMAT = JSON.stringify({
  requestId: '$context.requestId',
  ip: '$context.identity.sourceIp',
  requestTime: '$context.requestTime',
  method: '$context.httpMethod',
  path: '$context.path',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
  userAgent: '$context.identity.userAgent',
});

/**
 * The public REST API: an HTTP API (API Gateway v2) whose `$default` route sends every request
 * to the Hono app on Lambda. Authentication (Bearer API keys) and the strict per-key rate limit
 * are the app's; the stage throttle is only a backstop for the whole API.
 *
 * The web console is hosted here too. The console's Content-Security-Policy and config.json need
 * the API's URL, and the API function needs the console's origin (CONSOLE_ORIGIN, for CORS): in
 * two stacks that is a cycle; in one, CloudFormation orders the resources itself (the HTTP API,
 * then the distribution, then the function). docs/decisions.md "The console is hosted in the API stack".
 */
export class ApiStack extends Stack {
  readonly api: NodeFunction;
  /** Knowledge-base ingestion: the queue the API sends documents to, and its consumer function. */
  readonly knowledgeIngest: KnowledgeIngest;
  /** Marks documents failed whose ingestion messages were dead-lettered. */
  readonly knowledgeDeadLetters: KnowledgeDeadLetters;
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;
  /** Base URL of the public API (`.../api/v1`). */
  readonly apiUrl: string;
  /** The web console: S3 behind CloudFront. */
  readonly console: ConsoleSite;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { config } = props;
    const removalPolicy = config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    this.knowledgeIngest = new KnowledgeIngest(this, 'KnowledgeIngest', {
      queueName: `${stageNames(config.stage).prefix}-knowledge-ingest`,
      tableName: stageNames(config.stage).tableName,
      openAiSecret: props.data.secrets.openai,
      logRetention: config.logRetention,
      removalPolicy,
    });
    this.knowledgeDeadLetters = new KnowledgeDeadLetters(this, 'KnowledgeDeadLetters', {
      dlq: this.knowledgeIngest.queue.dlq,
      tableName: stageNames(config.stage).tableName,
      logRetention: config.logRetention,
      removalPolicy,
    });
    this.api = this.createFunction(props, removalPolicy);
    this.httpApi = new HttpApi(this, 'HttpApi', {
      apiName: `${stageNames(config.stage).prefix}-api`,
      description: 'Voice agent REST API',
      createDefaultStage: false,
      defaultIntegration: new HttpLambdaIntegration('Hono', this.api.fn, {
        payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
      }),
    });
    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: config.logRetention, removalPolicy });
    this.stage = this.httpApi.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: config.api.throttle.rateLimit, burstLimit: config.api.throttle.burstLimit },
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(ACCESS_LOG_FORMAT),
      },
    });
    this.apiUrl = `${this.httpApi.apiEndpoint}/api/v1`;
    acknowledge(
      this.httpApi,
      'AwsSolutions-APIG4',
      'Every route except the OpenAPI document requires a Bearer API key, checked (SHA-256 lookup) by the app itself.',
    );
    new CfnOutput(this, 'ApiUrl', { value: this.apiUrl, description: 'Base URL of the REST API.' });
    this.console = this.createConsole(props, removalPolicy);
  }

  /**
   * The console, and the two settings of the API function that point at browsers: CONSOLE_ORIGIN
   * (the only origin CORS admits) and WEB_CALL_URL (where a web call's token is redeemed).
   */
  private createConsole({ config, mediaWebSocketUrl }: ApiStackProps, removalPolicy: RemovalPolicy): ConsoleSite {
    const site = new ConsoleSite(this, 'Console', {
      apiUrl: this.apiUrl,
      apiOrigin: this.httpApi.apiEndpoint,
      ...(hasTls(config) ? { mediaWebSocketOrigin: mediaWebSocketUrl } : {}),
      // Presigned recording links use the bucket's regional virtual-hosted name (functions/lib/recording-links.ts).
      recordingsOrigin: `https://${recordingsBucketName(this, config.stage)}.s3.${this.region}.${this.urlSuffix}`,
      logRetention: config.logRetention,
      removalPolicy,
    });
    this.api.fn.addEnvironment('CONSOLE_ORIGIN', site.origin);
    this.api.fn.addEnvironment('WEB_CALL_URL', `${mediaWebSocketUrl}${WEB_CALL_PATH}`);
    new CfnOutput(this, 'ConsoleUrl', { value: site.origin, description: 'The web console (sign in with an API key).' });
    return site;
  }

  /** The Hono app on Lambda, with the environment functions/api reads. */
  private createFunction({ config, data }: ApiStackProps, removalPolicy: RemovalPolicy): NodeFunction {
    const api = new NodeFunction(this, 'Api', {
      entry: 'functions/api/index.ts',
      description: 'Public REST API /api/v1 (Hono app).',
      serviceName: 'api',
      timeout: Duration.seconds(API_FUNCTION_TIMEOUT_S),
      memorySize: 1024,
      logRetention: config.logRetention,
      removalPolicy,
      ...(config.concurrency.apiReserved !== undefined && { reservedConcurrency: config.concurrency.apiReserved }),
    })
      .bindTable(stageNames(config.stage).tableName, 'read-write')
      .bindQueue('OUTBOUND_QUEUE_URL', data.outbound.queue, 'send')
      // Documents go to the ingestion queue; a search's query is embedded by the knowledge
      // function (invoked), so the API itself never reads the OpenAI key.
      .bindQueue('KNOWLEDGE_QUEUE_URL', this.knowledgeIngest.queue.queue, 'send')
      // Seals custom LLM keys; it never opens them (only `custom_key_set` is ever returned).
      .bindSecretsKey(data.secretsKey, ['encrypt'])
      // Signs and opens list cursors (read once per cold start, on the first list request).
      .bindSecret('CURSOR_SECRET_ARN', data.secrets.listCursor)
      // Presigns GET /calls/{id} recording_url: S3 authorises a presigned URL as its signer, so the
      // API needs GetObject (and Decrypt on the bucket key) on recordings, and nothing else there.
      .bindRecordings(recordingsBucketName(this, config.stage), data.recordingsKey, 'read');
    // The unqualified function only (grantInvoke would add every version, `:*`).
    api.role.addToPolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.knowledgeIngest.fn.fn.functionArn] }));
    api.fn.addEnvironment('KNOWLEDGE_FUNCTION_NAME', this.knowledgeIngest.fn.fn.functionName);
    api.fn.addEnvironment('REQUIRE_HTTPS_URLS', 'true');
    api.fn.addEnvironment('ALLOW_PRIVATE_URLS', 'false');
    return api;
  }
}
