import { randomBytes, randomUUID } from 'node:crypto';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { inject } from 'vitest';
import { newSandboxAuthToken } from '../../media-service/src/sandbox/carrier';
import type { LocalStackInfo } from '../../scripts/local/infra';

/**
 * The stand-ins the test run shares (DynamoDB Local, fauxqs), plus a queue, bucket and secrets of
 * one stack's own: what `startLocalStack` (npm run dev's stack) takes as `infra` in tests.
 */
export async function localStackInfra(): Promise<LocalStackInfo> {
  const sqsEndpoint = inject('sqsEndpoint');
  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  const sqs = new SQSClient({ region: 'us-east-1', endpoint: sqsEndpoint, credentials });
  const queue = await sqs.send(new CreateQueueCommand({ QueueName: `outbound-${randomUUID()}` }));
  const s3 = new S3Client({ region: 'us-east-1', endpoint: sqsEndpoint, credentials, forcePathStyle: true });
  const bucket = `recordings-${randomUUID()}`;
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    tableName: inject('tableName'),
    region: 'us-east-1',
    dynamoEndpoint: inject('dynamoEndpoint'),
    sqsEndpoint,
    outboundQueueUrl: queue.QueueUrl!,
    recordingsBucket: bucket,
    localSecretKey: randomBytes(32).toString('base64'),
    sandboxAuthToken: newSandboxAuthToken(),
  };
}
