/* global BroadcastChannel, clearTimeout, document, fetch, sessionStorage, setTimeout, React, ReactDOM, GraphiQL */
// Boots GraphiQL from the UMD globals the page loaded before this script. It is a file, not an inline
// script, so the page's Content-Security-Policy can forbid inline scripts.

const { createElement, Fragment, useEffect, useMemo, useState } = React;

// The console's sign-in, shared by tabs of this origin: the protocol is described once, in
// apps/console/src/session/shared-session.ts. This plain script cannot import it, so these two names
// must match it and session.ts. The explorer only asks and listens; it never sends the key.
const KEY_ITEM = 'agentic-rag.apiKey';
const SESSION_CHANNEL = 'agentic-rag-session';
/** How long open console tabs have to answer before the explorer asks the user for a key. */
const ANSWER_WAIT_MS = 500;

const SIGN_IN_HINT =
  'Sign in to the console in this browser, or paste a key (ar_…; the first start of the API wrote an admin ' +
  'key to DATA_DIR/admin.key). It is kept in this tab only.';

/**
 * Posts each operation as JSON to the API on this page's origin, with the headers typed in GraphiQL's
 * headers editor, or else the tab's API key; a 401 for that key calls `onRefused`. With neither there is
 * nothing to send: the answer says to sign in. `content-type: application/json` also satisfies Apollo's
 * CSRF prevention.
 */
function createFetcher(apiKey, onRefused) {
  return async (params, options) => {
    const typed = options?.headers ?? {};
    const typedAuth = Object.keys(typed).some((name) => name.toLowerCase() === 'authorization');
    if (!apiKey && !typedAuth) return { errors: [{ message: 'Not signed in: paste an API key above.' }] };
    const response = await fetch('/graphql', {
      method: 'POST',
      credentials: 'same-origin',
      headers: {
        accept: 'application/json',
        ...(typedAuth ? {} : { authorization: `Bearer ${apiKey}` }),
        ...typed,
        'content-type': 'application/json',
      },
      body: JSON.stringify(params),
    });
    if (response.status === 401 && !typedAuth) onRefused();
    return response.json();
  };
}

/** The field shown above GraphiQL while the tab has no key. */
function SignIn({ notice, onKey }) {
  const [draft, setDraft] = useState('');
  const submit = (event) => {
    event.preventDefault();
    const key = draft.trim();
    if (key) onKey(key);
  };
  return createElement(
    'form',
    { className: 'explorer-sign-in', 'aria-label': 'Sign in', onSubmit: submit },
    createElement('label', { htmlFor: 'explorer-api-key' }, 'API key'),
    createElement('input', {
      id: 'explorer-api-key',
      type: 'password',
      autoComplete: 'off',
      spellCheck: false,
      placeholder: 'ar_…',
      value: draft,
      onChange: (event) => setDraft(event.target.value),
      required: true,
    }),
    createElement('button', { type: 'submit' }, 'Use key'),
    createElement('p', { role: 'status' }, notice ? `${notice} ${SIGN_IN_HINT}` : SIGN_IN_HINT),
  );
}

/**
 * GraphiQL with the tab's key. Without one it first asks the console tabs; GraphiQL waits for their
 * answer, so its first requests already carry the key. A new key makes a new fetcher, and GraphiQL
 * fetches the schema again with it.
 */
function Explorer({ defaultQuery }) {
  const [apiKey, setApiKey] = useState(() => sessionStorage.getItem(KEY_ITEM));
  const [asking, setAsking] = useState(() => !sessionStorage.getItem(KEY_ITEM));
  const [notice, setNotice] = useState(null);
  const keep = (key) => {
    sessionStorage.setItem(KEY_ITEM, key);
    setApiKey(key);
    setAsking(false);
    setNotice(null);
  };
  const forget = (why) => {
    sessionStorage.removeItem(KEY_ITEM);
    setApiKey(null);
    setAsking(false);
    setNotice(why);
  };

  useEffect(() => {
    const channel = new BroadcastChannel(SESSION_CHANNEL);
    channel.onmessage = ({ data }) => {
      if (data?.type === 'key' && typeof data.apiKey === 'string' && data.apiKey) {
        if (!sessionStorage.getItem(KEY_ITEM)) keep(data.apiKey);
      } else if (data?.type === 'signed-out') {
        forget('The console signed out.');
      }
    };
    if (sessionStorage.getItem(KEY_ITEM)) return () => channel.close();
    channel.postMessage({ type: 'key-request' });
    const timer = setTimeout(() => setAsking(false), ANSWER_WAIT_MS);
    return () => {
      clearTimeout(timer);
      channel.close();
    };
  }, []);

  const fetcher = useMemo(
    () => createFetcher(apiKey, () => forget('The API refused that key (401).')),
    [apiKey],
  );
  if (asking) return null;
  return createElement(
    Fragment,
    null,
    apiKey ? null : createElement(SignIn, { notice, onKey: keep }),
    createElement(GraphiQL, { fetcher, defaultEditorToolsVisibility: true, defaultQuery }),
  );
}

const root = document.getElementById('graphiql');
// The example the server put in the page (example-query.ts); GraphiQL shows it until the user edits.
ReactDOM.createRoot(root).render(createElement(Explorer, { defaultQuery: root.dataset.defaultQuery }));
