import type { ServerResponse } from 'node:http';
import { sendJson } from './carrier-rest';

/**
 * Twilio's 2010-04-01 list pages (`GET …/Calls.json`, `GET …/Messages.json`), as twilio-node's
 * `Page` reads them: the records under one key named after the resource, and the page fields
 * (`page`, `page_size`, `uri`, `first_page_uri`, `next_page_uri`, `previous_page_uri`, `start`,
 * `end`). The SDK follows `next_page_uri` (a path on the same host) until it is null, so
 * `list()` and `each()` page through everything the filter matches. Newest first, as Twilio lists.
 */

/** Twilio's page size bounds: 50 by default, 1000 at most. */
const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 1000;

/** One list resource: where it lives, the key its records go under, and which query filters apply. */
export interface ListResource<T> {
  /** `/2010-04-01/Accounts/{Sid}/Calls.json` */
  path: string;
  key: 'calls' | 'messages';
  /** Oldest first: the page reverses it. */
  records: readonly T[];
  /** Keeps a record when every filter given in the query matches it. */
  matches: (record: T, query: URLSearchParams) => boolean;
  view: (record: T) => Record<string, unknown>;
}

/** The query filters of a list request, passed on to every page URI. */
const PAGING = new Set(['Page', 'PageSize', 'PageToken']);

/** Answers one page of a list (a page size outside 1–1000 is brought inside it). */
export function answerListPage<T>(resource: ListResource<T>, query: URLSearchParams, res: ServerResponse): void {
  const pageSize = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.trunc(Number(query.get('PageSize'))) || DEFAULT_PAGE_SIZE));
  const page = Math.max(0, Math.trunc(Number(query.get('Page'))) || 0);
  const matching = resource.records.filter((record) => resource.matches(record, query)).reverse();
  const start = page * pageSize;
  const records = matching.slice(start, start + pageSize);
  const filters = [...query].filter(([name]) => !PAGING.has(name));
  const uriOf = (n: number) => {
    const params = new URLSearchParams([...filters, ['PageSize', String(pageSize)], ['Page', String(n)]]);
    return `${resource.path}?${params}`;
  };
  sendJson(res, 200, {
    [resource.key]: records.map(resource.view),
    page,
    page_size: pageSize,
    start,
    end: start + Math.max(records.length - 1, 0),
    uri: uriOf(page),
    first_page_uri: uriOf(0),
    next_page_uri: start + pageSize < matching.length ? uriOf(page + 1) : null,
    previous_page_uri: page > 0 ? uriOf(page - 1) : null,
  });
}

/** True when the query names no value for `name`, or the record's value equals it. */
export function filterMatches(query: URLSearchParams, name: string, value: string | null | undefined): boolean {
  const wanted = query.get(name);
  return wanted === null || wanted === value;
}
