import { useEffect, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, must, type Schemas } from '../../api/client';
import { ErrorNote, Loading, Page, When } from '../../ui/page';
import { useApi } from '../../ui/use-api';
import { Pager, useCursorPages } from '../parts/pager';
import { Search } from './search';
import { Upload } from './upload';
import { TableWrap } from '../parts/table-wrap';

/** While a document is being read, the list is read again this often (ingestion takes about a second locally). */
const PROCESSING_REFRESH_MS = 2_000;

function DocumentRow(props: { doc: Schemas['KnowledgeDocument'] }) {
  const { doc } = props;
  return (
    <tr>
      <th scope="row">{doc.url ? <a href={doc.url}>{doc.name}</a> : doc.name}</th>
      <td>{doc.source}</td>
      <td class={doc.status === 'failed' ? 'error' : doc.status === 'ready' ? 'ok' : undefined}>
        {doc.status}
        {doc.failure_reason && <div>{doc.failure_reason}</div>}
        {doc.truncated && <div class="muted">Only its beginning is searchable: split it.</div>}
      </td>
      <td class="num">{doc.chunk_count.toLocaleString('en-US')}</td>
      <td class="num">{doc.characters.toLocaleString('en-US')}</td>
      <td>
        <When at={doc.updated_at} />
      </td>
    </tr>
  );
}

function Documents(props: { docs: Schemas['KnowledgeDocument'][] }) {
  if (props.docs.length === 0) return <p>No documents yet: add one below.</p>;
  return (
    <TableWrap label="Documents table">
      <table>
        <caption class="sr-only">Documents, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Source</th>
            <th scope="col">Status</th>
            <th scope="col" class="num">
              Passages
            </th>
            <th scope="col" class="num">
              Characters
            </th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {props.docs.map((doc) => (
            <DocumentRow key={doc.id} doc={doc} />
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

/** One knowledge base: its documents with their status, a form to add one, and a search to try it. */
export function KnowledgeBase() {
  const { params } = useRoute();
  const id = Number(params.id);
  const pages = useCursorPages();
  const base = useApi(
    async () => must(await api.GET('/knowledge-bases/{knowledge_base_id}', { params: { path: { knowledge_base_id: id } } })),
    [id],
  );
  const docsQuery = { path: { knowledge_base_id: id }, query: { ...(pages.cursor && { cursor: pages.cursor }) } };
  const [processing, setProcessing] = useState(false);
  const docs = useApi(
    async () => must(await api.GET('/knowledge-bases/{knowledge_base_id}/documents', { params: docsQuery })),
    [id, pages.cursor],
    processing ? PROCESSING_REFRESH_MS : undefined,
  );
  useEffect(() => setProcessing(docs.data?.data.some((doc) => doc.status === 'processing') ?? false), [docs.data]);
  return (
    <Page title={base.data ? `Knowledge: ${base.data.name}` : 'Knowledge base'} actions={<a href="/knowledge">All knowledge bases</a>}>
      <ErrorNote error={base.error ?? docs.error} />
      {base.data?.description && <p>{base.data.description}</p>}
      <h2>Documents</h2>
      {!docs.data && !docs.error && <Loading what="documents" />}
      {docs.data && <Documents docs={docs.data.data} />}
      <Pager pages={pages} nextCursor={docs.data?.next_cursor} label="Documents" />
      <div class="grid spaced">
        <Upload baseId={id} onAdded={docs.reload} />
        <Search baseId={id} />
      </div>
    </Page>
  );
}
