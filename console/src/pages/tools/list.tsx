import { api, must } from '../../api/client';
import { ErrorNote, Loading, Page, When } from '../../ui/page';
import { useApi } from '../../ui/use-api';
import { Pager, useCursorPages } from '../parts/pager';

/** The business's custom tools, newest first. */
export function ToolList() {
  const pages = useCursorPages();
  const list = useApi(
    async () => must(await api.GET('/tools', { params: { query: { ...(pages.cursor && { cursor: pages.cursor }) } } })),
    [pages.cursor],
  );
  return (
    <Page title="Tools">
      <p class="hint">
        Custom tools: functions on your server the assistant can call during a call. The built-in tools are switched on per assistant.
      </p>
      <ErrorNote error={list.error} />
      {!list.data && !list.error && <Loading what="tools" />}
      {list.data && list.data.data.length === 0 && <p>No custom tools yet (POST /api/v1/tools creates one).</p>}
      {list.data && list.data.data.length > 0 && (
        <table>
          <caption class="sr-only">Custom tools</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Description</th>
              <th scope="col">Server</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {list.data.data.map((tool) => (
              <tr key={tool.id}>
                <th scope="row">
                  <a href={`/tools/${tool.id}`}>{tool.name}</a>
                </th>
                <td>{tool.description}</td>
                <td>
                  <code>{tool.server_url}</code>
                </td>
                <td>
                  <When at={tool.updated_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager pages={pages} nextCursor={list.data?.next_cursor} label="Tools" />
    </Page>
  );
}
