import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { NodeFunction } from './node-function';

/** Props of {@link KnowledgeDeadLetters}. */
export interface KnowledgeDeadLettersProps {
  /** The ingestion queue's DLQ. */
  readonly dlq: IQueue;
  readonly tableName: string;
  readonly logRetention: RetentionDays;
  readonly removalPolicy: RemovalPolicy;
}

/**
 * The consumer of the knowledge ingestion DLQ (functions/knowledge-dead-letters): a document whose
 * ingestion failed on every try ends `failed` with a reason, instead of `processing` for good. It
 * reads and writes the table only (no OpenAI secret, no network beyond DynamoDB). Each invocation
 * is a document lost to our failure, so ops alarms on its invocations (ops-stack).
 */
export class KnowledgeDeadLetters extends Construct {
  readonly fn: NodeFunction;

  constructor(scope: Construct, id: string, props: KnowledgeDeadLettersProps) {
    super(scope, id);
    this.fn = new NodeFunction(this, 'Function', {
      entry: 'functions/knowledge-dead-letters/index.ts',
      description: 'Marks knowledge documents failed whose ingestion was given up (the ingestion DLQ).',
      serviceName: 'knowledge-dead-letters',
      // Two DynamoDB writes a record; well under the DLQ's 30 s visibility timeout.
      timeout: Duration.seconds(20),
      logRetention: props.logRetention,
      removalPolicy: props.removalPolicy,
    }).bindTable(props.tableName, 'read-write');
    this.fn.fn.addEventSource(new SqsEventSource(props.dlq, { batchSize: 10, reportBatchItemFailures: true }));
  }
}
