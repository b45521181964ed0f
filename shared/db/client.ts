import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';

/** Where the table lives: AWS (no endpoint) or DynamoDB Local (endpoint + dummy credentials). */
export interface DbConfig {
  tableName: string;
  region: string;
  endpoint?: string;
}

/** The document client every repository shares; one per process (cold start). */
export interface Db {
  doc: DynamoDBDocumentClient;
  tableName: string;
}

/** One write of a transaction, as a repository prepares it for another to include (`insertCall`). */
export type TransactionItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** Builds the shared client. Locally it points at DynamoDB Local with throwaway credentials. */
export function createDb(config: DbConfig): Db {
  const client = new DynamoDBClient({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
  const doc = DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false },
  });
  return { doc, tableName: config.tableName };
}
