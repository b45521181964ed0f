import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, apiError, type ApiError } from '../../api/client';
import { ErrorNote } from '../../ui/page';
import type { TaggedAssistant } from './load-assistant';

/** "Delete assistant", then a confirmation in place: the version shown is the one deleted (If-Match). */
export function DeleteAssistant(props: { tagged: TaggedAssistant }) {
  const { route } = useLocation();
  const { assistant, etag } = props.tagged;
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<ApiError>();
  const question = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (asking) question.current?.focus();
  }, [asking]);
  const confirm = async () => {
    const result = await api.DELETE('/assistants/{assistant_id}', {
      params: { path: { assistant_id: assistant.id }, header: etag ? { 'If-Match': etag } : undefined },
    });
    if (result.data) return route('/assistants');
    const failure = apiError(result.response.status, result.error);
    setError(
      failure.status === 412 ? { ...failure, message: 'It was changed since this page loaded. Reload the page, then delete it.' } : failure,
    );
  };
  if (!asking) {
    return (
      <button type="button" class="danger" onClick={() => setAsking(true)}>
        Delete assistant
      </button>
    );
  }
  return (
    <div class="confirm" role="group" aria-labelledby="delete-question">
      <p id="delete-question" ref={question} tabIndex={-1}>
        Delete {assistant.name ? `"${assistant.name}"` : 'this assistant'}? Its calls keep their records
        {assistant.is_default ? '; the oldest remaining assistant becomes the default' : ''}.
      </p>
      <ErrorNote error={error} />
      <button type="button" class="danger" onClick={confirm}>
        Yes, delete it
      </button>{' '}
      <button type="button" class="secondary" onClick={() => setAsking(false)}>
        Keep it
      </button>
    </div>
  );
}
