import {
  ConditionalCheckFailedException,
  InternalServerError,
  ProvisionedThroughputExceededException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { isTransientDbError, retryTransient } from '../../../shared/db/transient';

const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });

describe('isTransientDbError', () => {
  it.each([
    ['a server error (DynamoDB Local: timed out waiting for a lock)', new InternalServerError({ message: 'lock', $metadata: {} })],
    ['throttling', new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} })],
    ['a transaction that lost to a concurrent one', cancelled('None', 'TransactionConflict')],
    ['a throttled transaction', cancelled('ThrottlingError', 'None')],
    ['any 5xx', Object.assign(new Error('EventBridge'), { $metadata: { httpStatusCode: 503 } })],
    ['a dropped connection', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })],
  ])('retries %s', (_, error) => {
    // Act / Assert
    expect(isTransientDbError(error)).toBe(true);
  });

  it.each([
    ['a failed condition', new ConditionalCheckFailedException({ message: 'no', $metadata: {} })],
    ['a transaction whose condition failed beside a conflict', cancelled('ConditionalCheckFailed', 'TransactionConflict')],
    ['a validation error', cancelled('ValidationError')],
    ['a plain error', new Error('bug')],
    ['nothing', undefined],
  ])('does not retry %s', (_, error) => {
    // Act / Assert
    expect(isTransientDbError(error)).toBe(false);
  });
});

describe('retryTransient', () => {
  it('retries transient failures up to the tries, pausing between, and throws anything else at once', async () => {
    // Arrange
    const pauses: number[] = [];
    const pause = async (attempt: number) => void pauses.push(attempt);
    let calls = 0;
    const flaky = async () => {
      if (++calls < 3) throw new InternalServerError({ message: 'lock', $metadata: {} });
      return 'done';
    };
    // Act
    const result = await retryTransient(flaky, 8, pause);
    const exhausted = retryTransient(() => Promise.reject(cancelled('TransactionConflict')), 3, pause);
    const permanent = retryTransient(() => Promise.reject(new Error('bug')), 8, pause);
    // Assert
    expect(result).toBe('done');
    await expect(exhausted).rejects.toBeInstanceOf(TransactionCanceledException);
    await expect(permanent).rejects.toThrow('bug');
    expect(pauses).toEqual([0, 1, 0, 1]);
  });
});
