import * as v from 'valibot';
import { readConfig } from '../../shared/config';
import { createDb } from '../../shared/db/client';
import { KnowledgeRepository } from '../../shared/db/knowledge-repository';
import { createLogger } from '../../shared/log';
import { handleDeadLetters, type SqsBatch } from './handle-batch';

const config = readConfig(
  v.object({
    TABLE_NAME: v.pipe(v.string(), v.minLength(1)),
    AWS_REGION: v.optional(v.string(), 'us-east-1'),
  }),
  process.env,
);

const deps = {
  knowledge: new KnowledgeRepository(createDb({ tableName: config.TABLE_NAME, region: config.AWS_REGION })),
  now: () => new Date(),
  log: createLogger({ service: 'knowledge-dead-letters', env: process.env }),
};

/**
 * Lambda entry, on the knowledge ingestion queue's DLQ: a document whose ingestion failed on every
 * try ends `failed` with a reason, instead of staying `processing` for good.
 */
export const handler = (event: SqsBatch) => handleDeadLetters(event, deps);
