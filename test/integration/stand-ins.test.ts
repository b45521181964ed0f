import { describe, expect, inject, it } from 'vitest';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { createDb } from '../../shared/db/client';

describe('stand-ins', () => {
  it('DynamoDB Local answers and holds the table', async () => {
    // Arrange
    const db = createDb({ tableName: inject('tableName'), region: 'local', endpoint: inject('dynamoEndpoint') });
    // Act
    const tables = await db.doc.send(new ListTablesCommand({}));
    // Assert
    expect(tables.TableNames).toContain(inject('tableName'));
  });
});
