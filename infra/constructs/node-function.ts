import { basename, join } from 'node:path';
import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { ApplicationLogLevel, Architecture, LoggingFormat, Runtime, SystemLogLevel, Tracing } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { NodejsFunction, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { acknowledge } from '../nag';
import { REPO_ROOT } from '../paths';
import { grantRecordings, grantSecretsKey, grantTable, type RecordingsAccess, type SecretsKeyUse, type TableAccess } from './grants';

/** Props of a service Lambda function. */
export interface NodeFunctionProps {
  /** Entry file, relative to the repository root (`functions/api/index.ts`); exports `handler`. */
  readonly entry: string;
  readonly description: string;
  /** `POWERTOOLS_SERVICE_NAME`: the `service` key of every structured log line. */
  readonly serviceName: string;
  readonly timeout: Duration;
  readonly memorySize?: number;
  readonly logRetention: RetentionDays;
  readonly removalPolicy: RemovalPolicy;
  /** Asynchronous invocations (EventBridge targets): failures after Lambda's retries land here. */
  readonly asyncFailureQueue?: IQueue;
  /** Executions reserved for (and the most allowed to) this function; unset: the account's shared pool. */
  readonly reservedConcurrency?: number;
  /**
   * Worker-thread entries, relative to the repository root (`shared/knowledge/parse-worker.ts`),
   * each bundled beside the handler as `<name>.mjs` with the same options: esbuild does not follow
   * `new Worker(new URL(…))`, so a worker's code needs an entry of its own.
   */
  readonly workerEntries?: readonly string[];
}

/** esbuild options shared by every function: one minified ESM file per entry, with source maps. */
const BUNDLING: BundlingOptions = {
  format: OutputFormat.ESM,
  target: 'node24',
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  mainFields: ['module', 'main'],
  // The SDK is bundled at the versions package-lock.json pins, not the runtime's copy.
  bundleAwsSDK: true,
  // CommonJS dependencies inside an ESM bundle still call require() for Node built-ins.
  banner: "import { createRequire } from 'node:module';const require = createRequire(import.meta.url);",
};

/**
 * The esbuild command that bundles a worker entry beside the handler, with {@link BUNDLING}'s
 * options. Run through npx as CDK runs its own esbuild when bundling locally (esbuild is a
 * devDependency, so CDK never falls back to Docker here).
 */
function workerBundleCommand(inputDir: string, outputDir: string, entry: string): string {
  return [
    'npx --no-install esbuild --bundle',
    JSON.stringify(join(inputDir, entry)),
    `--outfile=${JSON.stringify(join(outputDir, basename(entry).replace(/\.ts$/, '.mjs')))}`,
    '--platform=node --format=esm --minify --sourcemap --sources-content=false --main-fields=module,main',
    `--target=${BUNDLING.target}`,
    `--banner:js=${JSON.stringify(BUNDLING.banner)}`,
  ].join(' ');
}

/** {@link BUNDLING}, plus a hook that bundles each worker entry after the handler. */
function bundlingWith(workerEntries: readonly string[] = []): BundlingOptions {
  if (workerEntries.length === 0) return BUNDLING;
  return {
    ...BUNDLING,
    commandHooks: {
      beforeBundling: () => [],
      beforeInstall: () => [],
      afterBundling: (inputDir, outputDir) => workerEntries.map((entry) => workerBundleCommand(inputDir, outputDir, entry)),
    },
  };
}

/** How a function uses a queue. */
export type QueueAccess = 'send' | 'consume' | 'send-and-consume';

/**
 * A Node 24 / arm64 function bundled by esbuild from `functions/`, with its own log group (JSON
 * logs: Lambda adds the request id to every line), X-Ray tracing and a role that starts empty.
 * The `bind*` methods grant one resource and set the environment variable naming it, together.
 */
export class NodeFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: NodeFunctionProps) {
    super(scope, id);
    this.logGroup = new LogGroup(this, 'Logs', { retention: props.logRetention, removalPolicy: props.removalPolicy });
    // An explicit role instead of AWSLambdaBasicExecutionRole: log writes to this group only.
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `${props.serviceName}: ${props.description}`,
    });
    this.logGroup.grantWrite(this.role);
    this.fn = new NodejsFunction(this, 'Function', {
      entry: join(REPO_ROOT, props.entry),
      handler: 'handler',
      projectRoot: REPO_ROOT,
      depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
      description: props.description,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout,
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: LoggingFormat.JSON,
      applicationLogLevelV2: ApplicationLogLevel.INFO,
      systemLogLevelV2: SystemLogLevel.WARN,
      tracing: Tracing.ACTIVE,
      environment: { POWERTOOLS_SERVICE_NAME: props.serviceName, LOG_LEVEL: 'INFO', NODE_OPTIONS: '--enable-source-maps' },
      bundling: bundlingWith(props.workerEntries),
      ...(props.reservedConcurrency !== undefined && { reservedConcurrentExecutions: props.reservedConcurrency }),
      ...(props.asyncFailureQueue
        ? { retryAttempts: 2, maxEventAge: Duration.hours(6), onFailure: new SqsDestination(props.asyncFailureQueue) }
        : {}),
    });
    acknowledge(
      this.role,
      'AwsSolutions-IAM5[Resource::*]',
      'Only actions without resource-level permissions use Resource::* (X-Ray from Tracing.ACTIVE; dynamodb:ListStreams for stream consumers); test/infra/security.checks.ts pins that list.',
    );
  }

  /** Item access to the single table; sets TABLE_NAME. */
  bindTable(tableName: string, access: TableAccess): this {
    grantTable(this.role, tableName, access);
    this.fn.addEnvironment('TABLE_NAME', tableName);
    return this;
  }

  /** Send and/or consume on a queue; sets `envName` to its URL. */
  bindQueue(envName: string, queue: IQueue, access: QueueAccess): this {
    if (access !== 'consume') queue.grantSendMessages(this.role);
    if (access !== 'send') queue.grantConsumeMessages(this.role);
    this.fn.addEnvironment(envName, queue.queueUrl);
    return this;
  }

  /** PutEvents on the bus; sets EVENT_BUS_NAME. */
  bindEventBus(bus: IEventBus): this {
    bus.grantPutEventsTo(this.role);
    this.fn.addEnvironment('EVENT_BUS_NAME', bus.eventBusName);
    return this;
  }

  /** Encrypt and/or decrypt with the customer-secrets key; sets KMS_KEY_ID to its ARN. */
  bindSecretsKey(key: IKey, uses: readonly SecretsKeyUse[]): this {
    grantSecretsKey(this.role, key, uses);
    this.fn.addEnvironment('KMS_KEY_ID', key.keyArn);
    return this;
  }

  /** Reads one Secrets Manager secret at run time; sets `envName` to its ARN (never its value). */
  bindSecret(envName: string, secret: ISecret): this {
    secret.grantRead(this.role);
    this.fn.addEnvironment(envName, secret.secretArn);
    return this;
  }

  /** Object access under `recordings/`; sets RECORDINGS_BUCKET. */
  bindRecordings(bucketName: string, bucketKey: IKey, access: RecordingsAccess): this {
    grantRecordings(this.role, bucketName, bucketKey, access);
    this.fn.addEnvironment('RECORDINGS_BUCKET', bucketName);
    return this;
  }
}
