import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../packages/agentic-rag/src/cli/', import.meta.url));
// Absolute, so the CLI can run from any working directory (no .env of the repository is read).
const TSX_LOADER = import.meta.resolve('tsx');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a CLI script as a user would (`node --import tsx <script>`), from the temp directory (or
 * `cwd`) and with none of the service's own variables inherited: only `env` configures it.
 * `script` is a file name in the core's cli/ folder, or an absolute path (packages/bench's CLIs).
 */
export function runCliScript(
  script: string,
  args: string[],
  env: Record<string, string | undefined>,
  cwd = os.tmpdir(),
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const clean = { ...process.env };
    for (const key of Object.keys(clean))
      if (/^(DATABASE_URL|REDIS_URL|CACHE_REDIS_URL|RAG_|AGENTIC_RAG_|CHUNK_|LOG_LEVEL)/.test(key))
        delete clean[key];
    const child = spawn(process.execPath, ['--import', TSX_LOADER, path.resolve(CLI, script), ...args], {
      cwd,
      env: { ...clean, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
