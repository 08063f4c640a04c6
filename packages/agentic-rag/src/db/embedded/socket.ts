import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';

/** Postgres clients find a server's socket as `<dir>/.s.PGSQL.<port>`; the port is nominal. */
export const SOCKET_PORT = 5432;
export const SOCKET_FILE = `.s.PGSQL.${SOCKET_PORT}`;
/** sun_path holds 108 bytes on Linux (104 on macOS), the terminating NUL included. */
const MAX_SOCKET_PATH = 100;

/**
 * Where the embedded database of `dataDir` is served: beside it when the path is short enough
 * for a socket, else in a folder of the temporary directory named after it. Every process
 * computes the same place from the same data directory, so none needs to be told.
 */
export function socketDirFor(dataDir: string): string {
  const beside = `${path.resolve(dataDir)}.sock`;
  if (path.join(beside, SOCKET_FILE).length <= MAX_SOCKET_PATH) return beside;
  const name = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `agentic-rag-${name}`);
}
