import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';

/**
 * A single conditional write lost its condition (the item is not in the state the write required).
 * Checked by class and by name: a second copy of the SDK in a bundle makes a different class.
 */
export function isConditionFailure(error: unknown): boolean {
  return (
    error instanceof ConditionalCheckFailedException || (error as { name?: string } | null)?.name === 'ConditionalCheckFailedException'
  );
}

/**
 * A transaction was cancelled. With `index`, only when the item at that position failed its
 * condition (not a conflict with another transaction, or a throttle).
 */
export function isCancelledTransaction(error: unknown, index?: number): boolean {
  if (!(error instanceof TransactionCanceledException)) return false;
  return index === undefined || error.CancellationReasons?.[index]?.Code === 'ConditionalCheckFailed';
}
