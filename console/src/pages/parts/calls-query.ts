import type { operations, components } from '../../api/schema';

type ListCallsQuery = NonNullable<operations['listCalls']['parameters']['query']>;
type Call = components['schemas']['Call'];

/** The calls list's filters, as the form and the address bar hold them (all text; '' means any). */
export interface CallFilters {
  direction: '' | Call['direction'];
  channel: '' | Call['channel'];
  status: '' | Call['status'];
  outcome: '' | NonNullable<Call['outcome']>;
  /** Local dates (`YYYY-MM-DD`), both inclusive. */
  from: string;
  to: string;
}

/** What GET /calls is sent. */
export type CallsQuery = ListCallsQuery;

export const NO_FILTERS: CallFilters = { direction: '', channel: '', status: '', outcome: '', from: '', to: '' };

export const DIRECTIONS: readonly Call['direction'][] = ['inbound', 'outbound'];
export const CHANNELS: readonly Call['channel'][] = ['phone', 'web'];
export const STATUSES: readonly Call['status'][] = ['queued', 'ringing', 'in_progress', 'ended'];
export const OUTCOMES: readonly NonNullable<Call['outcome']>[] = [
  'resolved',
  'unresolved',
  'appointment_booked',
  'message_taken',
  'transferred',
  'voicemail',
  'no_answer',
  'busy',
  'failed',
];

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function pick<T extends string>(allowed: readonly T[], value: string | undefined): '' | T {
  return allowed.includes(value as T) ? (value as T) : '';
}

/** The filters named in the address bar (`/calls?status=ended&from=2026-11-01`); anything unknown is dropped. */
export function filtersFromSearch(query: Record<string, string | undefined>): CallFilters {
  const date = (value: string | undefined) => (value && DATE.test(value) ? value : '');
  return {
    direction: pick(DIRECTIONS, query.direction),
    channel: pick(CHANNELS, query.channel),
    status: pick(STATUSES, query.status),
    outcome: pick(OUTCOMES, query.outcome),
    from: date(query.from),
    to: date(query.to),
  };
}

/** The filters as an address-bar query string (only those set), so a filtered list can be linked and reloaded. */
export function filtersToSearch(filters: CallFilters): string {
  const set = Object.entries(filters).filter(([, value]) => value !== '');
  return set.length === 0 ? '' : `?${new URLSearchParams(set).toString()}`;
}

/**
 * The instant a local date starts, with the viewer's UTC offset written out (`2026-11-29T00:00:00-05:00`).
 * `offsetMinutes` is `Date#getTimezoneOffset()` of that day (positive west of UTC), passed in to keep this pure.
 */
export function localMidnight(date: string, offsetMinutes: number): string {
  const east = -offsetMinutes;
  const abs = Math.abs(east);
  const zone = `${east < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${date}T00:00:00${zone}`;
}

/** The local date after `date` (`2026-11-30` → `2026-12-01`): the exclusive end of an inclusive "to" date. */
export function nextDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/**
 * GET /calls's query for the filters and page: each filter set becomes its parameter, the dates become
 * `created_after` (the start of "from") and `created_before` (the start of the day after "to").
 * `offsetOf(date)` gives the viewer's UTC offset on a date (`Date#getTimezoneOffset`), so daylight saving is right.
 */
export function callsQuery(filters: CallFilters, page: { cursor?: string; limit: number }, offsetOf: (date: string) => number): CallsQuery {
  const query: CallsQuery = { limit: page.limit };
  if (page.cursor) query.cursor = page.cursor;
  if (filters.direction) query.direction = filters.direction;
  if (filters.channel) query.channel = filters.channel;
  if (filters.status) query.status = filters.status;
  if (filters.outcome) query.outcome = filters.outcome;
  if (filters.from) query.created_after = localMidnight(filters.from, offsetOf(filters.from));
  if (filters.to) {
    const end = nextDate(filters.to);
    query.created_before = localMidnight(end, offsetOf(end));
  }
  return query;
}

/** A "from" after a "to" is the one mistake the form can catch before the API does (a 422 otherwise). */
export function filtersProblem(filters: CallFilters): string | undefined {
  return filters.from && filters.to && filters.from > filters.to ? 'The "From" date is after the "To" date.' : undefined;
}
