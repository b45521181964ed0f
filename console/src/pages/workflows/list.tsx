import { api, must } from '../../api/client';
import { ErrorNote, Loading, Page, When } from '../../ui/page';
import { useApi } from '../../ui/use-api';
import { Pager, useCursorPages } from '../parts/pager';

/** The business's workflows, newest first. */
export function WorkflowList() {
  const pages = useCursorPages();
  const list = useApi(
    async () => must(await api.GET('/workflows', { params: { query: { ...(pages.cursor && { cursor: pages.cursor }) } } })),
    [pages.cursor],
  );
  return (
    <Page title="Workflows">
      <ErrorNote error={list.error} />
      {!list.data && !list.error && <Loading what="workflows" />}
      {list.data && list.data.data.length === 0 && <p>No workflows yet (POST /api/v1/workflows creates one).</p>}
      {list.data && list.data.data.length > 0 && (
        <table>
          <caption class="sr-only">Workflows</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Starts at</th>
              <th scope="col" class="num">
                Nodes
              </th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {list.data.data.map((workflow) => (
              <tr key={workflow.id}>
                <th scope="row">
                  <a href={`/workflows/${workflow.id}`}>{workflow.name}</a>
                </th>
                <td>
                  <code>{workflow.start}</code>
                </td>
                <td class="num">{workflow.nodes.length}</td>
                <td>
                  <When at={workflow.updated_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager pages={pages} nextCursor={list.data?.next_cursor} label="Workflows" />
    </Page>
  );
}
