/* global document, fetch, React, ReactDOM, GraphiQL */
// Boots GraphiQL from the UMD globals the page loaded before this script. It is a file, not an inline
// script, so the page's Content-Security-Policy can forbid inline scripts.

/**
 * Posts each operation as JSON to the API on this page's origin, with the headers typed in GraphiQL's
 * headers editor. `content-type: application/json` also satisfies Apollo's CSRF prevention.
 */
async function fetcher(params, options) {
  const response = await fetch('/graphql', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { accept: 'application/json', ...options?.headers, 'content-type': 'application/json' },
    body: JSON.stringify(params),
  });
  return response.json();
}

ReactDOM.createRoot(document.getElementById('graphiql')).render(
  React.createElement(GraphiQL, { fetcher, defaultEditorToolsVisibility: true }),
);
