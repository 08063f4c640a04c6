import { readFileSync } from 'node:fs';

/**
 * Reads a statement kept beside the code that runs it as a .sql file. Called at module load, so a
 * missing file fails at start, not on the first request.
 */
export function loadSqlFile(url: URL): string {
  return readFileSync(url, 'utf8');
}
