import { SQSClient } from '@aws-sdk/client-sqs';
import * as v from 'valibot';
import { readConfig } from '../../shared/config';
import { AssistantRepository } from '../../shared/db/assistant-repository';
import { BusinessRepository } from '../../shared/db/business-repository';
import { CallRepository } from '../../shared/db/call-repository';
import { createDb } from '../../shared/db/client';
import { DeliveryRepository } from '../../shared/db/delivery-repository';
import { KmsSecretBox } from '../../shared/security/secret-box';
import { defaultLog } from '../lib/deps';
import { kmsClient } from '../lib/kms';
import { S3RecordingLinks } from '../lib/recording-links';
import { processBatch, SqsWebhookQueue, type SqsMessageRecord } from './process-batch';

const config = readConfig(
  v.object({
    TABLE_NAME: v.pipe(v.string(), v.minLength(1)),
    WEBHOOK_QUEUE_URL: v.pipe(v.string(), v.minLength(1)),
    KMS_KEY_ID: v.pipe(v.string(), v.minLength(1)),
    AWS_REGION: v.optional(v.string(), 'us-east-1'),
    RECORDINGS_BUCKET: v.optional(v.string()),
  }),
  process.env,
);
const db = createDb({ tableName: config.TABLE_NAME, region: config.AWS_REGION });
/** The same presigner, and so the same 15-minute link, as GET /calls/{id}; none without a bucket. */
const links = config.RECORDINGS_BUCKET ? new S3RecordingLinks({ bucket: config.RECORDINGS_BUCKET, region: config.AWS_REGION }) : undefined;
const recordingUrl = links ? (key: string) => links.presign(key) : undefined;
const deps = {
  calls: new CallRepository(db),
  assistants: new AssistantRepository(db),
  businesses: new BusinessRepository(db),
  deliveries: new DeliveryRepository(db),
  secretBox: new KmsSecretBox(kmsClient(config.KMS_KEY_ID, config.AWS_REGION)),
  queue: new SqsWebhookQueue(new SQSClient({ region: config.AWS_REGION }), config.WEBHOOK_QUEUE_URL),
  now: () => new Date(),
  random: Math.random,
  allowPrivate: false,
  log: defaultLog,
  ...(recordingUrl ? { recordingUrl } : {}),
};

/** Lambda entry: SQS batch of webhook events and retries → partial-batch response. */
export const handler = (event: { Records: SqsMessageRecord[] }) => processBatch(event.Records, deps);
