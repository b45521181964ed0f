import { api, must } from '../api/client';
import { ErrorNote, Loading, Page } from '../ui/page';
import { useApi } from '../ui/use-api';
import { useAssistantNames } from './parts/assistant-names';
import { Pager, useCursorPages } from './parts/pager';

/** The business's phone numbers and which assistant answers each (none named: the default assistant). */
export default function Numbers() {
  const pages = useCursorPages();
  const names = useAssistantNames();
  const list = useApi(
    async () => must(await api.GET('/phone-numbers', { params: { query: { ...(pages.cursor && { cursor: pages.cursor }) } } })),
    [pages.cursor],
  );
  return (
    <Page title="Phone numbers">
      <ErrorNote error={list.error} />
      {!list.data && !list.error && <Loading what="phone numbers" />}
      {list.data && list.data.data.length === 0 && <p>No phone numbers yet: your operator adds them (npm run admin -- add-number).</p>}
      {list.data && list.data.data.length > 0 && (
        <table>
          <caption class="sr-only">Phone numbers</caption>
          <thead>
            <tr>
              <th scope="col">Number</th>
              <th scope="col">Label</th>
              <th scope="col">Assistant</th>
              <th scope="col">Carrier</th>
            </tr>
          </thead>
          <tbody>
            {list.data.data.map((number) => (
              <tr key={number.id}>
                <th scope="row">{number.number}</th>
                <td>{number.label || <span class="muted">—</span>}</td>
                <td>
                  {number.assistant_id === null ? (
                    <span class="muted">the default assistant</span>
                  ) : (
                    <a href={`/assistants/${number.assistant_id}`}>{names.get(number.assistant_id) ?? `#${number.assistant_id}`}</a>
                  )}
                </td>
                <td>{number.provider}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager pages={pages} nextCursor={list.data?.next_cursor} label="Phone numbers" />
    </Page>
  );
}
