// What the apps' entry points share; the CLI scripts themselves are run, not imported.
export { serviceConfig } from './cli-support.js';
export { listen, runService } from './entry-point.js';
