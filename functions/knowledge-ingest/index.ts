import * as v from 'valibot';
import { readConfig } from '../../shared/config';
import { createDb } from '../../shared/db/client';
import { KnowledgeRepository } from '../../shared/db/knowledge-repository';
import { LazyEmbedder } from '../../shared/llm/embeddings-client';
import { ingestDocument } from '../../shared/knowledge/ingest';
import { knowledgeIngestDeps, openAiKeySource } from '../lib/deps';

const flag = v.pipe(
  v.optional(v.picklist(['true', 'false']), 'false'),
  v.transform((value) => value === 'true'),
);

const config = readConfig(
  v.object({
    TABLE_NAME: v.pipe(v.string(), v.minLength(1)),
    AWS_REGION: v.optional(v.string(), 'us-east-1'),
    /** Production: the Secrets Manager secret (JSON {"api_key"}); OPENAI_API_KEY wins when set. */
    OPENAI_SECRET_ARN: v.optional(v.string()),
    OPENAI_API_KEY: v.optional(v.string()),
    OPENAI_BASE_URL: v.optional(v.string()),
    ALLOW_PRIVATE_URLS: flag,
    REQUIRE_HTTPS_URLS: v.pipe(
      v.optional(v.picklist(['true', 'false']), 'true'),
      v.transform((value) => value === 'true'),
    ),
  }),
  process.env,
);

const deps = knowledgeIngestDeps(
  new KnowledgeRepository(createDb({ tableName: config.TABLE_NAME, region: config.AWS_REGION })),
  new LazyEmbedder(openAiKeySource(config), config.OPENAI_BASE_URL),
  { allowPrivate: config.ALLOW_PRIVATE_URLS, requireHttps: config.REQUIRE_HTTPS_URLS },
);

interface SqsEvent {
  Records?: { messageId: string; body: string }[];
}

/**
 * Lambda entry: the knowledge ingestion queue (SQS, batch of up to 5). Each message is one
 * document; a message whose handler threw is reported back alone (partial batch failure) and
 * redelivered, up to the queue's maxReceiveCount, then dead-lettered.
 */
export const handler = async (event: SqsEvent) => {
  const batchItemFailures: { itemIdentifier: string }[] = [];
  for (const record of event.Records ?? []) {
    try {
      await ingestDocument(record.body, deps);
    } catch (error) {
      deps.log.error('knowledge ingestion failed; the message will be retried', { error });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
};
