import { useState } from 'preact/hooks';
import { api, apiError, type ApiError } from '../api/client';
import { forgetKey, storeKey } from '../session';
import { ErrorNote } from '../ui/page';

/** Sign in with an API key: checked against the API once, then kept in session storage only. */
export function SignIn(props: { onSignedIn: () => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    storeKey(key.trim());
    const result = await api.GET('/business');
    setBusy(false);
    if (result.error !== undefined) {
      forgetKey();
      return setError(
        result.response.status === 401
          ? { ...apiError(401, result.error), message: 'That API key was not accepted.' }
          : apiError(result.response.status, result.error),
      );
    }
    props.onSignedIn();
  };
  return (
    <main id="main" class="sign-in">
      <h1>Voice Agent console</h1>
      <form onSubmit={submit}>
        <label for="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autoComplete="off"
          spellcheck={false}
          required
          value={key}
          onInput={(e) => setKey(e.currentTarget.value)}
        />
        <p class="hint">Kept in this tab only (session storage), and sent only to the API.</p>
        <ErrorNote error={error} />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
