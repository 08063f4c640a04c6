export { handleExplorer } from './handle-explorer.js';
