import { CreateTableCommand, DescribeTableCommand, ResourceInUseException, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import type { Db } from './client';
import { TABLE_DEFINITION } from './table';

/**
 * Creates the single table from the shared definition (local stack and tests; infra/ declares the
 * same shape for AWS). Idempotent: an existing table is left as it is.
 */
export async function ensureTable(db: Db): Promise<void> {
  const def = TABLE_DEFINITION;
  try {
    await db.doc.send(
      new CreateTableCommand({
        TableName: db.tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: def.attributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: def.partitionKey, KeyType: 'HASH' },
          { AttributeName: def.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: def.globalIndexes.map((index) => ({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: index.projection },
        })),
      }),
    );
    await db.doc.send(
      new UpdateTimeToLiveCommand({
        TableName: db.tableName,
        TimeToLiveSpecification: { AttributeName: def.ttlAttribute, Enabled: true },
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  await db.doc.send(new DescribeTableCommand({ TableName: db.tableName }));
}
