import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { RecordingStore, SaveRecordingInput } from '../ports/recording-store';

/**
 * The retention function deletes only objects under this prefix (functions/retention), so every
 * recording must live under it or it would outlive `keep_days`.
 */
export const RECORDINGS_PREFIX = 'recordings/';

/** Options of {@link S3RecordingStore}. */
export interface S3RecordingStoreOptions {
  s3: S3Client;
  bucket: string;
  /** Encrypt with this KMS key (SSE-KMS); absent, the bucket's default encryption applies. */
  kmsKeyId?: string;
  /** Default `recordings/`; must start with it (see {@link RECORDINGS_PREFIX}). */
  prefix?: string;
}

/** `recordings/<businessId>/<callId>.wav`: the tenant first, as everywhere else. */
export function recordingKey(businessId: number, callId: number, prefix = RECORDINGS_PREFIX): string {
  if (!Number.isSafeInteger(businessId) || businessId <= 0 || !Number.isSafeInteger(callId) || callId <= 0) {
    throw new Error(`Invalid recording ids: business ${businessId}, call ${callId}.`);
  }
  return `${prefix}${businessId}/${callId}.wav`;
}

/** Call recordings in the recordings bucket (fauxqs S3 locally), one WAV object per call. */
export class S3RecordingStore implements RecordingStore {
  readonly #options: S3RecordingStoreOptions;
  readonly #prefix: string;

  constructor(options: S3RecordingStoreOptions) {
    const prefix = options.prefix ?? RECORDINGS_PREFIX;
    if (!prefix.startsWith(RECORDINGS_PREFIX))
      throw new Error(`Recording prefix must start with ${RECORDINGS_PREFIX} (retention deletes only there).`);
    this.#options = options;
    this.#prefix = prefix.endsWith('/') ? prefix : `${prefix}/`;
  }

  /** Uploads the WAV (one PUT; a full hour is ~115 MB, under S3's 5 GB single-PUT limit) and returns its key. */
  async save(input: SaveRecordingInput): Promise<{ key: string }> {
    const key = recordingKey(input.businessId, input.callId, this.#prefix);
    const { s3, bucket, kmsKeyId } = this.#options;
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: input.wav,
        ContentType: 'audio/wav',
        ContentLength: input.wav.byteLength,
        ...(kmsKeyId ? { ServerSideEncryption: 'aws:kms', SSEKMSKeyId: kmsKeyId, BucketKeyEnabled: true } : {}),
      }),
    );
    return { key };
  }
}
