import { useState } from 'preact/hooks';
import { api, must, type Schemas } from '../api/client';
import { ErrorNote, Loading, Page, When } from '../ui/page';
import { useApi } from '../ui/use-api';
import { DateField, EnumSelect } from './parts/fields';
import { Pager, useCursorPages } from './parts/pager';
import { TableWrap } from './parts/table-wrap';

const URGENCY = ['true', 'false'] as const;

function MessageRow(props: { message: Schemas['Message'] }) {
  const { message } = props;
  return (
    <tr>
      <td>
        <When at={message.created_at} />
      </td>
      <td>
        {message.caller_name || <span class="muted">no name given</span>}
        <div>{message.caller_number}</div>
      </td>
      <td class="summary">{message.body}</td>
      <td class={message.urgent ? 'error' : undefined}>{message.urgent ? 'Urgent' : 'No'}</td>
      <td>{message.source === 'take_message' ? 'Message' : 'Alert'}</td>
      <td>
        <a href={`/calls/${message.call_id}`}>Call {message.call_id}</a>
      </td>
    </tr>
  );
}

/**
 * The messages callers left (take_message) and the alerts the assistant raised (notify_team), newest
 * first. The API has no "handled" state for a message, so there is nothing to mark here.
 */
export default function Messages() {
  const [filters, setFilters] = useState({ from: '', to: '', urgent: '' as '' | (typeof URGENCY)[number] });
  const [draft, setDraft] = useState(filters);
  const pages = useCursorPages();
  const list = useApi(async () => {
    const query = {
      limit: 50,
      ...(pages.cursor && { cursor: pages.cursor }),
      ...(filters.from && { from: filters.from }),
      ...(filters.to && { to: filters.to }),
      ...(filters.urgent && { urgent: filters.urgent }),
    };
    return must(await api.GET('/messages', { params: { query } }));
  }, [filters, pages.cursor]);
  const apply = (event: Event) => {
    event.preventDefault();
    pages.reset();
    setFilters(draft);
  };
  return (
    <Page title="Messages">
      <form class="filters" onSubmit={apply} aria-label="Filter messages">
        <DateField id="m-from" label="From" value={draft.from} onChange={(from) => setDraft({ ...draft, from })} />
        <DateField id="m-to" label="Before" value={draft.to} onChange={(to) => setDraft({ ...draft, to })} />
        <EnumSelect
          id="m-urgent"
          label="Urgent"
          value={draft.urgent}
          options={URGENCY}
          labels={{ true: 'Urgent only', false: 'Not urgent' }}
          onChange={(urgent) => setDraft({ ...draft, urgent })}
        />
        <div class="filter-buttons">
          <button type="submit">Apply filters</button>
        </div>
      </form>
      <ErrorNote error={list.error} />
      {!list.data && !list.error && <Loading what="messages" />}
      {list.data && list.data.data.length === 0 && <p>No messages here.</p>}
      {list.data && list.data.data.length > 0 && (
        <TableWrap label="Messages table">
          <table>
            <caption class="sr-only">Messages, newest first</caption>
            <thead>
              <tr>
                {['When', 'Caller', 'Message', 'Urgent', 'Kind', 'Call'].map((h) => (
                  <th key={h} scope="col">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((message) => (
                <MessageRow key={message.id} message={message} />
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      <Pager pages={pages} nextCursor={list.data?.next_cursor} label="Messages" />
    </Page>
  );
}
