import { SQSClient } from '@aws-sdk/client-sqs';
import * as v from 'valibot';
import { AssistantRepository } from '../../shared/db/assistant-repository';
import { BusinessRepository } from '../../shared/db/business-repository';
import { CallRepository } from '../../shared/db/call-repository';
import { createDb } from '../../shared/db/client';
import { DeliveryRepository } from '../../shared/db/delivery-repository';
import { CachingSecretBox, KmsSecretBox } from '../../shared/security/secret-box';
import { functionLogger } from '../lib/deps';
import { kmsClient } from '../lib/kms';
import { S3RecordingLinks } from '../lib/recording-links';
import type { DeliverDeps } from './deliver';
import { SqsWebhookQueue } from '../../shared/queue/webhook-queue';

/** The webhook-delivery function's environment (set by infra's webhooks stack). */
export const DeliveryConfigSchema = v.object({
  TABLE_NAME: v.pipe(v.string(), v.minLength(1)),
  WEBHOOK_QUEUE_URL: v.pipe(v.string(), v.minLength(1)),
  KMS_KEY_ID: v.pipe(v.string(), v.minLength(1)),
  AWS_REGION: v.optional(v.string(), 'us-east-1'),
  RECORDINGS_BUCKET: v.optional(v.string()),
});

/** The parsed environment. */
export type DeliveryConfig = v.InferOutput<typeof DeliveryConfigSchema>;

/**
 * The composition root of webhook delivery on AWS: clients and repositories, once per cold start.
 * Recording links come from the API's own presigner, so a webhook's `recording_url` lives exactly
 * as long as one from GET /calls/{id} (15 minutes).
 */
export function createDeliveryDeps(config: DeliveryConfig): DeliverDeps {
  const db = createDb({ tableName: config.TABLE_NAME, region: config.AWS_REGION });
  const links = config.RECORDINGS_BUCKET
    ? new S3RecordingLinks({ bucket: config.RECORDINGS_BUCKET, region: config.AWS_REGION })
    : undefined;
  return {
    calls: new CallRepository(db),
    assistants: new AssistantRepository(db),
    businesses: new BusinessRepository(db),
    deliveries: new DeliveryRepository(db),
    // One KMS call per business secret every few minutes, not one per delivery attempt.
    secretBox: new CachingSecretBox(new KmsSecretBox(kmsClient(config.KMS_KEY_ID, config.AWS_REGION))),
    queue: new SqsWebhookQueue(new SQSClient({ region: config.AWS_REGION }), config.WEBHOOK_QUEUE_URL),
    now: () => new Date(),
    random: Math.random,
    allowPrivate: false,
    log: functionLogger('webhook-delivery'),
    ...(links && { recordingUrl: (key: string) => links.presign(key) }),
  };
}
