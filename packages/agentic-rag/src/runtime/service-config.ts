import { existsSync } from 'node:fs';
import { isRagError } from '../errors/index.js';
import { loadConfig, type Config } from '../config/index.js';

/** Exit codes shared by the services and every command. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** A .env in the working directory fills variables the environment does not already set. */
export function loadDotEnv(): void {
  if (existsSync('.env')) process.loadEnvFile('.env');
}

/** The configuration from `.env`, then the environment: the one place a process reads it. */
export function environmentConfig(): Config {
  loadDotEnv();
  return loadConfig(process.env);
}

/**
 * A long-running service's configuration (`.env`, then the environment). A bad one is reported
 * on stderr, one line per problem, and the process exits 2 before anything starts.
 */
export function serviceConfig(): Config {
  try {
    return environmentConfig();
  } catch (error) {
    process.stderr.write(`${isRagError(error) ? error.message : String(error)}\n`);
    process.exit(EXIT.usage);
  }
}
