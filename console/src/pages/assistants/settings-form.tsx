import { useMemo, useState } from 'preact/hooks';
import { api, apiError, type ApiError, type Schemas } from '../../api/client';
import { mergePatch } from '../../forms/form-values';
import { ErrorSummary, SchemaFields } from '../../forms/schema-form';
import { describeFields, type OpenApiDoc } from '../../forms/schema-fields';
import { useSchemaForm } from '../../forms/use-form';
import { ErrorNote } from '../../ui/page';
import type { TaggedAssistant } from './load-assistant';

/** The media type of a merge patch (RFC 7396): the API then changes only the members sent. */
const MERGE_PATCH = 'application/merge-patch+json';

/**
 * The assistant's name and settings, in fields generated from `UpdateAssistantBody` in the
 * API's OpenAPI document. Save sends only what changed, as a merge patch, on the version shown
 * (If-Match), so a change made elsewhere meanwhile is a 412, not silently overwritten.
 */
export function SettingsForm(props: { doc: OpenApiDoc; tagged: TaggedAssistant; onSaved: (tagged: TaggedAssistant) => void }) {
  const { assistant, etag } = props.tagged;
  const nodes = useMemo(() => describeFields(props.doc, { $ref: '#/components/schemas/UpdateAssistantBody' }), [props.doc]);
  const original = useMemo(() => ({ name: assistant.name, config: assistant.config }), [assistant]);
  const form = useSchemaForm(nodes, original);
  const [error, setError] = useState<ApiError>();
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);

  const save = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setNote('');
    form.clearErrors();
    if (!form.check()) return;
    const patch = mergePatch(original, form.value);
    if (patch === undefined) return setNote('Nothing has changed.');
    setBusy(true);
    const result = await api.PATCH('/assistants/{assistant_id}', {
      params: { path: { assistant_id: assistant.id }, header: etag ? { 'If-Match': etag } : undefined },
      headers: { 'content-type': MERGE_PATCH },
      // A merge patch is not an UpdateAssistantBody (null resets a setting); the API validates the merged result.
      body: patch as Schemas['UpdateAssistantBody'],
    });
    setBusy(false);
    if (result.data) return props.onSaved({ assistant: result.data, etag: result.response.headers.get('etag') ?? undefined });
    const failure = apiError(result.response.status, result.error);
    if (failure.status === 412) {
      return setError({
        ...failure,
        message: 'This assistant was changed elsewhere since the page loaded. Reload the page to see it, then make your change again.',
      });
    }
    if (!form.showApiError(failure)) setError(failure);
  };

  return (
    <form class="settings" onSubmit={save} noValidate aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      <ErrorSummary items={form.summary} />
      <SchemaFields nodes={nodes} state={form.state} />
      <ErrorNote error={error} />
      <div class="form-actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save changes'}
        </button>
        <p role="status" class="muted">
          {note}
        </p>
      </div>
    </form>
  );
}
