import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { S3RecordingLinks } from '../../../functions/lib/recording-links';
import { LOCAL_S3_CREDENTIALS, startPresignedS3Gate, type PresignedS3Gate } from '../../../scripts/local/stand-ins/presigned-s3-gate';

/**
 * Recording links on the local stack are checked as S3 checks a presigned URL: the link
 * `S3RecordingLinks` signs (with @aws-sdk/s3-request-presigner) downloads through the gate in
 * front of fauxqs, and a tampered, stripped, re-keyed or expired one is refused with S3's 403.
 */

const BUCKET = 'recordings-links-test';
const KEY = 'recordings/1/42.wav';
const AUDIO = Buffer.from('RIFF-recording-links-test');
let gate: PresignedS3Gate;
/** The gate's clock: real time, unless a test moves it. */
let clock: number | undefined;

beforeAll(async () => {
  const s3 = new S3Client({
    region: 'us-east-1',
    endpoint: inject('sqsEndpoint'),
    credentials: LOCAL_S3_CREDENTIALS,
    forcePathStyle: true,
  });
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET })).catch(() => undefined);
  await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: KEY, Body: AUDIO }));
  gate = await startPresignedS3Gate(inject('sqsEndpoint'), { now: () => clock ?? Date.now() });
});

afterAll(async () => {
  await gate?.stop();
});

const link = () => new S3RecordingLinks({ bucket: BUCKET, region: 'us-east-1', endpoint: gate.endpoint }).presign(KEY);

/** Replaces one query parameter of a link. */
function withParam(url: string, name: string, value: string | undefined): string {
  const next = new URL(url);
  if (value === undefined) next.searchParams.delete(name);
  else next.searchParams.set(name, value);
  return next.toString();
}

const flipLast = (text: string) => text.slice(0, -1) + (text.endsWith('0') ? '1' : '0');

describe('recording links through the local S3', () => {
  it('a link as signed downloads the recording', async () => {
    const response = await fetch(await link());
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(AUDIO);
  });

  it.each([
    [
      'a tampered signature',
      (url: string) => withParam(url, 'X-Amz-Signature', flipLast(new URL(url).searchParams.get('X-Amz-Signature')!)),
    ],
    ['another object’s key', (url: string) => url.replace('/42.wav', '/43.wav')],
    ['a longer expiry', (url: string) => withParam(url, 'X-Amz-Expires', '3600')],
  ])('%s: 403 SignatureDoesNotMatch, nothing downloaded', async (_, tamper) => {
    const response = await fetch(tamper(await link()));
    const body = await response.text();
    expect(response.status).toBe(403);
    expect(body).toContain('<Code>SignatureDoesNotMatch</Code>');
    expect(body).not.toContain('RIFF');
  });

  it('the signature removed: 400 AuthorizationQueryParametersError; no query at all: 403 AccessDenied', async () => {
    const stripped = await fetch(withParam(await link(), 'X-Amz-Signature', undefined));
    const bare = await fetch((await link()).split('?')[0]!);
    expect(stripped.status).toBe(400);
    expect(await stripped.text()).toContain('<Code>AuthorizationQueryParametersError</Code>');
    expect(bare.status).toBe(403);
    expect(await bare.text()).toContain('<Code>AccessDenied</Code>');
  });

  it('a link past its 15 minutes: 403 AccessDenied "Request has expired"', async () => {
    // Arrange
    const url = await link();
    // Act
    clock = Date.now() + 15 * 60 * 1000 + 1000;
    const response = await fetch(url);
    clock = undefined;
    // Assert
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('Request has expired');
  });
});
