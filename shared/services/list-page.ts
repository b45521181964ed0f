import { MAX_PAGE_BYTES, takeWithinBytes } from '../domain/paging';
import type { KeyPage } from '../db/key-pages';
import type { CursorScope, PageCursors } from '../db/page-cursor';
import type { TableKey } from '../db/table';

/** What every list answers: the items, whether more follow, and the cursor that reads them (null on the last page). */
export interface ListPage<V> {
  data: V[];
  has_more: boolean;
  next_cursor: string | null;
}

/** The cursors of a service built where lists are served (the API); a process that only writes has none. */
export function listCursors(cursors: PageCursors | undefined): PageCursors {
  if (!cursors) throw new Error('This process serves no lists: its service was built without cursors.');
  return cursors;
}

/** The key a request's `cursor` continues after, or undefined without one (a 422 when it is not this list's). */
export async function openCursor(cursors: PageCursors, scope: CursorScope, cursor: string | undefined): Promise<TableKey | undefined> {
  return cursor === undefined ? undefined : cursors.open(scope, cursor);
}

/**
 * A page as the API answers it: the records as views, cut to {@link MAX_PAGE_BYTES} (a response
 * Lambda can always return), and a `next_cursor` right after the last item returned.
 *
 * @example
 * return listPage(await repo.pageTools(businessId, { limit, after }), toToolView, cursors, scope);
 */
export async function listPage<T, V>(
  page: KeyPage<T>,
  view: (record: T) => V,
  cursors: PageCursors,
  scope: CursorScope,
): Promise<ListPage<V>> {
  const views = page.entries.map((entry) => view(entry.record));
  const data = takeWithinBytes(views, MAX_PAGE_BYTES);
  const next = data.length < views.length ? page.entries[data.length - 1]!.key : page.next;
  return { data, has_more: next !== undefined, next_cursor: next === undefined ? null : await cursors.seal(scope, next) };
}
