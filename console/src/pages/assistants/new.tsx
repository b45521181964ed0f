import { useMemo, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, apiError, type ApiError, type Schemas } from '../../api/client';
import { defaultValue, getAt } from '../../forms/form-values';
import { openApiDoc } from '../../forms/openapi-doc';
import { ErrorSummary, SchemaFields } from '../../forms/schema-form';
import { describeFields, type FieldNode, type GroupField, type OpenApiDoc } from '../../forms/schema-fields';
import { useSchemaForm } from '../../forms/use-form';
import { ErrorNote, Loading, Page } from '../../ui/page';
import { useApi } from '../../ui/use-api';

/** How a new assistant starts: one of the API's templates, or the plain-language setup (`config.setup`). */
type Start = 'template' | 'setup';

/**
 * The fields of both ways to start, generated from the create body and the config's `setup`
 * (its group kept, so a 422 there reads "Setup › Name", not "Name").
 */
function createFields(doc: OpenApiDoc): { name: FieldNode[]; template: FieldNode[]; setup: GroupField } {
  const body = { $ref: '#/components/schemas/CreateAssistantBody' };
  const [setup] = describeFields(doc, { $ref: '#/components/schemas/AssistantConfigInput' }, ['config'], ['setup']);
  if (setup?.kind !== 'group') throw new Error("The API's assistant config has no setup.");
  return { name: describeFields(doc, body, [], ['name']), template: describeFields(doc, body, [], ['template']), setup };
}

/** New assistant: a name, then a template or the plain-language setup; on success its page opens. */
export default function NewAssistant() {
  const doc = useApi(openApiDoc, []);
  return (
    <Page title="New assistant">
      <ErrorNote error={doc.error} />
      {doc.loading && <Loading what="the form" />}
      {doc.data && <CreateForm doc={doc.data} />}
    </Page>
  );
}

function CreateForm(props: { doc: OpenApiDoc }) {
  const { route } = useLocation();
  const fields = useMemo(() => createFields(props.doc), [props.doc]);
  const all = useMemo(() => [...fields.name, ...fields.template, fields.setup], [fields]);
  const form = useSchemaForm(all, defaultValue(all));
  const [start, setStart] = useState<Start>('template');
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  // One key for this form: a double submit creates one assistant (only a 2xx is remembered, so a corrected retry is fine).
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    form.clearErrors();
    if (!form.check()) return;
    const name = getAt(form.value, ['name']) as string;
    const body =
      start === 'template'
        ? { name, template: getAt(form.value, ['template']) as Schemas['CreateAssistantBody']['template'] }
        : { name, config: { setup: getAt(form.value, ['config', 'setup']) as Schemas['SimpleSetupInput'] } };
    setBusy(true);
    const result = await api.POST('/assistants', { body, headers: { 'Idempotency-Key': idempotencyKey } });
    setBusy(false);
    if (result.data) return route(`/assistants/${result.data.id}`);
    const failure = apiError(result.response.status, result.error);
    if (!form.showApiError(failure)) setError(failure);
  };
  return (
    <form onSubmit={submit} noValidate>
      <ErrorSummary items={form.summary} />
      <SchemaFields nodes={fields.name} state={form.state} />
      <fieldset class="form-group">
        <legend>Start from</legend>
        <StartChoice value="template" start={start} onPick={setStart} label="A template" />
        <StartChoice value="setup" start={start} onPick={setStart} label="A plain-language setup" />
        <p class="hint">
          A template brings a prompt, a greeting and analysis fields for its role. The setup writes the prompt from your own words; every
          other setting starts at its default.
        </p>
      </fieldset>
      {start === 'template' ? (
        <SchemaFields nodes={fields.template} state={form.state} />
      ) : (
        <fieldset id={fields.setup.id} class="form-group" tabIndex={-1}>
          <legend>Setup</legend>
          <SchemaFields nodes={fields.setup.children} state={form.state} />
        </fieldset>
      )}
      <ErrorNote error={error} />
      <div class="form-actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create assistant'}
        </button>
        <a href="/assistants">Cancel</a>
      </div>
    </form>
  );
}

function StartChoice(props: { value: Start; start: Start; label: string; onPick: (start: Start) => void }) {
  const id = `start-${props.value}`;
  return (
    <div class="form-check">
      <input id={id} type="radio" name="start" checked={props.start === props.value} onChange={() => props.onPick(props.value)} />
      <label for={id}>{props.label}</label>
    </div>
  );
}
