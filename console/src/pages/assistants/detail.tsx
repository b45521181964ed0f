import { useEffect, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { openApiDoc } from '../../forms/openapi-doc';
import { TalkPanel } from '../../talk/talk-panel';
import { ErrorNote, Loading, Page, When } from '../../ui/page';
import { useApi } from '../../ui/use-api';
import { DeleteAssistant } from './delete-assistant';
import { loadAssistant, type TaggedAssistant } from './load-assistant';
import { SettingsForm } from './settings-form';

/** One assistant: "Talk to it", its settings in generated forms, and delete. */
export default function AssistantPage() {
  const { params } = useRoute();
  const id = Number(params.id);
  const loaded = useApi(async () => Promise.all([loadAssistant(id), openApiDoc()]), [id]);
  // A save answers with the new version: it replaces the loaded one without a second read.
  const [saved, setSaved] = useState<TaggedAssistant>();
  const [announce, setAnnounce] = useState('');
  useEffect(() => setSaved(undefined), [id]);
  const tagged = saved ?? loaded.data?.[0];
  const doc = loaded.data?.[1];
  const title = tagged ? tagged.assistant.name || `Assistant ${tagged.assistant.id}` : 'Assistant';

  return (
    <Page title={title} actions={tagged && <DeleteAssistant tagged={tagged} />}>
      <p>
        <a href="/assistants">All assistants</a>
      </p>
      <ErrorNote error={loaded.error} />
      {loaded.loading && !tagged && <Loading what="the assistant" />}
      {tagged && (
        <p class="muted">
          {tagged.assistant.is_default ? 'The default assistant. ' : ''}
          Mode {tagged.assistant.config.mode}. Changed <When at={tagged.assistant.updated_at} />.
        </p>
      )}
      <p role="status" class="ok">
        {announce}
      </p>
      {tagged && <TalkPanel assistantId={tagged.assistant.id} />}
      {tagged && doc && (
        <SettingsForm
          // A new version remounts the form: its fields start again from what the API now holds.
          key={tagged.etag ?? tagged.assistant.updated_at}
          doc={doc}
          tagged={tagged}
          onSaved={(next) => {
            setSaved(next);
            setAnnounce(`Saved at ${new Date().toLocaleTimeString()}.`);
          }}
        />
      )}
    </Page>
  );
}
