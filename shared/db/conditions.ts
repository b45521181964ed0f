import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';

/**
 * The one place that knows the SDK's condition-failure errors: every repository asks these helpers,
 * so "the write lost its condition" has one meaning across the data layer.
 */

/**
 * A single conditional write lost its condition (the item is not in the state the write required).
 * Checked by class and by name: a second copy of the SDK in a bundle makes a different class.
 */
export function isConditionFailure(error: unknown): error is ConditionalCheckFailedException {
  return (
    error instanceof ConditionalCheckFailedException || (error as { name?: string } | null)?.name === 'ConditionalCheckFailedException'
  );
}

/**
 * The item as it stood when a single conditional write lost its condition, unmarshalled (the write
 * must ask for it with `ReturnValuesOnConditionCheckFailure: 'ALL_OLD'`): `{ item }`, with `item`
 * undefined when there is no such item; undefined when `error` is not a condition failure.
 */
export function conditionFailureItem(error: unknown): { item: Record<string, unknown> | undefined } | undefined {
  if (!isConditionFailure(error)) return undefined;
  return { item: error.Item ? unmarshall(error.Item as Parameters<typeof unmarshall>[0]) : undefined };
}

/**
 * A transaction was cancelled. With `index`, only when the item at that position failed its
 * condition (not a conflict with another transaction, or a throttle).
 */
export function isCancelledTransaction(error: unknown, index?: number): boolean {
  if (!(error instanceof TransactionCanceledException)) return false;
  return index === undefined || error.CancellationReasons?.[index]?.Code === 'ConditionalCheckFailed';
}

/**
 * The item at `index` as it stood when a transaction was cancelled because that item failed its
 * condition (asked for with `ReturnValuesOnConditionCheckFailure: 'ALL_OLD'`), unmarshalled:
 * `{ item }`, `item` undefined when there is no such item; undefined for any other error.
 */
export function cancelledTransactionItem(error: unknown, index: number): { item: Record<string, unknown> | undefined } | undefined {
  if (!isCancelledTransaction(error, index)) return undefined;
  const item = (error as TransactionCanceledException).CancellationReasons?.[index]?.Item;
  return { item: item ? unmarshall(item as Parameters<typeof unmarshall>[0]) : undefined };
}

/**
 * A transaction lost only to a concurrent one on the same items (retry it), not to one of its
 * own conditions.
 */
export function isTransactionConflict(error: unknown): boolean {
  if (!(error instanceof TransactionCanceledException)) return false;
  const reasons = error.CancellationReasons ?? [];
  return (
    reasons.some((reason) => reason.Code === 'TransactionConflict') && !reasons.some((reason) => reason.Code === 'ConditionalCheckFailed')
  );
}
