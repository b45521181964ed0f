import { useState } from 'preact/hooks';
import { api, apiError, type ApiError, type Schemas } from '../../api/client';
import { Problems } from '../parts/problems';

/** Tries a question against a base as the assistant would search it, and shows the passages found with their scores. */
export function Search(props: { baseId: number }) {
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<Schemas['KnowledgeSearchResult']['data']>();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    const result = await api.POST('/knowledge-bases/{knowledge_base_id}/search', {
      params: { path: { knowledge_base_id: props.baseId } },
      body: { query, top_k: 5 },
    });
    setBusy(false);
    if (result.error !== undefined) return setError(apiError(result.response.status, result.error));
    setError(undefined);
    setResults(result.data.data);
  };
  return (
    <section aria-labelledby="try-search">
      <h2 id="try-search">Try a search</h2>
      <form onSubmit={submit} class="search">
        <label for="kb-search">Search</label>
        <input id="kb-search" type="search" required value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
        <button type="submit" disabled={busy}>
          Search
        </button>
      </form>
      <Problems error={error} />
      <div role="status">{results && `${results.length} passage${results.length === 1 ? '' : 's'} found.`}</div>
      {results && results.length > 0 && (
        <ol class="results">
          {results.map((hit, i) => (
            <li key={i}>
              <p class="muted">
                {hit.document_name} · score {hit.score.toFixed(2)}
              </p>
              <blockquote>{hit.text}</blockquote>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
