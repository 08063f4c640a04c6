export { handleConsole } from './handle-console.js';
export { CONSOLE_ROUTES } from './routes.js';
