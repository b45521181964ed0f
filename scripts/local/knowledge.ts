import { CreateQueueCommand, GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { paginateScan } from '@aws-sdk/lib-dynamodb';
import { createKnowledgeDeps, knowledgeIngestDeps, sqsClient, type CoreDeps } from '../../functions/lib/deps';
import { type ApiConfig } from '../../functions/lib/config';
import { ingestDocument } from '../../shared/knowledge/ingest';
import type { Logger } from '../../shared/log';
import { failAbandonedDocument } from '../../shared/knowledge/dead-letters';
import { pollDeadLetters, pollIngestQueue, type IngestQueue } from '../../shared/queue/knowledge-ingest';

/**
 * Knowledge ingestion in the local stack, wired like AWS: a fauxqs queue (with its DLQ) that the
 * API sends to, and a poller in this process running the SAME handler as the queue's Lambda
 * (functions/knowledge-ingest), fairly across businesses (4 documents at once, 1 per business: the
 * part SQS fair queues play on AWS; shared/queue/fair-poller.ts), and a second poller on the DLQ
 * running the dead-letter function's handler (a document given up after 3 failed tries, about 7
 * minutes, ends `failed`). Embeddings go to the OpenAI given (the sandbox unless a real key).
 * Replaces `core.knowledge`, so build the API's deps after this.
 */
export async function startLocalKnowledge(
  core: CoreDeps,
  config: ApiConfig,
  openAi: { baseUrl: string | undefined; apiKey: string },
): Promise<{ stop(): Promise<void> }> {
  const sqs = sqsClient(config);
  const dlq = await sqs.send(new CreateQueueCommand({ QueueName: 'knowledge-ingest-dlq' }));
  const dlqArn = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }));
  const queue = await sqs.send(
    new CreateQueueCommand({
      QueueName: 'knowledge-ingest',
      Attributes: {
        VisibilityTimeout: '120',
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn.Attributes?.QueueArn, maxReceiveCount: 3 }),
      },
    }),
  );
  const knowledgeConfig: ApiConfig = {
    ...config,
    KNOWLEDGE_QUEUE_URL: queue.QueueUrl!,
    OPENAI_API_KEY: openAi.apiKey,
    ...(openAi.baseUrl !== undefined && { OPENAI_BASE_URL: openAi.baseUrl }),
  };
  core.knowledge = createKnowledgeDeps(knowledgeConfig, core.db, core.urlPolicy);
  const deps = knowledgeIngestDeps(core.knowledge.repo, core.knowledge.embedder, core.urlPolicy);
  await requeueUnfinished(core, core.knowledge.queue, deps.log);
  const ingesting = pollIngestQueue(sqs, queue.QueueUrl!, (body) => ingestDocument(body, deps), deps.log);
  const deadLetters = pollDeadLetters(sqs, dlq.QueueUrl!, (body) => failAbandonedDocument(body, deps), deps.log);
  return { stop: async () => void (await Promise.all([ingesting.stop(), deadLetters.stop()])) };
}

/**
 * fauxqs keeps its queues in memory, so documents still waiting when the stack stopped lost their
 * messages: every document left `processing` is queued again at start (the handler is idempotent
 * per document). A scan is fine on the local table; on AWS the queue itself is durable.
 */
async function requeueUnfinished(core: CoreDeps, queue: IngestQueue, log: Logger): Promise<void> {
  const pages = paginateScan(
    { client: core.db.doc },
    {
      TableName: core.db.tableName,
      FilterExpression: 'entity = :doc AND #status = :processing',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':doc': 'knowledge_document', ':processing': 'processing' },
      ProjectionExpression: 'pk, knowledge_base_id, id',
    },
  );
  let queued = 0;
  for await (const page of pages)
    for (const item of page.Items ?? []) {
      const businessId = Number(String(item.pk).split('#')[1]);
      await queue.enqueue({ business_id: businessId, knowledge_base_id: Number(item.knowledge_base_id), document_id: Number(item.id) });
      queued++;
    }
  if (queued > 0) log.info(`knowledge: ${queued} document(s) left processing when the stack stopped were queued again`);
}
