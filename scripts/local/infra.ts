import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { newSandboxAuthToken } from '../../media-service/src/sandbox/carrier';
import { createDb } from '../../shared/db/client';
import { ensureTable } from '../../shared/db/create-table';
import { startDynamoDbLocal, type DynamoDbLocal } from './stand-ins/dynamodb-local';
import { startFauxqsServer, type Fauxqs } from './stand-ins/fauxqs';
import { startPresignedS3Gate } from './stand-ins/presigned-s3-gate';

/** Where the running local stack can be reached; written to .data/dev-stack.json for `npm run admin`. */
export interface LocalStackInfo {
  tableName: string;
  region: string;
  dynamoEndpoint: string;
  sqsEndpoint: string;
  outboundQueueUrl: string;
  recordingsBucket: string;
  /**
   * The S3 endpoint recording links are presigned against: a gate in front of fauxqs that checks
   * each link's signature and expiry as S3 does (scripts/local/stand-ins/presigned-s3-gate.ts). Unset: fauxqs itself.
   */
  recordingLinksEndpoint?: string;
  localSecretKey: string;
  /** The sandbox carrier's auth token: random, created once per data folder (`admin call-in` signs with it). */
  sandboxAuthToken: string;
  apiUrl?: string;
  /** The sandbox carrier's base URL (`admin call-in` rings through it). */
  carrierUrl?: string;
  /** The local SES stand-in (sent mail at `<mailUrl>/store`). */
  mailUrl?: string;
}

export const DATA_DIR = '.data';
export const STACK_FILE = join(DATA_DIR, 'dev-stack.json');
const TABLE_NAME = 'voice-agent-local';
const REGION = 'us-east-1';

/** A secret kept in the data folder: created at random on first use, the same on every restart. */
function dataFolderSecret(name: string, create: () => string): string {
  const file = join(DATA_DIR, name);
  if (!existsSync(file)) writeFileSync(file, create(), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

/**
 * Starts DynamoDB Local (data kept in .data/dynamodb) and fauxqs, and creates the table, the
 * outbound-calls queue with its DLQ, and the recordings bucket. `benchmark`: DynamoDB Local keeps
 * nothing on disk and runs as a low-priority background stand-in (`background` in
 * scripts/local/stand-ins/dynamodb-local.ts), so it costs the measured process as little CPU as it can.
 */
export async function startLocalInfra(
  options: { benchmark?: boolean } = {},
): Promise<{ info: LocalStackInfo; fresh: boolean; stop(): Promise<void> }> {
  const dbDir = join(DATA_DIR, 'dynamodb');
  const fresh = options.benchmark === true || !existsSync(dbDir);
  mkdirSync(options.benchmark ? DATA_DIR : dbDir, { recursive: true });
  // DynamoDB Local runs with the jar's folder as its working directory: give it an absolute path.
  const dynamo: DynamoDbLocal = await startDynamoDbLocal(options.benchmark ? { background: true } : { path: resolve(dbDir) });
  const fauxqs: Fauxqs = await startFauxqsServer();
  const linksGate = await startPresignedS3Gate(fauxqs.endpoint);
  await ensureTable(createDb({ tableName: TABLE_NAME, region: REGION, endpoint: dynamo.endpoint }));
  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  const sqs = new SQSClient({ region: REGION, endpoint: fauxqs.endpoint, credentials });
  const dlq = await sqs.send(new CreateQueueCommand({ QueueName: 'outbound-calls-dlq' }));
  const dlqArn = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }));
  const queue = await sqs.send(
    new CreateQueueCommand({
      QueueName: 'outbound-calls',
      Attributes: {
        VisibilityTimeout: '60',
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn.Attributes?.QueueArn, maxReceiveCount: 5 }),
      },
    }),
  );
  const s3 = new S3Client({ region: REGION, endpoint: fauxqs.endpoint, credentials, forcePathStyle: true });
  await s3.send(new CreateBucketCommand({ Bucket: 'recordings' })).catch(() => undefined);
  const info: LocalStackInfo = {
    tableName: TABLE_NAME,
    region: REGION,
    dynamoEndpoint: dynamo.endpoint,
    sqsEndpoint: fauxqs.endpoint,
    outboundQueueUrl: queue.QueueUrl!,
    recordingsBucket: 'recordings',
    recordingLinksEndpoint: linksGate.endpoint,
    // The secret box's key, and the sandbox carrier's auth token (never a constant: it signs the
    // voice webhooks and stream upgrades the local call engine trusts).
    localSecretKey: dataFolderSecret('secret-key', () => randomBytes(32).toString('base64')),
    sandboxAuthToken: dataFolderSecret('sandbox-auth-token', newSandboxAuthToken),
  };
  return { info, fresh, stop: async () => void (await Promise.all([dynamo.stop(), linksGate.stop(), fauxqs.stop()])) };
}

/** Records where the stack runs, for the admin command line. */
export function writeStackInfo(info: LocalStackInfo): void {
  writeFileSync(STACK_FILE, JSON.stringify(info, null, 2), { mode: 0o600 });
}

/** Reads where the running `npm run dev` stack is, or explains how to start it. */
export function readStackInfo(): LocalStackInfo {
  if (!existsSync(STACK_FILE)) throw new Error('No local stack found: start it with `npm run dev` (or pass --stage NAME).');
  return JSON.parse(readFileSync(STACK_FILE, 'utf8')) as LocalStackInfo;
}
