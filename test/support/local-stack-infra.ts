import { randomBytes, randomUUID } from 'node:crypto';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { inject } from 'vitest';
import { newSandboxAuthToken } from '../../media-service/src/sandbox/carrier';
import { createDb } from '../../shared/db/client';
import { ensureTable } from '../../shared/db/create-table';
import type { LocalStackInfo } from '../../scripts/local/infra';

/**
 * What `startLocalStack` needs, on the stand-ins the test run shares: a queue, bucket and secrets
 * of this stack's own, and the shared table unless `ownTable` (a stack that runs the sweeper
 * needs a table alone: a sweep reads every open call of its table).
 */
export async function localStackInfra(options: { ownTable?: boolean } = {}): Promise<LocalStackInfo> {
  const sqsEndpoint = inject('sqsEndpoint');
  const dynamoEndpoint = inject('dynamoEndpoint');
  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  const tableName = options.ownTable ? `stack-${randomUUID()}` : inject('tableName');
  if (options.ownTable) await ensureTable(createDb({ tableName, region: 'us-east-1', endpoint: dynamoEndpoint }));
  const sqs = new SQSClient({ region: 'us-east-1', endpoint: sqsEndpoint, credentials });
  const queue = await sqs.send(new CreateQueueCommand({ QueueName: `outbound-${randomUUID()}` }));
  const s3 = new S3Client({ region: 'us-east-1', endpoint: sqsEndpoint, credentials, forcePathStyle: true });
  const bucket = `recordings-${randomUUID()}`;
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    tableName,
    region: 'us-east-1',
    dynamoEndpoint,
    sqsEndpoint,
    outboundQueueUrl: queue.QueueUrl!,
    recordingsBucket: bucket,
    localSecretKey: randomBytes(32).toString('base64'),
    sandboxAuthToken: newSandboxAuthToken(),
  };
}
