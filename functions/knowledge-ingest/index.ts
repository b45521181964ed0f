import { ChangeMessageVisibilityCommand, SQSClient } from '@aws-sdk/client-sqs';
import * as v from 'valibot';
import { readConfig } from '../../shared/config';
import { createDb } from '../../shared/db/client';
import { KnowledgeRepository } from '../../shared/db/knowledge-repository';
import { LazyEmbedder } from '../../shared/llm/embeddings-client';
import { ingestDocument } from '../../shared/knowledge/ingest';
import { KNOWLEDGE_LIMITS } from '../../shared/domain/knowledge';
import { MAX_EMBED_INVOKE_TEXTS, type EmbedReply } from '../../shared/llm/lambda-embedder';
import { ingestRetryDelayS } from '../../shared/queue/knowledge-ingest';
import { knowledgeIngestDeps } from '../lib/deps';
import { openAiKeySource } from '../lib/secrets';

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
    /** The queue this function consumes: a failed document's retry is delayed on it ({@link ingestRetryDelayS}). */
    KNOWLEDGE_QUEUE_URL: v.optional(v.string()),
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
  Records?: { messageId: string; body: string; receiptHandle?: string; attributes?: { ApproximateReceiveCount?: string } }[];
}

const sqs = config.KNOWLEDGE_QUEUE_URL ? new SQSClient({ region: config.AWS_REGION }) : undefined;

/**
 * Delays a failed document's next try ({@link ingestRetryDelayS}: 60 s, doubling) instead of the
 * queue's 30-minute visibility timeout, so that after 5 tries it is given up (and marked failed by
 * the dead-letter function) in about half an hour, not two and a half hours.
 */
async function retryLater(record: NonNullable<SqsEvent['Records']>[number]): Promise<void> {
  if (!sqs || !record.receiptHandle) return;
  const receiveCount = Number(record.attributes?.ApproximateReceiveCount ?? 1);
  try {
    await sqs.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: config.KNOWLEDGE_QUEUE_URL,
        ReceiptHandle: record.receiptHandle,
        VisibilityTimeout: ingestRetryDelayS(receiveCount),
      }),
    );
  } catch (error) {
    deps.log.warn('knowledge ingestion: the retry keeps the visibility timeout', { error });
  }
}

/** A direct invocation from the API: embed these search queries (the API holds no OpenAI key). */
const EmbedRequestSchema = v.strictObject({
  embed: v.pipe(
    v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(KNOWLEDGE_LIMITS.queryChars))),
    v.minLength(1),
    v.maxLength(MAX_EMBED_INVOKE_TEXTS),
  ),
});

/**
 * Lambda entry: embeddings for the API's searches (a direct invocation), or the knowledge ingestion
 * queue (SQS, one document per invocation: infra's KNOWLEDGE_INGEST_BATCH_SIZE). Each message is one
 * document; a message whose handler threw is reported back alone (partial batch failure) and
 * redelivered after a backoff, up to the queue's maxReceiveCount, then dead-lettered (and its
 * document marked failed by functions/knowledge-dead-letters).
 */
export const handler = async (event: SqsEvent | { embed: unknown }) => {
  if ('embed' in event) {
    const request = v.parse(EmbedRequestSchema, event);
    const vectors = await deps.embedder.embed(request.embed);
    return {
      vectors: vectors.map((vector) => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64')),
    } satisfies EmbedReply;
  }
  const batchItemFailures: { itemIdentifier: string }[] = [];
  for (const record of (event as SqsEvent).Records ?? []) {
    try {
      await ingestDocument(record.body, deps);
    } catch (error) {
      deps.log.error('knowledge ingestion failed; the message will be retried', { error });
      await retryLater(record);
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
};
