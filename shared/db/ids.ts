import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './client';
import { keys } from './table';

/** How many ids one process takes per counter write. */
export const ID_BLOCK_SIZE = 20;

/**
 * How long a process keeps using a block before it takes a fresh one, even if ids are left: ids
 * then follow creation order across processes (the API's Lambdas, every call-engine task) for
 * records made more than this far apart, so a customer never sees a later call with a much smaller
 * id. The ids left in an old block are skipped.
 */
export const ID_BLOCK_MAX_AGE_MS = 10_000;

/**
 * Hands out integer ids unique across the whole service. Each process reserves a small block of
 * ids with one atomic ADD on the counter item, and uses it for at most 10 s: the counter is
 * written at most once per 20 records (or once per 10 s of a process that creates any), never a
 * hot key, and ids stay unique across any number of instances and roughly follow creation order.
 */
export class IdAllocator {
  private next = 0;
  private end = 0;
  private takenAt = 0;
  private pending: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly blockSize = ID_BLOCK_SIZE,
    private readonly options: { maxAgeMs?: number; now?: () => number } = {},
  ) {}

  /** The next unused id; a counter write happens only when the block is used up or too old. */
  async nextId(): Promise<number> {
    const now = (this.options.now ?? Date.now)();
    if (now - this.takenAt > (this.options.maxAgeMs ?? ID_BLOCK_MAX_AGE_MS)) this.end = this.next;
    while (this.next >= this.end) {
      this.pending ??= this.reserveBlock().finally(() => {
        this.pending = null;
      });
      await this.pending;
    }
    return this.next++;
  }

  private async reserveBlock(): Promise<void> {
    const result = await this.db.doc.send(
      new UpdateCommand({
        TableName: this.db.tableName,
        Key: keys.idCounter(),
        UpdateExpression: 'ADD next_id :block',
        ExpressionAttributeValues: { ':block': this.blockSize },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const top = Number(result.Attributes?.next_id);
    this.next = top - this.blockSize + 1;
    this.end = top + 1;
    this.takenAt = (this.options.now ?? Date.now)();
  }
}
