import { CreateQueueCommand, GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { createKnowledgeDeps, knowledgeIngestDeps, sqsClient, type ApiConfig, type CoreDeps } from '../../functions/lib/deps';
import { ingestDocument } from '../../shared/knowledge/ingest';
import { pollIngestQueue } from '../../shared/queue/knowledge-ingest';

/**
 * Knowledge ingestion in the local stack, wired like AWS: a fauxqs queue (with its DLQ) that the
 * API sends to, and a poller in this process running the SAME handler as the queue's Lambda
 * (functions/knowledge-ingest), fairly across businesses (4 documents at once, 1 per business: the
 * part SQS fair queues play on AWS; shared/queue/fair-poller.ts). Embeddings go to the OpenAI given (the sandbox unless a real key).
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
  return pollIngestQueue(sqs, queue.QueueUrl!, (body) => ingestDocument(body, deps), deps.log);
}
