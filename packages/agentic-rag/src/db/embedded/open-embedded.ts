import { connect } from 'node:net';
import path from 'node:path';
import { ErrorCode, RagError } from '../../errors/index.js';
import { silentLogger, type Logger } from '../../telemetry/index.js';
import { tryAcquireDataDirLock } from '../data-dir-lock.js';
import { PostgresSql } from '../postgres.js';
import type { Sql } from '../sql.js';
import { assertDataDirOpens } from './data-dir-check.js';
import { EmbeddedServer } from './embedded-server.js';
import { EmbeddedSql } from './embedded-sql.js';
import { SOCKET_FILE, socketDirFor } from './socket.js';

export interface OpenEmbeddedOptions {
  /** Connections this process keeps to the server; the server runs one statement at a time. */
  maxConnections?: number;
  /** How long to wait for another process's server to accept (it may still be starting). */
  connectTimeoutMs?: number;
  /** Told when this process starts serving the directory, and when it could not close it cleanly. */
  logger?: Logger;
}

/**
 * The embedded database of a data directory, for any number of processes. The first to come
 * takes the directory's lock and serves PGlite from a worker thread on a local socket; every
 * other process (the MCP server, a CLI, a worker beside `pnpm start`) finds the lock held and
 * connects to that socket. Either way the caller gets a node-postgres pool, so one adapter
 * carries every query.
 */
export async function openEmbedded(dataDir: string, options: OpenEmbeddedOptions = {}): Promise<Sql> {
  return new EmbeddedSql(await connectEmbedded(dataDir, options), () => connectEmbedded(dataDir, options));
}

/** Owner or client, whichever this process can be right now. */
async function connectEmbedded(dataDir: string, options: OpenEmbeddedOptions): Promise<PostgresSql> {
  const socketDir = socketDirFor(dataDir);
  const logger = options.logger ?? silentLogger;
  const maxConnections = options.maxConnections ?? 4;
  const deadline = Date.now() + (options.connectTimeoutMs ?? 30_000);
  for (;;) {
    const lock = await tryAcquireDataDirLock(dataDir);
    if (typeof lock === 'function') {
      try {
        await assertDataDirOpens(dataDir);
        const server = await EmbeddedServer.start(dataDir);
        logger.info('serving the embedded database', { event: 'embedded-serving', dataDir, socketDir });
        return new PostgresSql({
          socketDir,
          maxConnections,
          backend: 'pglite',
          onClose: async () => {
            const problem = await server.stop();
            if (problem)
              logger.warn('the embedded database was not closed cleanly', {
                event: 'embedded-close-skipped',
                dataDir,
                reason: problem,
              });
            await lock();
          },
        });
      } catch (error) {
        await lock();
        throw openFailure(dataDir, error);
      }
    }
    // Another process owns the directory: use its server once it answers.
    if (await accepts(path.join(socketDir, SOCKET_FILE))) {
      return new PostgresSql({ socketDir, maxConnections, backend: 'pglite' });
    }
    if (Date.now() > deadline) {
      throw new RagError(
        ErrorCode.STORE_UNAVAILABLE,
        `the embedded database in ${dataDir} belongs to process ${lock.heldBy}, which does not answer on ${socketDir}; stop it, or set DATABASE_URL to share a Postgres server`,
        { details: { pid: lock.heldBy } },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function accepts(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** PGlite's own word for a directory it cannot open is `Aborted()`: say something useful. */
function openFailure(dataDir: string, error: unknown): RagError {
  if (error instanceof RagError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/abort/i.test(message)) {
    return new RagError(
      ErrorCode.DATA_DIR_DAMAGED,
      `the embedded database in ${dataDir} cannot be opened (PGlite stopped while starting). Move the directory away and start again, or restore it from a copy; docs/operations.md#embedded-data-directory says how to look inside`,
      { cause: error, details: { dataDir } },
    );
  }
  return new RagError(
    ErrorCode.STORE_UNAVAILABLE,
    `cannot open the embedded database in ${dataDir}: ${message}`,
    {
      cause: error,
      details: { dataDir },
    },
  );
}
