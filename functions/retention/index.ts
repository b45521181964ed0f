import { S3Client } from '@aws-sdk/client-s3';
import * as v from 'valibot';
import { readConfig } from '../../shared/config';
import { functionLogger } from '../lib/deps';
import { deleteExpiredRecordings, type RetentionStreamRecord } from './delete-recordings';

const config = readConfig(v.object({ RECORDINGS_BUCKET: v.pipe(v.string(), v.minLength(1)) }), process.env);
const s3 = new S3Client({});
const log = functionLogger('retention');

/** Lambda entry: DynamoDB stream (TTL deletions) → delete the calls' recordings. */
export const handler = (event: { Records: RetentionStreamRecord[] }) =>
  deleteExpiredRecordings(event.Records, { s3, bucket: config.RECORDINGS_BUCKET, log });
