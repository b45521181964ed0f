import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { createDb } from '../../../shared/db/client';
import { IdAllocator } from '../../../shared/db/ids';
import { keys } from '../../../shared/db/table';
import { EMPTY_KEY, storableJson, unstorableJsonProblem } from '../../../shared/domain/storable-json';
import { recordedArguments } from '../../../shared/domain/tool-action';

const db = createDb({ tableName: inject('tableName'), region: 'local', endpoint: inject('dynamoEndpoint') });
const ids = new IdAllocator(db);

/** Writes `value` as an attribute of a throwaway item in DynamoDB Local. */
async function store(value: unknown): Promise<void> {
  const id = await ids.nextId();
  await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...keys.callDetail(id, id), entity: 'probe', value } }));
}

/** JSON a model or a tool server may send, each refused by DynamoDB or its document client as it is. */
const UNSTORABLE: [string, unknown][] = [
  ['an integer past 2^53', { order: 1e17 }],
  ['a number past DynamoDB range', { n: 1e300 }],
  ['a number nearer 0 than 1e-130', { items: [{ price: 5e-324 }] }],
  ['an empty key', { '': 'x', nested: { '': 1 } }],
];

describe('free-form JSON on its way into DynamoDB', () => {
  it.each(UNSTORABLE)('%s: refused as it is, stored once made storable', async (_, value) => {
    // Assert: the problem is real (this is what lost a call's record) and named before any write
    await expect(store(value)).rejects.toThrow();
    expect(unstorableJsonProblem(value)).not.toBeNull();
    // Act + Assert
    await store(storableJson(value));
    expect(unstorableJsonProblem(storableJson(value))).toBeNull();
  });

  it('keeps storable JSON exactly as it is', async () => {
    const value = { a: [1, -2.5, 0, 9007199254740991, 1e-130, 'x', null, true], b: { c: { d: 'e' } } };
    expect(storableJson(value)).toEqual(value);
    expect(unstorableJsonProblem(value)).toBeNull();
    await store(value);
  });

  it('keeps an unstorable number as its JSON text and an empty key under a name', () => {
    expect(storableJson({ n: 1e300, '': 5e-324, big: 1e17 })).toEqual({
      n: '1e+300',
      [EMPTY_KEY]: '5e-324',
      big: '100000000000000000',
    });
  });

  it("records a model's tool arguments in a storable form", async () => {
    const recorded = recordedArguments('{"order_id": 99999999999999999999, "": "x"}');
    expect(recorded).toEqual({ order_id: '100000000000000000000', [EMPTY_KEY]: 'x' });
    await store(recorded);
  });

  it('names where the problem is', () => {
    expect(unstorableJsonProblem({ properties: { n: { maximum: 1e300 } } })).toContain('/properties/n/maximum');
    expect(unstorableJsonProblem({ properties: { '': {} } })).toContain('/properties: an empty property name');
  });
});
