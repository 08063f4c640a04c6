/**
 * `@agentic-rag/core/cli`: what a command-line main shares with the core's own commands (exit
 * codes and error reporting, configuration from `.env`, logs to stderr, a progress bar), for the
 * measuring commands in packages/bench. Not reached from `.` or `./runtime` (test/architecture.test.ts).
 */
export { childEnvironment, cliConfig, cliLogger, EXIT, formatNumber, runCli } from './cli/cli-support.js';
export { ProgressBar } from './cli/progress-bar.js';
