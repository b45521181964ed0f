import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { NodeFunction } from './node-function';
import { QueueWithDlq } from './queue-with-dlq';

/** One document's ingestion at most: a 15 s fetch, PDF parsing, embeddings for up to 2,000 chunks, DynamoDB writes. */
export const KNOWLEDGE_INGEST_TIMEOUT_S = 300;
/**
 * One document per invocation: a batch's records run in series, so a slow document (up to a 15 s
 * fetch and a 20 s parse) would hold up its batch-mate, maybe another business's. Lambda scales
 * the pollers, not the batch, so throughput is the same as with batches of 2: at most
 * {@link KNOWLEDGE_INGEST_MAX_CONCURRENCY} documents in progress either way.
 */
export const KNOWLEDGE_INGEST_BATCH_SIZE = 1;
/**
 * Documents ingested at once across all businesses: bounds the embeddings requests and DynamoDB
 * writes in flight. Fairness does not need more: the messages carry the business as MessageGroupId
 * (an SQS fair queue), so when one of these finishes, a quiet business's waiting document is
 * delivered ahead of a noisy one's backlog.
 */
export const KNOWLEDGE_INGEST_MAX_CONCURRENCY = 5;

/** Props of {@link KnowledgeIngest}. */
export interface KnowledgeIngestProps {
  readonly queueName: string;
  readonly tableName: string;
  readonly openAiSecret: ISecret;
  readonly logRetention: RetentionDays;
  readonly removalPolicy: RemovalPolicy;
}

/**
 * Knowledge-base ingestion off the request path (docs/design.md "Knowledge bases"): the API sends one message
 * per document to the queue, with its business as MessageGroupId, which makes it an SQS fair queue
 * (no queue setting is needed); this function (functions/knowledge-ingest) fetches, chunks, embeds
 * and stores it. A failed document is retried, then dead-lettered after 5 receives.
 */
export class KnowledgeIngest extends Construct {
  readonly queue: QueueWithDlq;
  readonly fn: NodeFunction;

  constructor(scope: Construct, id: string, props: KnowledgeIngestProps) {
    super(scope, id);
    this.queue = new QueueWithDlq(this, 'Queue', {
      queueName: props.queueName,
      // AWS's advice for Lambda consumers: at least six times the function's timeout.
      visibilityTimeout: Duration.seconds(6 * KNOWLEDGE_INGEST_TIMEOUT_S),
      removalPolicy: props.removalPolicy,
    });
    this.fn = new NodeFunction(this, 'Function', {
      entry: 'functions/knowledge-ingest/index.ts',
      description: 'Ingests knowledge-base documents: fetch (SSRF-guarded), extract, chunk, embed, store.',
      serviceName: 'knowledge-ingest',
      timeout: Duration.seconds(KNOWLEDGE_INGEST_TIMEOUT_S),
      // 1 GiB: the handler and its parse worker (256 MB of heap and 256 MB of buffers at most); a
      // batch whose PDF bomb was killed at the buffer cap peaked at 417 MB (knowledge-ingest-bundle.test.ts).
      memorySize: 1024,
      // Documents are parsed in a worker thread (shared/knowledge/worker-parser.ts), from its own bundle.
      workerEntries: ['shared/knowledge/parse-worker.ts'],
      logRetention: props.logRetention,
      removalPolicy: props.removalPolicy,
    })
      .bindTable(props.tableName, 'read-write')
      .bindQueue('KNOWLEDGE_QUEUE_URL', this.queue.queue, 'consume')
      .bindSecret('OPENAI_SECRET_ARN', props.openAiSecret);
    this.fn.fn.addEnvironment('REQUIRE_HTTPS_URLS', 'true');
    this.fn.fn.addEnvironment('ALLOW_PRIVATE_URLS', 'false');
    this.fn.fn.addEventSource(
      new SqsEventSource(this.queue.queue, {
        batchSize: KNOWLEDGE_INGEST_BATCH_SIZE,
        reportBatchItemFailures: true,
        maxConcurrency: KNOWLEDGE_INGEST_MAX_CONCURRENCY,
      }),
    );
  }
}
