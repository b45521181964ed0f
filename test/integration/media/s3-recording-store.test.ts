import { randomUUID } from 'node:crypto';
import { CreateBucketCommand, GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { recordingKey, S3RecordingStore } from '../../../media-service/src/adapters/s3-recording-store';
import { encodeSample } from '../../../media-service/src/audio/mulaw';
import { CallRecorder } from '../../../media-service/src/recording/call-recorder';

const endpoint = inject('sqsEndpoint');
const bucket = `recordings-${randomUUID()}`;
const s3 = new S3Client({
  region: 'us-east-1',
  endpoint,
  forcePathStyle: true,
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});

beforeAll(async () => {
  if (!endpoint.includes('127.0.0.1') && !endpoint.includes('localhost'))
    throw new Error('Refusing to run against a non-local S3 endpoint.');
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
});

/** A short two-sided recording. */
function wav(): Uint8Array {
  const recorder = new CallRecorder();
  recorder.caller(new Uint8Array(160).fill(encodeSample(1200)), 0);
  recorder.assistant(new Uint8Array(320).fill(encodeSample(-800)), 20);
  return recorder.toWav();
}

describe('S3RecordingStore', () => {
  it('uploads the WAV under recordings/<business>/<call>.wav as audio/wav, byte for byte', async () => {
    // Arrange
    const store = new S3RecordingStore({ s3, bucket });
    const body = wav();
    // Act
    const { key } = await store.save({ businessId: 12, callId: 3456, wav: body });
    // Assert
    expect(key).toBe('recordings/12/3456.wav');
    const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    expect(object.ContentType).toBe('audio/wav');
    expect(Buffer.from(await object.Body!.transformToByteArray()).equals(Buffer.from(body))).toBe(true);
  });

  it('asks for SSE-KMS with the given key (fauxqs does not echo it, so the request headers are observed)', async () => {
    // Arrange
    const kmsKeyId = 'arn:aws:kms:us-east-1:000000000000:key/recordings';
    const observed = new S3Client({
      region: 'us-east-1',
      endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const sent: Record<string, string>[] = [];
    observed.middlewareStack.add(
      (next) => async (args) => {
        sent.push({ ...(args.request as { headers: Record<string, string> }).headers });
        return next(args);
      },
      { step: 'finalizeRequest', name: 'observeHeaders' },
    );
    const store = new S3RecordingStore({ s3: observed, bucket, kmsKeyId });
    // Act
    const { key } = await store.save({ businessId: 12, callId: 3457, wav: wav() });
    // Assert
    expect(sent[0]).toMatchObject({
      'x-amz-server-side-encryption': 'aws:kms',
      'x-amz-server-side-encryption-aws-kms-key-id': kmsKeyId,
      'content-type': 'audio/wav',
    });
    await expect(s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }))).resolves.toBeDefined();
  });

  it('keeps a custom prefix under recordings/ and refuses one outside it (retention deletes only there)', async () => {
    // Arrange
    const staged = new S3RecordingStore({ s3, bucket, prefix: 'recordings/stage-a' });
    // Act
    const { key } = await staged.save({ businessId: 1, callId: 2, wav: wav() });
    // Assert
    expect(key).toBe('recordings/stage-a/1/2.wav');
    expect(() => new S3RecordingStore({ s3, bucket, prefix: 'other/' })).toThrow(/recordings\//);
  });

  it.each([
    [0, 1],
    [1, -2],
    [1.5, 2],
  ])('refuses ids that are not positive integers (business %s, call %s)', (businessId, callId) => {
    // Act / Assert
    expect(() => recordingKey(businessId, callId)).toThrow(/Invalid recording ids/);
  });
});
