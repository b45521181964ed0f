import { randomUUID } from 'node:crypto';
import { CreateBucketCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { recordingKey, S3RecordingStore } from '../../../media-service/src/adapters/s3-recording-store';
import { decodeSample } from '../../../media-service/src/audio/mulaw';
import { MIN_PART_BYTES } from '../../../media-service/src/ports/recording-store';
import { CallRecorder, recorderMemoryBound } from '../../../media-service/src/recording/call-recorder';
import { WAV_HEADER_BYTES } from '../../../media-service/src/recording/wav';

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

/** Some bytes standing for a WAV (the store does not look inside; the recorder's tests do). */
function wav(length = 1000): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => (i * 7) & 0xff);
}

/** A client whose request headers are kept (fauxqs does not echo SSE settings). */
function observedClient() {
  const client = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const sent: Record<string, string>[] = [];
  client.middlewareStack.add(
    (next) => async (args) => {
      sent.push({ ...(args.request as { headers: Record<string, string> }).headers });
      return next(args);
    },
    { step: 'finalizeRequest', name: 'observeHeaders' },
  );
  return { client, sent };
}

async function download(key: string): Promise<Buffer> {
  const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await object.Body!.transformToByteArray());
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
    const object = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    expect(object.ContentType).toBe('audio/wav');
    expect((await download(key)).equals(Buffer.from(body))).toBe(true);
  });

  it('asks for SSE-KMS with the given key (fauxqs does not echo it, so the request headers are observed)', async () => {
    // Arrange
    const kmsKeyId = 'arn:aws:kms:us-east-1:000000000000:key/recordings';
    const { client, sent } = observedClient();
    const store = new S3RecordingStore({ s3: client, bucket, kmsKeyId });
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

  it('writes a multipart recording: parts put out of order are joined in number order on complete', async () => {
    // Arrange
    const store = new S3RecordingStore({ s3, bucket });
    const [first, second, last] = [wav(MIN_PART_BYTES + 44), wav(MIN_PART_BYTES), wav(10)];
    // Act
    const upload = await store.startUpload({ businessId: 12, callId: 4000 });
    await upload.putPart(2, second);
    await upload.putPart(1, first);
    await upload.putPart(3, last);
    await upload.complete();
    // Assert
    expect(upload.key).toBe('recordings/12/4000.wav');
    const object = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: upload.key }));
    expect(object.ContentType).toBe('audio/wav');
    expect(object.ETag).toMatch(/-3"$/); // a multipart object of 3 parts
    expect((await download(upload.key)).equals(Buffer.concat([first, second, last]))).toBe(true);
  });

  it('is refused a part under 5 MiB that is not the last (S3 EntityTooSmall), and abort leaves no object', async () => {
    // Arrange
    const store = new S3RecordingStore({ s3, bucket });
    const upload = await store.startUpload({ businessId: 12, callId: 4001 });
    await upload.putPart(1, wav(MIN_PART_BYTES - 1));
    await upload.putPart(2, wav(10));
    // Act / Assert
    await expect(upload.complete()).rejects.toThrow(/EntityTooSmall|smaller than the minimum/);
    await upload.abort();
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'recordings/12/4001' }));
    expect(listed.KeyCount ?? 0).toBe(0);
    await expect(upload.putPart(1, wav(10))).rejects.toThrow();
  });

  it('asks for SSE-KMS when it starts a multipart upload', async () => {
    // Arrange
    const kmsKeyId = 'arn:aws:kms:us-east-1:000000000000:key/recordings';
    const { client, sent } = observedClient();
    const store = new S3RecordingStore({ s3: client, bucket, kmsKeyId });
    // Act
    const upload = await store.startUpload({ businessId: 12, callId: 4002 });
    await upload.abort();
    // Assert
    expect(sent[0]).toMatchObject({
      'x-amz-server-side-encryption': 'aws:kms',
      'x-amz-server-side-encryption-aws-kms-key-id': kmsKeyId,
      'content-type': 'audio/wav',
    });
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

const MINUTES = 20;
const SECONDS = MINUTES * 60;
const SAMPLES_PER_S = 8000;
const FRAME = 160; // 20 ms

/** The caller's μ-law byte at sample `i`: a pattern that differs from sample to sample. */
const callerByte = (i: number) => (i * 31 + 7) & 0xff;
/** The assistant speaks the first 3 s of every 10 s, silent otherwise. */
const speaks = (second: number) => second % 10 < 3;
const assistantByte = (i: number) => (i * 13 + 101) & 0xff;

/** One second of one side, as the 20 ms frames it arrives in. */
function secondOf(second: number, byte: (i: number) => number): Uint8Array[] {
  const start = second * SAMPLES_PER_S;
  return Array.from({ length: SAMPLES_PER_S / FRAME }, (_, f) =>
    Uint8Array.from({ length: FRAME }, (__, k) => byte(start + f * FRAME + k)),
  );
}

describe('CallRecorder → S3 (fauxqs)', () => {
  it(`streams a ${MINUTES}-minute recording as a multipart WAV within its memory bound`, { timeout: 120_000 }, async () => {
    // Arrange
    const recorder = new CallRecorder({ store: new S3RecordingStore({ s3, bucket }), target: { businessId: 31, callId: 7001 } });
    const bound = recorderMemoryBound();
    let retainedMax = 0;
    // Act: the assistant is written at send time, one second ahead of the caller's stream time
    for (let second = 0; second <= SECONDS; second++) {
      if (second < SECONDS && speaks(second))
        secondOf(second, assistantByte).forEach((frame, f) => recorder.assistant(frame, second * 1000 + f * 20));
      if (second > 0) secondOf(second - 1, callerByte).forEach((frame, f) => recorder.caller(frame, (second - 1) * 1000 + f * 20));
      retainedMax = Math.max(retainedMax, recorder.retainedBytes);
      await recorder.settled(); // faster than real time: a part is 164 s, fed here in well under one
    }
    const key = await recorder.finish();
    // Assert
    expect(key).toBe('recordings/31/7001.wav');
    expect(recorder.lateMs).toBe(0);
    expect(retainedMax).toBeLessThanOrEqual(bound);
    expect(recorder.peakRetainedBytes).toBeLessThanOrEqual(bound);
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key! }));
    const dataBytes = SECONDS * SAMPLES_PER_S * 4;
    expect(head.ContentLength).toBe(WAV_HEADER_BYTES + dataBytes);
    expect(head.ETag).toMatch(/-8"$/); // 38.4 MB of data: part 1 (header + 5 MiB), 6 parts of 5 MiB, the rest
    const wav = await download(key!);
    expect(wav.toString('latin1', 0, 4)).toBe('RIFF');
    expect(wav.readUInt32LE(4)).toBe(36 + dataBytes);
    expect(wav.readUInt32LE(40)).toBe(dataBytes);
    const sample = (i: number, channel: 0 | 1) => wav.readInt16LE(WAV_HEADER_BYTES + i * 4 + channel * 2);
    for (let i = 0; i < SECONDS * SAMPLES_PER_S; i += 9973) {
      const second = Math.floor(i / SAMPLES_PER_S);
      expect([i, sample(i, 0), sample(i, 1)]).toEqual([
        i,
        decodeSample(callerByte(i)),
        speaks(second) ? decodeSample(assistantByte(i)) : 0,
      ]);
    }
    // The edges of parts (1 310 720 frames each, part 1 after the header) are continuous.
    for (const i of [1_310_719, 1_310_720, 2_621_439, 2_621_440, SECONDS * SAMPLES_PER_S - 1])
      expect([i, sample(i, 0)]).toEqual([i, decodeSample(callerByte(i))]);
  });
});
