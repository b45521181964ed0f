import { Duration, IgnoreMode, Size, Stack, type RemovalPolicy } from 'aws-cdk-lib';
import { SubnetType, type IVpc } from 'aws-cdk-lib/aws-ec2';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import {
  AwsLogDriverMode,
  Cluster,
  ContainerImage,
  ContainerInsights,
  CpuArchitecture,
  FargateService,
  FargateTaskDefinition,
  LogDrivers,
  OperatingSystemFamily,
  Secret as EcsSecret,
  type ContainerDefinition,
  type ScalableTaskCount,
} from 'aws-cdk-lib/aws-ecs';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import { AdjustmentType } from 'aws-cdk-lib/aws-applicationautoscaling';
import { Stats } from 'aws-cdk-lib/aws-cloudwatch';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { FilterPattern, LogGroup, MetricFilter, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { MediaStageConfig } from '../config';
import {
  ACTIVE_CALLS_METRIC,
  MEDIA_DRAIN_TIMEOUT_S,
  MEDIA_PORT,
  MEDIA_START_FAILED_LOG,
  MEDIA_START_FAILED_METRIC,
  MEDIA_STOP_TIMEOUT_S,
  METRIC_NAMESPACE,
  OUTBOUND_AGE_SCALE_OUT_FAST_S,
  OUTBOUND_AGE_SCALE_OUT_S,
  STAGE_DIMENSION,
} from '../constants';
import { mediaMetric } from '../metrics';
import { acknowledge } from '../nag';
import { REPO_ROOT } from '../paths';
import { grantRecordings, grantSecretsKey, grantTable, type RecordingsAccess, type SecretsKeyUse, type TableAccess } from './grants';
import type { IEmailIdentity } from 'aws-cdk-lib/aws-ses';

/** Props of the media service (the call engine on Fargate). */
export interface MediaServiceProps {
  readonly vpc: IVpc;
  readonly stage: string;
  readonly capacity: MediaStageConfig;
  readonly logRetention: RetentionDays;
  readonly removalPolicy: RemovalPolicy;
}

/**
 * Build context of the image: the repository root, filtered to what the Dockerfile's build stage
 * reads (lock file, tsconfig, media-service/ and shared/). Keeping node_modules, cdk.out and the
 * rest out keeps synthesis fast and the context small.
 */
export const MEDIA_IMAGE_CONTEXT_EXCLUDE = [
  '*',
  '!package.json',
  '!package-lock.json',
  '!tsconfig.json',
  '!media-service',
  '!shared',
  '**/node_modules',
  '**/*.test.ts',
  'media-service/dist',
];

/** The health command the task runs inside the container (the slim image has no curl). */
const HEALTH_COMMAND = `node -e "fetch('http://127.0.0.1:${MEDIA_PORT}/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"`;

/**
 * The media service: arm64 Fargate tasks from media-service/Dockerfile (built by `cdk deploy`),
 * in private subnets, with a 120 s stop timeout for the SIGTERM drain and JSON logs. The `bind*`
 * methods grant the task role one resource and set the variable naming it; `addSecret` injects
 * a Secrets Manager value through the execution role, so the task role never reads secrets.
 */
export class MediaService extends Construct {
  readonly cluster: Cluster;
  readonly taskDefinition: FargateTaskDefinition;
  readonly container: ContainerDefinition;
  readonly service: FargateService;
  readonly logGroup: LogGroup;
  /** The task count's scaling (ActiveCalls target tracking; {@link scaleOnOutboundQueue} adds the queue's age). */
  readonly scaling: ScalableTaskCount;

  constructor(scope: Construct, id: string, props: MediaServiceProps) {
    super(scope, id);
    const { capacity } = props;
    this.cluster = new Cluster(this, 'Cluster', { vpc: props.vpc, containerInsightsV2: ContainerInsights.ENHANCED });
    this.logGroup = new LogGroup(this, 'Logs', { retention: props.logRetention, removalPolicy: props.removalPolicy });
    // A task that cannot start (no Twilio credentials on a deployed stage, any bad setting) logs one
    // line and exits; ECS restarts it. The ops stack alarms on this count.
    new MetricFilter(this, 'StartFailures', {
      logGroup: this.logGroup,
      filterPattern: FilterPattern.stringValue('$.message', '=', MEDIA_START_FAILED_LOG),
      metricNamespace: METRIC_NAMESPACE,
      metricName: MEDIA_START_FAILED_METRIC,
      metricValue: '1',
      dimensions: { [STAGE_DIMENSION]: '$.stage' },
    });
    this.taskDefinition = new FargateTaskDefinition(this, 'Task', {
      cpu: capacity.cpu,
      memoryLimitMiB: capacity.memoryMiB,
      runtimePlatform: { cpuArchitecture: CpuArchitecture.ARM64, operatingSystemFamily: OperatingSystemFamily.LINUX },
    });
    this.container = this.addContainer(props.stage, capacity);
    // Egress stays open: Twilio, Deepgram, OpenAI and businesses' LLM and tool servers live on
    // arbitrary public addresses and ports; the engine's SSRF checks decide what it may reach.
    this.service = new FargateService(this, 'Service', {
      cluster: this.cluster,
      taskDefinition: this.taskDefinition,
      desiredCount: capacity.desiredTasks,
      vpcSubnets: { subnetType: SubnetType.PRIVATE_WITH_EGRESS },
      assignPublicIp: false,
      minHealthyPercent: 100,
      maxHealthyPercent: 200,
      circuitBreaker: { enable: true, rollback: true },
      healthCheckGracePeriod: Duration.seconds(60),
      enableExecuteCommand: false,
    });
    this.scaling = this.addAutoscaling(props.stage, capacity);
    this.acknowledgeFindings();
  }

  /** Item access to the single table; sets TABLE_NAME. */
  bindTable(tableName: string, access: TableAccess): this {
    grantTable(this.taskDefinition.taskRole, tableName, access);
    this.container.addEnvironment('TABLE_NAME', tableName);
    return this;
  }

  /**
   * Step scaling on the age of the oldest outbound call in `queue`: tasks at their admission cap
   * stop receiving, so calls waiting in the queue mean the fleet is full (infra/constants.ts
   * OUTBOUND_AGE_SCALE_OUT_S). Scale-in is left to the ActiveCalls target tracking.
   */
  scaleOnOutboundQueue(queue: IQueue): this {
    this.scaling.scaleOnMetric('OutboundQueueAge', {
      metric: queue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(1), statistic: Stats.MAXIMUM }),
      scalingSteps: [
        { upper: OUTBOUND_AGE_SCALE_OUT_S, change: 0 },
        { lower: OUTBOUND_AGE_SCALE_OUT_S, change: +2 },
        { lower: OUTBOUND_AGE_SCALE_OUT_FAST_S, change: +4 },
      ],
      adjustmentType: AdjustmentType.CHANGE_IN_CAPACITY,
      // A new task takes about a minute to start and pass its health checks.
      cooldown: Duration.seconds(120),
      evaluationPeriods: 2,
      datapointsToAlarm: 2,
    });
    return this;
  }

  /** Consumes (or sends to) a queue; sets `envName` to its URL. */
  bindQueue(envName: string, queue: IQueue, access: 'send' | 'consume'): this {
    if (access === 'send') queue.grantSendMessages(this.taskDefinition.taskRole);
    else queue.grantConsumeMessages(this.taskDefinition.taskRole);
    this.container.addEnvironment(envName, queue.queueUrl);
    return this;
  }

  /**
   * `ses:SendEmail` from the stage's SES identity only (its ARN, no wildcard); sets
   * EMAIL_FROM_ADDRESS, the address on that identity the assistants send from.
   */
  bindEmailIdentity(identity: IEmailIdentity, fromAddress: string): this {
    // Not grantSendEmail: it adds ses:SendRawEmail (the v1 API); SES v2 SendEmail needs ses:SendEmail only.
    identity.grant(this.taskDefinition.taskRole, 'ses:SendEmail');
    this.container.addEnvironment('EMAIL_FROM_ADDRESS', fromAddress);
    return this;
  }

  /** PutEvents on the bus; sets EVENT_BUS_NAME. */
  bindEventBus(bus: IEventBus): this {
    bus.grantPutEventsTo(this.taskDefinition.taskRole);
    this.container.addEnvironment('EVENT_BUS_NAME', bus.eventBusName);
    return this;
  }

  /** Object access under `recordings/`; sets RECORDINGS_BUCKET. */
  bindRecordings(bucketName: string, bucketKey: IKey, access: RecordingsAccess): this {
    grantRecordings(this.taskDefinition.taskRole, bucketName, bucketKey, access);
    this.container.addEnvironment('RECORDINGS_BUCKET', bucketName);
    return this;
  }

  /** Uses the customer-secrets key; sets KMS_KEY_ID to its ARN. */
  bindSecretsKey(key: IKey, uses: readonly SecretsKeyUse[]): this {
    grantSecretsKey(this.taskDefinition.taskRole, key, uses);
    this.container.addEnvironment('KMS_KEY_ID', key.keyArn);
    return this;
  }

  /** Injects a secret (or one JSON field of it) as `envName` at task start. */
  addSecret(envName: string, secret: ISecret, field?: string): this {
    this.container.addSecret(envName, EcsSecret.fromSecretsManager(secret, field));
    return this;
  }

  /**
   * Admits browsers from the web console to web calls and live listening (CONSOLE_ORIGIN), beside
   * each business's own `web_origins`.
   */
  allowConsoleOrigin(origin: string): this {
    this.container.addEnvironment('CONSOLE_ORIGIN', origin);
    return this;
  }

  /** Lets the tasks publish metrics in the service namespace only (ActiveCalls, CallsEndedWithError). */
  allowMetrics(): this {
    this.taskDefinition.taskRole.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['cloudwatch:PutMetricData'],
        resources: ['*'],
        conditions: { StringEquals: { 'cloudwatch:namespace': METRIC_NAMESPACE } },
      }),
    );
    return this;
  }

  /** The engine's container: the image, the port, the admission cap, the SIGTERM drain and the health check. */
  private addContainer(stage: string, capacity: MediaStageConfig): ContainerDefinition {
    return this.taskDefinition.addContainer('media', {
      image: ContainerImage.fromAsset(REPO_ROOT, {
        file: 'media-service/Dockerfile',
        platform: Platform.LINUX_ARM64,
        exclude: MEDIA_IMAGE_CONTEXT_EXCLUDE,
        ignoreMode: IgnoreMode.DOCKER,
      }),
      portMappings: [{ containerPort: MEDIA_PORT, name: 'http' }],
      environment: {
        PORT: String(MEDIA_PORT),
        STAGE: stage,
        AWS_REGION: Stack.of(this).region,
        NODE_ENV: 'production',
        // The `service` and level of the engine's log lines (shared/log.ts), as on every function.
        POWERTOOLS_SERVICE_NAME: 'media',
        LOG_LEVEL: 'INFO',
        MEDIA_MAX_CALLS: String(capacity.maxCallsPerTask),
        // Inside the stop timeout: the drain ends before ECS's SIGKILL.
        DRAIN_TIMEOUT_MS: String(MEDIA_DRAIN_TIMEOUT_S * 1000),
      },
      stopTimeout: Duration.seconds(MEDIA_STOP_TIMEOUT_S),
      healthCheck: {
        command: ['CMD-SHELL', HEALTH_COMMAND],
        interval: Duration.seconds(15),
        timeout: Duration.seconds(5),
        retries: 3,
        startPeriod: Duration.seconds(30),
      },
      // Non-blocking: a slow log pipe must never stall the audio loop (lines may drop under pressure).
      logging: LogDrivers.awsLogs({
        streamPrefix: 'media',
        logGroup: this.logGroup,
        mode: AwsLogDriverMode.NON_BLOCKING,
        maxBufferSize: Size.mebibytes(25),
      }),
    });
  }

  /**
   * Target tracking on the mean ActiveCalls per task. No CPU policy: Node runs the audio on one of
   * the task's two vCPUs, so the task's average CPU stays near 50 % when that core is saturated
   * and a CPU target never fired. Scale-in is slow: a leaving task drains for up to an hour behind
   * the load balancer.
   */
  private addAutoscaling(stage: string, capacity: MediaStageConfig): ScalableTaskCount {
    const scaling = this.service.autoScaleTaskCount({ minCapacity: capacity.desiredTasks, maxCapacity: capacity.maxTasks });
    scaling.scaleToTrackCustomMetric('ActiveCallsPerTask', {
      metric: mediaMetric(ACTIVE_CALLS_METRIC, stage, { statistic: Stats.AVERAGE }),
      targetValue: capacity.targetActiveCallsPerTask,
      scaleOutCooldown: Duration.seconds(60),
      scaleInCooldown: Duration.minutes(10),
    });
    return scaling;
  }

  private acknowledgeFindings(): void {
    acknowledge(
      this.taskDefinition,
      'AwsSolutions-ECS2',
      'Environment holds only names, URLs and the port; every credential is injected from Secrets Manager (secrets:).',
    );
    acknowledge(
      this.taskDefinition.taskRole,
      'AwsSolutions-IAM5[Resource::*]',
      'cloudwatch:PutMetricData has no resource-level permissions; a condition limits it to the VoiceAgent namespace.',
    );
    acknowledge(
      this.taskDefinition.obtainExecutionRole(),
      'AwsSolutions-IAM5[Resource::*]',
      'ecr:GetAuthorizationToken has no resource-level permissions (image pull of the media-service asset).',
    );
  }
}
