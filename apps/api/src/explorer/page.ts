import type { ExplorerAssets } from './assets.js';

export const EXPLORER_PATH = '/explorer';
export const ASSETS_PATH = `${EXPLORER_PATH}/assets/`;

/** Text safe inside a double-quoted HTML attribute. */
function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The explorer's HTML. Asset names are generated, never user input, so they need no escaping; the
 * example query travels in a data attribute because the CSP allows no inline script.
 */
export function renderExplorerPage(assets: ExplorerAssets, defaultQuery: string): string {
  const styles = assets.styles.map(
    (asset) => `    <link rel="stylesheet" href="${ASSETS_PATH}${asset.name}" />`,
  );
  // `defer` runs the scripts in document order once the #graphiql element exists.
  const scripts = assets.scripts.map(
    (asset) => `    <script defer src="${ASSETS_PATH}${asset.name}"></script>`,
  );
  return [
    '<!doctype html>',
    '<html lang="en">',
    '  <head>',
    '    <meta charset="utf-8" />',
    '    <meta name="viewport" content="width=device-width, initial-scale=1" />',
    '    <title>agentic-rag GraphQL explorer</title>',
    // An empty icon, so the browser does not ask the API for /favicon.ico.
    '    <link rel="icon" href="data:," />',
    ...styles,
    ...scripts,
    '  </head>',
    '  <body>',
    `    <div id="graphiql" data-default-query="${attribute(defaultQuery)}">Loading the GraphQL explorer…</div>`,
    '    <noscript>The GraphQL explorer needs JavaScript.</noscript>',
    '  </body>',
    '</html>',
    '',
  ].join('\n');
}
