import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { CallRepository } from '../../../shared/db/call-repository';
import { createDb } from '../../../shared/db/client';
import { IdAllocator } from '../../../shared/db/ids';
import { keys } from '../../../shared/db/table';
import { endStoredCall, seedQueuedCall, outboundCallRecord } from '../../support/call-states';

const db = createDb({ tableName: inject('tableName'), region: 'local', endpoint: inject('dynamoEndpoint') });
const ids = new IdAllocator(db);
const calls = new CallRepository(db);
const AT = '2026-11-24T10:00:00.000Z';

/** The call item's open-calls index keys as stored (undefined when it is out of the index). */
async function indexKeys(businessId: number, callId: number) {
  const { Item } = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: keys.call(businessId, callId), ConsistentRead: true }));
  return Item && Item.gsi3pk !== undefined ? { gsi3pk: Item.gsi3pk, gsi3sk: Item.gsi3sk } : undefined;
}

describe('the open-calls index (GSI3)', () => {
  it('holds a call from its creation, follows each status, ignores a heartbeat, and lets go once the ending is complete', async () => {
    // Arrange
    const { businessId, callId } = await seedQueuedCall(calls, ids);
    const steps: [string, unknown][] = [['created', await indexKeys(businessId, callId)]];
    // Act
    await calls.claimQueued(businessId, callId, 'owner', AT);
    steps.push(['claimed', await indexKeys(businessId, callId)]);
    await calls.markRinging(businessId, callId, AT);
    steps.push(['ringing', await indexKeys(businessId, callId)]);
    await calls.markAnswered(businessId, callId, AT);
    steps.push(['answered', await indexKeys(businessId, callId)]);
    await calls.heartbeat(businessId, callId, AT);
    steps.push(['heartbeat', await indexKeys(businessId, callId)]);
    await endStoredCall(calls, businessId, callId, 'caller_hung_up', AT);
    steps.push(['ended, ending unfinished', await indexKeys(businessId, callId)]);
    await calls.markEndingFinished(businessId, callId);
    steps.push(['ending finished', await indexKeys(businessId, callId)]);
    // Assert
    const at = (status: string) => keys.openCall(businessId, status, callId);
    expect(steps).toEqual([
      ['created', at('queued')],
      ['claimed', at('queued')],
      ['ringing', at('ringing')],
      ['answered', at('in_progress')],
      ['heartbeat', at('in_progress')],
      ['ended, ending unfinished', at('ended')],
      ['ending finished', undefined],
    ]);
  });

  it('never holds a call inserted already ended with its ending complete', async () => {
    // Arrange
    const businessId = await ids.nextId();
    const record = outboundCallRecord(await ids.nextId(), businessId, AT);
    // Act
    await calls.insertCall({ ...record, status: 'ended', ended_reason: 'caller_hung_up' });
    // Assert
    expect(await indexKeys(businessId, record.id)).toBeUndefined();
    expect(await calls.countOpenCalls(businessId, 'ended')).toBe(0);
  });

  it("counts one business's calls in one status, never another business's in the same shard", async () => {
    // Arrange: business b and b + 8 share a shard
    const businessId = await ids.nextId();
    const neighbour = businessId + 8;
    await seedQueuedCall(calls, ids, businessId);
    await seedQueuedCall(calls, ids, businessId);
    const ringing = await seedQueuedCall(calls, ids, businessId);
    await calls.markRinging(businessId, ringing.callId, AT);
    await seedQueuedCall(calls, ids, neighbour);
    // Act
    const counts = {
      queued: await calls.countOpenCalls(businessId, 'queued'),
      ringing: await calls.countOpenCalls(businessId, 'ringing'),
      in_progress: await calls.countOpenCalls(businessId, 'in_progress'),
      neighbourQueued: await calls.countOpenCalls(neighbour, 'queued'),
    };
    // Assert
    expect(counts).toEqual({ queued: 2, ringing: 1, in_progress: 0, neighbourQueued: 1 });
  });

  it('lists the open calls with their records, and not a call whose ending is complete', async () => {
    // Arrange
    const open = await seedQueuedCall(calls, ids);
    const done = await seedQueuedCall(calls, ids, open.businessId);
    await endStoredCall(calls, done.businessId, done.callId, 'caller_hung_up', AT);
    await calls.markEndingFinished(done.businessId, done.callId);
    // Act
    const listed = await calls.listOpenCalls(100_000);
    // Assert
    const mine = listed.calls.filter((call) => call.business_id === open.businessId);
    expect(mine.map((call) => [call.id, call.status])).toEqual([[open.callId, 'queued']]);
    expect(mine[0]).not.toHaveProperty('gsi3pk');
  });

  it('reads at most `max` open calls and says when there were more', async () => {
    // Arrange: at least two open calls in the table
    const first = await seedQueuedCall(calls, ids);
    await seedQueuedCall(calls, ids, first.businessId);
    // Act
    const listed = await calls.listOpenCalls(1);
    // Assert
    expect(listed.calls).toHaveLength(1);
    expect(listed.truncated).toBe(true);
  });
});
