export { handleExplorer } from './handle-explorer.js';
export { EXAMPLE_QUESTION, exampleQuery } from './example-query.js';
