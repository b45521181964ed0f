import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { NodeFunction } from './node-function';
import { createDeadLetterQueue } from './queue-with-dlq';

/** Props of the recording-retention consumer. */
export interface RecordingRetentionProps {
  readonly table: ITable;
  readonly bucketName: string;
  readonly bucketKey: IKey;
  readonly namePrefix: string;
  readonly logRetention: RetentionDays;
  readonly removalPolicy: RemovalPolicy;
}

/**
 * `keep_days` for recordings. S3 lifecycle rules cannot expire "N days after the call" for any N in
 * 1..3650 (at most 1,000 rules per bucket, and they cannot read a number from a tag), so the
 * DynamoDB TTL deletion of a call item is the single clock: this function receives the stream's
 * REMOVE records written by the TTL service whose old image has a `recording_key`, and deletes
 * that object. Reads already hide expired calls, and presigned links expire, before TTL runs.
 */
export class RecordingRetention extends Construct {
  readonly function: NodeFunction;
  readonly dlq: Queue;

  constructor(scope: Construct, id: string, props: RecordingRetentionProps) {
    super(scope, id);
    this.dlq = createDeadLetterQueue(this, 'Dlq', {
      queueName: `${props.namePrefix}-retention-dlq`,
      purpose: 'stream batches the retention function failed on after its retries',
      removalPolicy: props.removalPolicy,
    });
    this.function = new NodeFunction(this, 'Retention', {
      entry: 'functions/retention/index.ts',
      description: 'Deletes a call recording when DynamoDB TTL deletes the item holding its recording_key (keep_days).',
      serviceName: 'retention',
      timeout: Duration.seconds(60),
      memorySize: 256,
      logRetention: props.logRetention,
      removalPolicy: props.removalPolicy,
    }).bindRecordings(props.bucketName, props.bucketKey, 'delete');
    this.function.fn.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        bisectBatchOnError: true,
        retryAttempts: 5,
        maxRecordAge: Duration.days(1),
        reportBatchItemFailures: true,
        onFailure: new SqsDlq(this.dlq),
        filters: [
          FilterCriteria.filter({
            eventName: FilterRule.isEqual('REMOVE'),
            userIdentity: { type: FilterRule.isEqual('Service'), principalId: FilterRule.isEqual('dynamodb.amazonaws.com') },
            dynamodb: { OldImage: { recording_key: { S: FilterRule.exists() } } },
          }),
        ],
      }),
    );
  }
}
