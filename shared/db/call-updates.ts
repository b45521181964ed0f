import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CallStatus } from '../domain/call';
import type { CallRecord, Transition } from './call-record';
import type { Db } from './client';
import { conditionFailureItem } from './conditions';
import { fromItem } from './items';
import { keys } from './table';

/**
 * The machinery behind CallRepository's named transitions, private to shared/db: one conditional
 * UpdateItem of the call record. Callers elsewhere never see a field map or a condition string.
 */

/** A condition on the call item: an expression over its attributes, with its names and values. */
export interface Condition {
  expression: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}

export const STATUS = { '#status': 'status' };

/** The call has not ended (and, like every call update, exists). */
export const NOT_ENDED: Condition = { expression: '#status <> :ended', names: STATUS, values: { ':ended': 'ended' } };

/** The call's status is one of `statuses`. */
export function statusIn(...statuses: CallStatus[]): Condition {
  const values = Object.fromEntries(statuses.map((status, i) => [`:s${i}`, status]));
  return { expression: `#status IN (${Object.keys(values).join(', ')})`, names: STATUS, values };
}

/** What an update does besides setting fields. */
export interface UpdateExtras {
  /** Takes the call out of the open-calls index (GSI3): its ending is complete. */
  closeIndex?: boolean;
}

/**
 * The update of the call item: `SET` each defined field of `set`, on an existing call (never
 * creating one), under `condition`. A status write moves the call to that status in the open-calls
 * index (GSI3), so the index keeps in step with every transition; `closeIndex` takes it out.
 * Plain input, so a transaction can carry it too.
 */
export function callUpdate(
  db: Db,
  businessId: number,
  callId: number,
  set: Partial<CallRecord>,
  condition?: Condition,
  extras: UpdateExtras = {},
) {
  const names: Record<string, string> = { ...condition?.names };
  const values: Record<string, unknown> = { ...condition?.values };
  const fields: Record<string, unknown> = { ...set, ...(set.status !== undefined && keys.openCall(businessId, set.status, callId)) };
  const sets = Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([field, value], i) => {
      names[`#u${i}`] = field;
      values[`:u${i}`] = value;
      return `#u${i} = :u${i}`;
    });
  const removes = extras.closeIndex ? keys.openCallAttributes() : [];
  return {
    TableName: db.tableName,
    Key: keys.call(businessId, callId),
    UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
    ConditionExpression: condition ? `attribute_exists(pk) AND (${condition.expression})` : 'attribute_exists(pk)',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/**
 * Sets `set` on an existing call if `condition` holds. Either way the call comes back: as written,
 * or as it stood when the condition failed (DynamoDB returns that item with the failure, so a lost
 * race costs no read); undefined when there is no such call.
 */
export async function transition(
  db: Db,
  businessId: number,
  callId: number,
  set: Partial<CallRecord>,
  condition?: Condition,
  extras?: UpdateExtras,
): Promise<Transition> {
  try {
    const result = await db.doc.send(
      new UpdateCommand({
        ...callUpdate(db, businessId, callId, set, condition, extras),
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { written: true, call: fromItem<CallRecord>(result.Attributes!) };
  } catch (error) {
    const failed = conditionFailureItem(error);
    if (!failed) throw error;
    return { written: false, call: failed.item && fromItem<CallRecord>(failed.item) };
  }
}
