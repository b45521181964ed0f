import { useRoute } from 'preact-iso';
import { api, must, type Schemas } from '../../api/client';
import { ErrorNote, Loading, Page } from '../../ui/page';
import { useApi } from '../../ui/use-api';
import { nodeEdges, nodeSummary, nodesInOrder, workflowSummary } from '../parts/workflow-graph';

const anchor = (id: string) => `node-${encodeURIComponent(id)}`;

/**
 * The graph as a nested list, in the order a call meets the nodes: each node with its type and what it
 * does, and under it each edge as a link to the node it leads to (keyboard and screen reader friendly;
 * the same page is its own text alternative, with a summary above it).
 */
function Graph(props: { workflow: Schemas['Workflow'] }) {
  const nodes = nodesInOrder(props.workflow);
  const known = new Set(nodes.map((node) => node.id));
  return (
    <ol class="graph">
      {nodes.map((node) => {
        const edges = nodeEdges(node);
        return (
          <li key={node.id} id={anchor(node.id)} class={`node ${node.type}`} tabIndex={-1}>
            <h3>
              <code>{node.id}</code> <span class="badge">{node.type}</span>
              {node.id === props.workflow.start && <span class="badge start">start</span>}
            </h3>
            <p>{nodeSummary(node)}</p>
            {edges.length > 0 ? (
              <ul class="edges" aria-label={`Edges from ${node.id}`}>
                {edges.map((edge, i) => (
                  <li key={i}>
                    {edge.when} → {known.has(edge.to) ? <a href={`#${anchor(edge.to)}`}>{edge.to}</a> : <code>{edge.to}</code>}
                  </li>
                ))}
              </ul>
            ) : (
              <p class="muted">The call ends here.</p>
            )}
          </li>
        );
      })}
    </ol>
  );
}

/** One workflow, read-only: a summary in words, then every node and edge. */
export function WorkflowPage() {
  const { params } = useRoute();
  const id = Number(params.id);
  const workflow = useApi(async () => must(await api.GET('/workflows/{workflow_id}', { params: { path: { workflow_id: id } } })), [id]);
  const data = workflow.data;
  return (
    <Page title={data ? `Workflow: ${data.name}` : 'Workflow'} actions={<a href="/workflows">All workflows</a>}>
      <ErrorNote error={workflow.error} />
      {!data && !workflow.error && <Loading what="the workflow" />}
      {data && (
        <>
          <p>{workflowSummary(data)}</p>
          <h2>Nodes</h2>
          <Graph workflow={data} />
        </>
      )}
    </Page>
  );
}
