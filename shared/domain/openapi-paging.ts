import { queryParams, type Json } from './openapi-operations';
import { CursorListQuerySchema, MAX_CURSOR_PAGE, MAX_EXAMINED_PER_PAGE, MAX_LIST_OFFSET, MAX_PAGE_BYTES } from './paging';

/** What the OpenAPI document says about paging a list: the cursor, the page's byte budget and the filters' read bound. */

/** A page stops short of its byte budget. */
export const BYTE_BUDGET = `A page also stops before the item that would take its items past ${MAX_PAGE_BYTES / 1024 / 1024} MiB of JSON (\`has_more\` is then true), so it can hold fewer.`;
/** How a `cursor` parameter is used. */
export const CURSOR =
  'The `next_cursor` of the previous page, unchanged, with the same filters; a cursor of another list, business or filter is a 422.';

const CURSOR_LIST_PARAMS = {
  limit: `At most this many items (1 to ${MAX_CURSOR_PAGE}, default ${MAX_CURSOR_PAGE}). ${BYTE_BUDGET}`,
  cursor: CURSOR,
};

/** How deep an `offset` may go (0 to the bound), in a list's own words ("Assistants to skip, newest first"). */
export const offsetText = (skip: string) => `${skip} (0 to ${MAX_LIST_OFFSET}); not with \`cursor\`.`;

/** The query of a list paged by cursor only (`limit`, `cursor`). */
export function cursorListParameters(): Json[] {
  return queryParams(CursorListQuerySchema, CURSOR_LIST_PARAMS);
}

/** What every list page says about reading: filters examine a bounded number of items, so a page may come back short. */
export const LIST_PAGING_NOTE =
  ` Filters are applied as items are read, at most ${MAX_EXAMINED_PER_PAGE} a page: a page may hold fewer than \`limit\` items, even none, ` +
  'while `has_more` is true; follow `next_cursor` until it is null.';
