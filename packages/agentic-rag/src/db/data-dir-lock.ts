import { open, readFile, unlink } from 'node:fs/promises';
import { ErrorCode, RagError } from '../errors/index.js';

/**
 * PGlite is one process's database: a second process opening the same directory corrupts it. A
 * lock file holding the owner's pid turns that into a clear error; a lock left by a dead process
 * is taken over.
 */
export async function acquireDataDirLock(dataDir: string): Promise<() => Promise<void>> {
  const lockPath = `${dataDir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(lockPath, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return async () => {
        await unlink(lockPath).catch(() => {});
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number((await readFile(lockPath, 'utf8').catch(() => '')).trim());
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw new RagError(
          ErrorCode.STORE_UNAVAILABLE,
          `the embedded database in ${dataDir} is in use by process ${owner}; stop it first, or set DATABASE_URL to share a Postgres server between processes`,
          { details: { pid: owner } },
        );
      }
      await unlink(lockPath).catch(() => {});
    }
  }
  throw new RagError(ErrorCode.STORE_UNAVAILABLE, `could not lock ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
