import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './client';
import { keys } from './table';

/** How many ids one process takes per counter write; the counter item is written once per block. */
export const ID_BLOCK_SIZE = 100;

/**
 * Hands out integer ids unique across the whole service. Each process reserves a block of ids
 * with one atomic ADD on the counter item, so the counter is touched once per 100 records instead
 * of once per record (no hot key), and ids stay unique across any number of Lambda instances.
 */
export class IdAllocator {
  private next = 0;
  private end = 0;
  private pending: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly blockSize = ID_BLOCK_SIZE,
  ) {}

  /** The next unused id; a counter write happens only when the block is used up. */
  async nextId(): Promise<number> {
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
  }
}
