import { useRoute } from 'preact-iso';
import { api, must, type Schemas } from '../../api/client';
import { ErrorNote, Loading, Page, When } from '../../ui/page';
import { useApi } from '../../ui/use-api';
import { json } from '../parts/format';
import { parameterRows } from '../parts/tool-parameters';

function ParameterTable(props: { tool: Schemas['Tool'] }) {
  const rows = parameterRows(props.tool.parameters);
  if (rows.length === 0) return <p>It takes no arguments.</p>;
  return (
    <table>
      <caption class="sr-only">Parameters</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Type</th>
          <th scope="col">Required</th>
          <th scope="col">Description</th>
          <th scope="col">Rules</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.name}>
            <th scope="row">
              <code>{row.name}</code>
            </th>
            <td>{row.type}</td>
            <td>{row.required ? 'yes' : 'no'}</td>
            <td>{row.description || <span class="muted">—</span>}</td>
            <td>{row.rules.join('; ') || <span class="muted">—</span>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One custom tool, read-only: what the model is told, its parameters, where it is sent, and the whole record as JSON. */
export function ToolPage() {
  const { params } = useRoute();
  const id = Number(params.id);
  const tool = useApi(async () => must(await api.GET('/tools/{tool_id}', { params: { path: { tool_id: id } } })), [id]);
  const data = tool.data;
  return (
    <Page title={data ? `Tool: ${data.name}` : 'Tool'} actions={<a href="/tools">All tools</a>}>
      <ErrorNote error={tool.error} />
      {!data && !tool.error && <Loading what="the tool" />}
      {data && (
        <>
          <dl class="facts">
            <dt>Description</dt>
            <dd>{data.description}</dd>
            <dt>Server</dt>
            <dd>
              <code>{data.server_url}</code>
            </dd>
            <dt>Time limit</dt>
            <dd>{data.timeout_ms.toLocaleString('en-US')} ms</dd>
            <dt>Filler</dt>
            <dd>{data.filler ?? <span class="muted">the standard line</span>}</dd>
            <dt>Updated</dt>
            <dd>
              <When at={data.updated_at} />
            </dd>
          </dl>
          <h2>Parameters</h2>
          <ParameterTable tool={data} />
          <h2>As JSON</h2>
          <pre class="json" tabIndex={0} aria-label="The tool as JSON">
            {json(data)}
          </pre>
        </>
      )}
    </Page>
  );
}
