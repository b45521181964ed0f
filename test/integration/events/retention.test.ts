import { CreateBucketCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { describe, expect, inject, it } from 'vitest';
import { deleteExpiredRecordings } from '../../../functions/retention/delete-recordings';
import { silentLogger } from '../../../shared/log';
import { captureLogger } from '../../support/capture-logger';

function s3() {
  return new S3Client({
    region: 'us-east-1',
    endpoint: inject('sqsEndpoint'),
    forcePathStyle: true,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

const exists = (client: S3Client, Key: string) =>
  client.send(new HeadObjectCommand({ Bucket: 'retention-test', Key })).then(
    () => true,
    () => false,
  );

describe('recording retention (DynamoDB TTL stream → S3 delete)', () => {
  it('deletes recordings of TTL-removed calls, leaves others and refuses keys outside recordings/', async () => {
    // Arrange
    const client = s3();
    await client.send(new CreateBucketCommand({ Bucket: 'retention-test' })).catch(() => undefined);
    for (const Key of ['recordings/1/10.wav', 'recordings/1/11.wav', 'other/secret.txt']) {
      await client.send(new PutObjectCommand({ Bucket: 'retention-test', Key, Body: 'x' }));
    }
    const logs = captureLogger();
    // Act
    const result = await deleteExpiredRecordings(
      [
        { eventName: 'REMOVE', dynamodb: { SequenceNumber: '1', OldImage: { recording_key: { S: 'recordings/1/10.wav' } } } },
        { eventName: 'MODIFY', dynamodb: { SequenceNumber: '2', OldImage: { recording_key: { S: 'recordings/1/11.wav' } } } },
        { eventName: 'REMOVE', dynamodb: { SequenceNumber: '3', OldImage: { recording_key: { S: 'other/secret.txt' } } } },
        { eventName: 'REMOVE', dynamodb: { SequenceNumber: '4', OldImage: { recording_key: { S: 'recordings/1/gone.wav' } } } },
      ],
      { s3: client, bucket: 'retention-test', log: logs.log },
    );
    // Assert
    expect(result.batchItemFailures).toEqual([]);
    expect(await exists(client, 'recordings/1/10.wav')).toBe(false);
    expect(await exists(client, 'recordings/1/11.wav')).toBe(true);
    expect(await exists(client, 'other/secret.txt')).toBe(true);
    expect(logs.messages()).toEqual(['retention: refusing to delete other/secret.txt, outside recordings/']);
  });

  it('reports a failed delete by sequence number for a retry', async () => {
    // Arrange
    const failing = {
      send: async () => {
        throw new Error('throttled');
      },
    };
    // Act
    const result = await deleteExpiredRecordings(
      [{ eventName: 'REMOVE', dynamodb: { SequenceNumber: '77', OldImage: { recording_key: { S: 'recordings/2/5.wav' } } } }],
      { s3: failing, bucket: 'b', log: silentLogger },
    );
    // Assert
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: '77' }]);
  });
});
