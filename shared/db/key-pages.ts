import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { MAX_EXAMINED_PER_PAGE, MAX_PAGE_BYTES, responseBytes } from '../domain/paging';
import type { Db } from './client';
import { fromItem } from './items';
import { keys, type TableKey } from './table';

/** Where one page of a list starts and how much it may hold. */
export interface KeyPageRequest {
  limit: number;
  /** Continue after this key (an opened cursor). */
  after?: TableKey;
  /** Matching items to skip first, read as keys only: the one read that grows with the request (`offset`). */
  offset?: number;
}

/** One list page as read: each record with its key, and the key to continue after (undefined: the list ended). */
export interface KeyPage<T> {
  entries: { record: T; key: TableKey }[];
  next: TableKey | undefined;
}

/** A query without its paging fields: the reader sets `Limit` and `ExclusiveStartKey`. */
export type PageQuery = Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'>;

/**
 * One page of a query, read by key: at most `limit + 1` items (the extra one tells whether more
 * follow), fewer once the records pass {@link MAX_PAGE_BYTES}, and, for a filtered query, at most
 * {@link MAX_EXAMINED_PER_PAGE} items examined, so a page costs O(limit) reads whatever the list
 * holds. A page cut short by bytes or by the examined bound still has a `next`: a page may then
 * hold fewer than `limit` items, even none.
 *
 * @example
 * const page = await readKeyPage(db, query, pageKeyAttributes(GSI1), { limit: 50, after });
 */
export async function readKeyPage<T>(db: Db, query: PageQuery, keyNames: readonly string[], request: KeyPageRequest): Promise<KeyPage<T>> {
  const keyOf = (item: Record<string, unknown>) => Object.fromEntries(keyNames.map((name) => [name, String(item[name])]));
  let start = request.after;
  if (request.offset) {
    const skipped = await skipMatches(db, query, keyNames, start, request.offset);
    if (skipped === 'end') return { entries: [], next: undefined };
    start = skipped;
  }
  const entries: KeyPage<T>['entries'] = [];
  let bytes = 0;
  let examined = 0;
  let batch = request.limit + 1;
  for (;;) {
    const result = await db.doc.send(
      new QueryCommand({
        ...query,
        TableName: db.tableName,
        Limit: Math.min(batch, MAX_EXAMINED_PER_PAGE - examined),
        ExclusiveStartKey: start,
      }),
    );
    examined += result.ScannedCount ?? 0;
    const items = result.Items ?? [];
    for (const [index, item] of items.entries()) {
      const last = entries.at(-1);
      if (entries.length === request.limit) return { entries, next: last!.key };
      entries.push({ record: fromItem<T>(item), key: keyOf(item) });
      bytes += responseBytes(entries.at(-1)!.record);
      const more = index < items.length - 1 || result.LastEvaluatedKey !== undefined;
      if (bytes > MAX_PAGE_BYTES) return { entries, next: more ? keyOf(item) : undefined };
    }
    start = result.LastEvaluatedKey as TableKey | undefined;
    if (start === undefined) return { entries, next: undefined };
    if (examined >= MAX_EXAMINED_PER_PAGE) return { entries, next: start };
    // A filter left some out: ask for more each round, so a sparse match costs few round trips.
    const need = request.limit + 1 - entries.length;
    batch = (result.Count ?? 0) < (result.ScannedCount ?? 0) ? Math.max(need, batch * 2) : need;
  }
}

/**
 * The key of the `count`-th item the query matches after `start` ('end' when it has fewer),
 * reading keys only: each round trip reads up to 1 MB of items (DynamoDB's page), so skipping N
 * items costs about N item reads and N / 1,000 round trips for items of 1 KB.
 */
async function skipMatches(
  db: Db,
  query: PageQuery,
  keyNames: readonly string[],
  start: TableKey | undefined,
  count: number,
): Promise<TableKey | 'end'> {
  let left = count;
  let from = start;
  const names = { ...query.ExpressionAttributeNames, ...Object.fromEntries(keyNames.map((name) => [`#k_${name}`, name])) };
  for (;;) {
    const result = await db.doc.send(
      new QueryCommand({
        ...query,
        TableName: db.tableName,
        ProjectionExpression: keyNames.map((name) => `#k_${name}`).join(', '),
        ExpressionAttributeNames: names,
        Limit: Math.min(left, 1000),
        ExclusiveStartKey: from,
      }),
    );
    const items = result.Items ?? [];
    if (items.length >= left) return Object.fromEntries(keyNames.map((name) => [name, String(items[left - 1]![name])]));
    left -= items.length;
    from = result.LastEvaluatedKey as TableKey | undefined;
    if (from === undefined) return 'end';
  }
}

/** The query of one business's items under a sort-key prefix, by id, newest or oldest first. */
export function businessPrefixQuery(businessId: number, prefix: string, order: 'newest-first' | 'oldest-first'): PageQuery {
  return {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.business(businessId).pk, ':prefix': prefix },
    ScanIndexForward: order === 'oldest-first',
  };
}
