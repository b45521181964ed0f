import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { BusinessRepository } from '../../../shared/db/business-repository';
import { createDb } from '../../../shared/db/client';
import { IdAllocator } from '../../../shared/db/ids';
import { keys } from '../../../shared/db/table';
import { defaultBusinessProfile } from '../../../shared/domain/business-profile';

const db = createDb({ tableName: inject('tableName'), region: 'local', endpoint: inject('dynamoEndpoint') });
const businesses = new BusinessRepository(db);

describe('the all-businesses listing', () => {
  it('is a write-once item beside the business, so the business item (rewritten by every call) carries no index keys', async () => {
    // Arrange
    const id = await new IdAllocator(db).nextId();
    // Act
    await businesses.putBusiness({
      id,
      name: 'Listing test',
      created_at: new Date().toISOString(),
      minutes_balance: 10,
      minutes_reserved: 0,
      max_concurrent_calls: 10,
      profile: defaultBusinessProfile(),
      webhook_secret_sealed: 'sealed',
    } as Parameters<BusinessRepository['putBusiness']>[0]);
    const item = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: keys.business(id) }));
    const entry = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: keys.businessDirectory(id) }));
    // Assert
    expect(item.Item).not.toHaveProperty('gsi1pk');
    expect(entry.Item).toMatchObject({ ...keys.businessIndex(id), id });
    const listed = await businesses.listBusinessIds();
    expect(listed.filter((listedId) => listedId === id)).toEqual([id]);
  });
});
