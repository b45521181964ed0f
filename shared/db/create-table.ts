import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceInUseException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import type { Db } from './client';
import { TABLE_DEFINITION } from './table';

type IndexDefinition = (typeof TABLE_DEFINITION.globalIndexes)[number];

const indexSchema = (index: IndexDefinition) => ({
  IndexName: index.name,
  KeySchema: [
    { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
    { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
  ],
  Projection: { ProjectionType: index.projection },
});

/**
 * Creates the single table from the shared definition (local stack and tests; infra/ declares the
 * same shape for AWS). Idempotent: an existing table keeps its items and gains the indexes it
 * lacks (a local data folder made before an index was added), one per update as DynamoDB allows.
 */
export async function ensureTable(db: Db): Promise<void> {
  const def = TABLE_DEFINITION;
  const attributes = def.attributes.map((name) => ({ AttributeName: name, AttributeType: 'S' as const }));
  try {
    await db.doc.send(
      new CreateTableCommand({
        TableName: db.tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: attributes,
        KeySchema: [
          { AttributeName: def.partitionKey, KeyType: 'HASH' },
          { AttributeName: def.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: def.globalIndexes.map(indexSchema),
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
  const { Table } = await db.doc.send(new DescribeTableCommand({ TableName: db.tableName }));
  const present = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  for (const index of def.globalIndexes.filter((candidate) => !present.has(candidate.name))) {
    await db.doc.send(
      new UpdateTableCommand({
        TableName: db.tableName,
        AttributeDefinitions: attributes,
        GlobalSecondaryIndexUpdates: [{ Create: indexSchema(index) }],
      }),
    );
  }
}
