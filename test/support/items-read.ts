import type { Db } from '../../shared/db/client';

/**
 * The items DynamoDB returned to reads (GetItem, BatchGetItem, and what Query and Scan scanned)
 * through `db` while `work` ran: what a request really read, counted at the client.
 */
export async function countItemsRead(db: Db, work: () => Promise<void>): Promise<number> {
  let items = 0;
  const name = `count-items-${Math.random()}`;
  db.doc.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const output = result.output as { Item?: unknown; ScannedCount?: number; Responses?: Record<string, unknown[]> };
      if (context.commandName === 'GetItemCommand' && output.Item) items++;
      if (context.commandName === 'QueryCommand' || context.commandName === 'ScanCommand') items += output.ScannedCount ?? 0;
      if (context.commandName === 'BatchGetItemCommand') for (const found of Object.values(output.Responses ?? {})) items += found.length;
      return result;
    },
    { step: 'initialize', name },
  );
  try {
    await work();
  } finally {
    db.doc.middlewareStack.remove(name);
  }
  return items;
}
