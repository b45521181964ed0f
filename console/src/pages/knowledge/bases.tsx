import { useState } from 'preact/hooks';
import { api, apiError, must, type ApiError } from '../../api/client';
import { ErrorNote, Loading, Page, When } from '../../ui/page';
import { useApi } from '../../ui/use-api';
import { Pager, useCursorPages } from '../parts/pager';

/** A form for a new knowledge base: a name and what it is for. */
function NewBase(props: { onCreated: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    const result = await api.POST('/knowledge-bases', { body: { name, description } });
    setBusy(false);
    if (result.error !== undefined) return setError(apiError(result.response.status, result.error));
    setError(undefined);
    setName('');
    setDescription('');
    props.onCreated();
  };
  return (
    <form onSubmit={submit} class="panel" aria-labelledby="new-base">
      <h2 id="new-base">New knowledge base</h2>
      <label for="kb-name">Name</label>
      <input id="kb-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
      <label for="kb-description">Description</label>
      <input id="kb-description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      <ErrorNote error={error} />
      <p>
        <button type="submit" disabled={busy}>
          Create
        </button>
      </p>
    </form>
  );
}

/** The business's knowledge bases, newest first, each a link to its documents and search. */
export function KnowledgeBases() {
  const pages = useCursorPages();
  const list = useApi(
    async () => must(await api.GET('/knowledge-bases', { params: { query: { ...(pages.cursor && { cursor: pages.cursor }) } } })),
    [pages.cursor],
  );
  return (
    <Page title="Knowledge">
      <ErrorNote error={list.error} />
      {!list.data && !list.error && <Loading what="knowledge bases" />}
      {list.data && list.data.data.length === 0 && <p>No knowledge bases yet.</p>}
      {list.data && list.data.data.length > 0 && (
        <table>
          <caption class="sr-only">Knowledge bases</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Description</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {list.data.data.map((base) => (
              <tr key={base.id}>
                <th scope="row">
                  <a href={`/knowledge/${base.id}`}>{base.name}</a>
                </th>
                <td>{base.description || <span class="muted">—</span>}</td>
                <td>
                  <When at={base.updated_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager pages={pages} nextCursor={list.data?.next_cursor} label="Knowledge bases" />
      <NewBase onCreated={list.reload} />
    </Page>
  );
}
