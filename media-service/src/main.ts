import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { DecryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { ConfigError } from '../../shared/config';
import { EventBridgeBus } from '../../shared/events/event-bus';
import { KmsSecretBox, LocalSecretBox, type SecretBox } from '../../shared/security/secret-box';
import { readMediaConfig, type MediaConfig } from './config';
import { MEDIA_START_FAILED, mediaLogger, startMediaRuntime } from './server/media-runtime';
import { startProviders } from './server/providers';

/**
 * KMS for the secret box, decrypt only: the media task opens custom LLM keys and never seals
 * (its role has kms:Decrypt only). Same few lines as functions/lib/kms.ts, which this bundle may
 * not import (the image holds media-service/ and shared/ only).
 */
function secretBoxFor(config: MediaConfig): SecretBox {
  if (!config.KMS_KEY_ID) return new LocalSecretBox(config.LOCAL_SECRET_KEY!);
  const client = new KMSClient({ region: config.AWS_REGION });
  const keyId = config.KMS_KEY_ID;
  return new KmsSecretBox({
    encrypt: async () => {
      throw new Error('The media service never seals secrets.');
    },
    decrypt: async (ciphertext, context) =>
      (await client.send(new DecryptCommand({ KeyId: keyId, CiphertextBlob: ciphertext, EncryptionContext: context }))).Plaintext!,
  });
}

const log = mediaLogger(process.env);

/** The media service on Fargate: read the environment, start everything, drain on SIGTERM. */
async function main(): Promise<void> {
  const config = readMediaConfig(process.env);
  if (!config.EVENT_BUS_NAME) throw new ConfigError('Invalid configuration:\n  EVENT_BUS_NAME: required (call events go to EventBridge).');
  const providers = await startProviders(config, { log });
  const runtime = await startMediaRuntime({
    config,
    providers,
    events: new EventBridgeBus(new EventBridgeClient({ region: config.AWS_REGION }), config.EVENT_BUS_NAME),
    secretBox: secretBoxFor(config),
    log,
  });
  // A stray promise rejection in one call must not end every other call on this task.
  process.on('unhandledRejection', (reason) => log.error('media.unhandled_rejection', { error: reason }));
  log.info('media.started', { port: runtime.server.port, stage: config.STAGE, providers: providers.labels });
  process.once('SIGTERM', () => {
    void runtime
      .shutdown()
      .then(() => providers.close())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        log.error('media.shutdown_failed', { error });
        process.exit(1);
      });
  });
}

main().catch((error: unknown) => {
  // The ops stack counts these lines (a metric filter on `message` and `stage`) and alarms on them.
  log.error(MEDIA_START_FAILED, { stage: process.env.STAGE ?? 'unknown', error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
