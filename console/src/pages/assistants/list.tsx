import { useState } from 'preact/hooks';
import { api, must, type Schemas } from '../../api/client';
import { ErrorNote, Loading, Page, When } from '../../ui/page';
import { useApi } from '../../ui/use-api';

type Assistant = Schemas['Assistant'];

/** The business's assistants, newest first: name, default, mode, last change; each opens its page. */
export default function AssistantList() {
  // Pages after the first are added by "Show more" (the API's cursor); the first page is 200 at most.
  const [more, setMore] = useState<{ items: Assistant[]; cursor: string | null }>({ items: [], cursor: null });
  const [moreError, setMoreError] = useState<Error>();
  const first = useApi(async () => must(await api.GET('/assistants', { params: { query: { limit: 200 } } })), []);
  const cursor = more.items.length > 0 ? more.cursor : (first.data?.next_cursor ?? null);
  const showMore = async () => {
    try {
      const page = must(await api.GET('/assistants', { params: { query: { limit: 200, cursor: cursor ?? undefined } } }));
      setMore({ items: [...more.items, ...page.data], cursor: page.next_cursor });
    } catch (failure) {
      setMoreError(failure as Error);
    }
  };
  const assistants = [...(first.data?.data ?? []), ...more.items];
  return (
    <Page
      title="Assistants"
      actions={
        <a class="button" href="/assistants/new">
          New assistant
        </a>
      }
    >
      <ErrorNote error={first.error} />
      {first.loading && !first.data && <Loading what="assistants" />}
      {first.data && assistants.length === 0 && (
        <p>
          No assistants yet. <a href="/assistants/new">Create the first one</a>.
        </p>
      )}
      {assistants.length > 0 && <AssistantTable assistants={assistants} />}
      <ErrorNote error={moreError} />
      {cursor && (
        <button type="button" class="secondary more" onClick={showMore}>
          Show more
        </button>
      )}
    </Page>
  );
}

function AssistantTable(props: { assistants: Assistant[] }) {
  return (
    <table class="assistants">
      <caption class="sr-only">Assistants, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Default</th>
          <th scope="col">Mode</th>
          <th scope="col">Updated</th>
        </tr>
      </thead>
      <tbody>
        {props.assistants.map((assistant) => (
          <tr key={assistant.id}>
            <th scope="row">
              <a href={`/assistants/${assistant.id}`}>{assistant.name || `Assistant ${assistant.id}`}</a>
            </th>
            <td>{assistant.is_default ? 'Default' : <span class="sr-only">No</span>}</td>
            <td>{assistant.config.mode}</td>
            <td>
              <When at={assistant.updated_at} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
