/* global document, fetch, sessionStorage, window, React, ReactDOM, GraphiQL */
// Boots GraphiQL from the UMD globals the page loaded before this script. It is a file, not an inline
// script, so the page's Content-Security-Policy can forbid inline scripts.

const KEY_ITEM = 'agentic-rag.apiKey';

/** The API key this tab signed in with: asked for once, kept for the tab's life only. */
function apiKey(ask) {
  let key = sessionStorage.getItem(KEY_ITEM);
  if (!key && ask) {
    key = (
      window.prompt('API key (ar_…; the first start wrote an admin key to DATA_DIR/admin.key)') ?? ''
    ).trim();
    if (key) sessionStorage.setItem(KEY_ITEM, key);
  }
  return key;
}

/**
 * Posts each operation as JSON to the API on this page's origin, with the headers typed in GraphiQL's
 * headers editor, or else the tab's API key. A 401 asks for a key once and retries.
 * `content-type: application/json` also satisfies Apollo's CSRF prevention.
 */
async function fetcher(params, options) {
  const send = (key) => {
    const typed = options?.headers ?? {};
    const typedAuth = Object.keys(typed).some((name) => name.toLowerCase() === 'authorization');
    return fetch('/graphql', {
      method: 'POST',
      credentials: 'same-origin',
      headers: {
        accept: 'application/json',
        ...(key && !typedAuth ? { authorization: `Bearer ${key}` } : {}),
        ...typed,
        'content-type': 'application/json',
      },
      body: JSON.stringify(params),
    });
  };
  let response = await send(apiKey(false));
  if (response.status === 401) {
    sessionStorage.removeItem(KEY_ITEM);
    const key = apiKey(true);
    if (key) response = await send(key);
  }
  return response.json();
}

const root = document.getElementById('graphiql');
// The example the server put in the page (example-query.ts); GraphiQL shows it until the user edits.
ReactDOM.createRoot(root).render(
  React.createElement(GraphiQL, {
    fetcher,
    defaultEditorToolsVisibility: true,
    defaultQuery: root.dataset.defaultQuery,
  }),
);
