import { useState } from 'preact/hooks';
import { api, apiError, type ApiError } from '../../api/client';
import { Problems } from '../parts/problems';

type Source = 'text' | 'file' | 'url';

/** The API takes a document as JSON: its text (up to 60,000 characters) or a public URL it fetches once. */
const TEXT_LIMIT = 60_000;

/**
 * Adds a document to a base: typed or pasted text, a text or Markdown file read in the browser and
 * sent as text (the API takes no file uploads), or a web page or PDF by URL.
 */
export function Upload(props: { baseId: number; onAdded: () => void }) {
  const [source, setSource] = useState<Source>('text');
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [url, setUrl] = useState('');
  const [error, setError] = useState<ApiError | Error>();
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string>();
  const pick = async (file: File | undefined) => {
    if (!file) return;
    if (!name) setName(file.name.replace(/\.[^.]+$/, ''));
    const content = await file.text();
    setText(content);
    setError(
      content.length > TEXT_LIMIT
        ? new Error(
            `That file has ${content.length.toLocaleString('en-US')} characters; the limit is 60,000. Split it, or publish it and add it by URL.`,
          )
        : undefined,
    );
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    const body = source === 'url' ? { name, url } : { name, text };
    const result = await api.POST('/knowledge-bases/{knowledge_base_id}/documents', {
      params: { path: { knowledge_base_id: props.baseId } },
      body,
    });
    setBusy(false);
    if (result.error !== undefined) return setError(apiError(result.response.status, result.error));
    setError(undefined);
    setNote(`"${name}" was added; it is being read now.`);
    setName('');
    setText('');
    setUrl('');
    props.onAdded();
  };
  return (
    <form onSubmit={submit} class="panel" aria-labelledby="upload">
      <h2 id="upload">Add a document</h2>
      <fieldset>
        <legend>Source</legend>
        {(
          [
            ['text', 'Type or paste text'],
            ['file', 'A text or Markdown file'],
            ['url', 'A web page or PDF by URL'],
          ] as const
        ).map(([value, label]) => (
          <span class="choice" key={value}>
            <input type="radio" id={`src-${value}`} name="source" checked={source === value} onChange={() => setSource(value)} />
            <label for={`src-${value}`}>{label}</label>
          </span>
        ))}
      </fieldset>
      <label for="doc-name">Document name</label>
      <input id="doc-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
      {source === 'file' && (
        <>
          <label for="doc-file">File</label>
          <input
            id="doc-file"
            type="file"
            accept=".txt,.md,.markdown,text/plain,text/markdown"
            onChange={(e) => void pick(e.currentTarget.files?.[0])}
          />
        </>
      )}
      {source !== 'url' && (
        <>
          <label for="doc-text">Text</label>
          <textarea id="doc-text" required value={text} onInput={(e) => setText(e.currentTarget.value)} />
          <p class="hint">{text.length.toLocaleString('en-US')} of 60,000 characters.</p>
        </>
      )}
      {source === 'url' && (
        <>
          <label for="doc-url">URL</label>
          <input id="doc-url" type="url" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
          <p class="hint">A public page or PDF, fetched once (at most 5 MiB).</p>
        </>
      )}
      <Problems error={error} />
      <p role="status" class="ok">
        {note}
      </p>
      <button type="submit" disabled={busy}>
        Add document
      </button>
    </form>
  );
}
