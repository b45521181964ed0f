import { readConfig } from '../../shared/config';
import { createDeliveryDeps, DeliveryConfigSchema } from './deps';
import { processBatch, type SqsMessageRecord } from './process-batch';

const deps = createDeliveryDeps(readConfig(DeliveryConfigSchema, process.env));

/** Lambda entry: SQS batch of webhook events and retries → partial-batch response. */
export const handler = (event: { Records: SqsMessageRecord[] }) => processBatch(event.Records, deps);
