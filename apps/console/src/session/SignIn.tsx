import { useState, type FormEvent } from 'react';
import { graphql, asApiError, type ApiError } from '../api/graphql.js';
import { PING } from '../api/operations.js';
import { ErrorMessage } from '../layout/ErrorMessage.js';

/** Asks for an API key and checks it with the API before keeping it. */
export function SignIn({ onSignedIn }: { onSignedIn: (apiKey: string) => void }) {
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [checking, setChecking] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const key = apiKey.trim();
    if (!key) return;
    setChecking(true);
    setError(null);
    try {
      await graphql(key, PING);
      onSignedIn(key);
    } catch (caught) {
      setError(asApiError(caught));
      setChecking(false);
    }
  };

  return (
    <main className="sign-in">
      <h1>agentic-rag console</h1>
      <form onSubmit={(event) => void submit(event)}>
        <label htmlFor="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder="ar_…"
          value={apiKey}
          onChange={(event) => setApiKey(event.target.value)}
          required
        />
        <p className="hint">
          Kept in sessionStorage by this tab and the console and explorer tabs opened in this browser while it
          is signed in; signing out forgets it in all of them. The first start of the API wrote an admin key
          to DATA_DIR/admin.key; <code>pnpm rag:keys</code> makes others.
        </p>
        <button type="submit" disabled={checking}>
          {checking ? 'Checking…' : 'Sign in'}
        </button>
      </form>
      <ErrorMessage error={error} />
    </main>
  );
}
