import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { RecordingStore, RecordingTarget, RecordingUpload, SaveRecordingInput } from '../ports/recording-store';

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

/** S3 numbers parts 1 … 10 000. */
const MAX_PART_NUMBER = 10_000;

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

  /** Uploads a short recording's WAV in one PUT and returns its key. */
  async save(input: SaveRecordingInput): Promise<{ key: string }> {
    const key = recordingKey(input.businessId, input.callId, this.#prefix);
    const { s3, bucket } = this.#options;
    await s3.send(
      new PutObjectCommand({ Bucket: bucket, Key: key, Body: input.wav, ContentLength: input.wav.byteLength, ...this.#objectSettings() }),
    );
    return { key };
  }

  /** Starts a multipart upload of the call's WAV (CreateMultipartUpload); the object appears on `complete`. */
  async startUpload(target: RecordingTarget): Promise<RecordingUpload> {
    const key = recordingKey(target.businessId, target.callId, this.#prefix);
    const { s3, bucket } = this.#options;
    const created = await s3.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ...this.#objectSettings() }));
    if (!created.UploadId) throw new Error(`S3 returned no UploadId for ${key}.`);
    return new S3RecordingUpload(s3, bucket, key, created.UploadId);
  }

  /** Content type and encryption, set on the object by PutObject or CreateMultipartUpload. */
  #objectSettings() {
    const { kmsKeyId } = this.#options;
    return {
      ContentType: 'audio/wav',
      ...(kmsKeyId ? { ServerSideEncryption: 'aws:kms' as const, SSEKMSKeyId: kmsKeyId, BucketKeyEnabled: true } : {}),
    };
  }
}

/** One multipart upload: remembers each part's ETag, which CompleteMultipartUpload needs. */
class S3RecordingUpload implements RecordingUpload {
  readonly #etags = new Map<number, string>();

  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    readonly key: string,
    private readonly uploadId: string,
  ) {}

  async putPart(partNumber: number, body: Uint8Array): Promise<void> {
    if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PART_NUMBER)
      throw new Error(`Invalid part number ${partNumber} (S3 numbers parts 1 to ${MAX_PART_NUMBER}).`);
    const { bucket: Bucket, key: Key, uploadId: UploadId } = this;
    const sent = await this.s3.send(
      new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: partNumber, Body: body, ContentLength: body.byteLength }),
    );
    if (!sent.ETag) throw new Error(`S3 returned no ETag for part ${partNumber} of ${Key}.`);
    this.#etags.set(partNumber, sent.ETag);
  }

  async complete(): Promise<void> {
    const Parts = [...this.#etags].sort(([a], [b]) => a - b).map(([PartNumber, ETag]) => ({ PartNumber, ETag }));
    const { bucket: Bucket, key: Key, uploadId: UploadId } = this;
    await this.s3.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts } }));
  }

  async abort(): Promise<void> {
    const { bucket: Bucket, key: Key, uploadId: UploadId } = this;
    await this.s3.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId }));
  }
}
