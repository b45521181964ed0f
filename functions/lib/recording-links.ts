import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { RecordingLinks } from '../../shared/services/call-service';

/**
 * How long a `recording_url` works. Short on purpose: the link is a bearer credential for a call
 * recording, and a client that needs it later reads GET /calls/{id} again for a fresh one.
 */
export const RECORDING_LINK_TTL_S = 15 * 60;

/** Where the recordings are: the bucket, and the S3 endpoint when it is not AWS (fauxqs locally). */
export interface RecordingLinksConfig {
  bucket: string;
  region: string;
  endpoint?: string;
  expiresInS?: number;
}

/**
 * S3 adapter of {@link RecordingLinks}: a presigned GetObject URL, computed locally (no request to
 * S3). The signer's role needs `s3:GetObject` on the object and `kms:Decrypt` on the bucket key,
 * because S3 checks the signer's permissions when the link is used.
 */
export class S3RecordingLinks implements RecordingLinks {
  readonly #s3: S3Client;

  constructor(private readonly config: RecordingLinksConfig) {
    this.#s3 = new S3Client({
      region: config.region,
      ...(config.endpoint
        ? { endpoint: config.endpoint, forcePathStyle: true, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : {}),
    });
  }

  presign(recordingKey: string): Promise<string> {
    const command = new GetObjectCommand({ Bucket: this.config.bucket, Key: recordingKey });
    return getSignedUrl(this.#s3, command, { expiresIn: this.config.expiresInS ?? RECORDING_LINK_TTL_S });
  }
}
