import { useMemo } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, must, type Schemas } from '../../api/client';
import { useApi } from '../../ui/use-api';
import { Loading, Page, When } from '../../ui/page';
import { callsQuery, filtersFromSearch, filtersToSearch, type CallFilters } from '../parts/calls-query';
import { duration, words } from '../parts/format';
import { Pager, useCursorPages } from '../parts/pager';
import { Problems } from '../parts/problems';
import { useAssistantNames } from '../parts/assistant-names';
import { CallFiltersForm } from './filters';
import { TableWrap } from '../parts/table-wrap';

/** How often the list reads itself again while the tab is visible. */
const REFRESH_MS = 5_000;
const PAGE_SIZE = 25;

const offsetOf = (date: string) => new Date(`${date}T00:00:00`).getTimezoneOffset();

function CallRow(props: { call: Schemas['Call']; assistant: string | undefined }) {
  const { call } = props;
  return (
    <tr>
      <td>
        <a href={`/calls/${call.id}`}>
          <When at={call.created_at} />
        </a>
      </td>
      <td>{call.direction}</td>
      <td>{call.channel}</td>
      <td>
        {call.from_number || '—'} → {call.to_number || '—'}
      </td>
      <td>{props.assistant ?? `#${call.assistant_id}`}</td>
      <td>{words(call.status)}</td>
      <td>{words(call.outcome)}</td>
      <td class="num">{duration(call.duration_s)}</td>
      <td class="summary">{call.summary || <span class="muted">—</span>}</td>
    </tr>
  );
}

function CallTable(props: { calls: Schemas['Call'][]; names: Map<number, string>; filtered: boolean }) {
  if (props.calls.length === 0)
    return (
      <p>
        {props.filtered ? 'No calls on this page match the filters.' : 'No calls yet: place one, or press "Talk to it" on an assistant.'}
      </p>
    );
  return (
    <TableWrap label="Calls table">
      <table>
        <caption class="sr-only">Calls, newest first</caption>
        <thead>
          <tr>
            {['When', 'Direction', 'Channel', 'From → to', 'Assistant', 'Status', 'Outcome', 'Duration', 'Summary'].map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.calls.map((call) => (
            <CallRow key={call.id} call={call} assistant={props.names.get(call.assistant_id)} />
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

/**
 * Calls, newest first: filtered through the address bar (so a filtered list can be shared), paged by
 * cursor, and read again every 5 s while visible. A re-read replaces the rows in place (keyed by id),
 * so focus and scroll stay where they were, and nothing is announced.
 */
export default function CallList() {
  const { query, route } = useLocation();
  const filters = useMemo(() => filtersFromSearch(query), [JSON.stringify(query)]);
  const key = filtersToSearch(filters);
  const pages = useCursorPages();
  const names = useAssistantNames();
  const calls = useApi(
    async () => ({
      key: `${key}#${pages.cursor ?? ''}`,
      page: must(await api.GET('/calls', { params: { query: callsQuery(filters, { cursor: pages.cursor, limit: PAGE_SIZE }, offsetOf) } })),
    }),
    [key, pages.cursor],
    REFRESH_MS,
  );
  const apply = (next: CallFilters) => {
    pages.reset();
    route(`/calls${filtersToSearch(next)}`);
  };
  const current = calls.data?.key === `${key}#${pages.cursor ?? ''}` ? calls.data.page : undefined;
  return (
    <Page title="Calls">
      <CallFiltersForm value={filters} onApply={apply} />
      <Problems error={calls.error} />
      {!current && !calls.error && <Loading what="calls" />}
      {current && (
        <>
          <CallTable calls={current.data} names={names} filtered={filtersToSearch(filters) !== ''} />
          {current.data.length === 0 && current.has_more && <p class="muted">More calls are further on: the API filters as it reads.</p>}
          <Pager pages={pages} nextCursor={current.next_cursor} label="Calls" />
        </>
      )}
    </Page>
  );
}
