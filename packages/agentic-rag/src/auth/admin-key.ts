import { randomUUID } from 'node:crypto';
import { chmod, mkdir, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, RagError } from '../errors/index.js';
import type { Logger } from '../telemetry/index.js';
import { ALL_WORKSPACES, type ApiKeyStore } from './api-keys.js';

/** The file under DATA_DIR that receives the first admin key. */
export const ADMIN_KEY_FILE = 'admin.key';

/**
 * A fresh installation has no key, so nobody could create one through the API: on start, if no
 * key is active, an admin key for every workspace is minted and written to `<dataDir>/admin.key`
 * (mode 0600). The log names the file, never the key. With active keys nothing happens.
 */
export async function ensureAdminKey(
  store: ApiKeyStore,
  dataDir: string,
  logger: Logger,
): Promise<{ created: boolean; path: string }> {
  const file = path.resolve(dataDir, ADMIN_KEY_FILE);
  // The file is written before the key's row commits: a key nobody can read is never left active.
  const created = await store.createIfNoneActive(
    { workspaceId: ALL_WORKSPACES, role: 'admin', label: 'bootstrap admin key', createdBy: 'bootstrap' },
    (key) => writePrivateFile(file, `${key.key}\n`),
  );
  if (!created) return { created: false, path: file };
  logger.info(`no API key was active: an admin key was written to ${file} (readable by this user only)`, {
    event: 'admin-key-created',
    path: file,
    keyId: created.id,
  });
  return { created: true, path: file };
}

/** Writes a file only its owner can read, atomically: a temporary file, synced, then renamed. */
async function writePrivateFile(file: string, content: string): Promise<void> {
  const temporary = `${file}.${randomUUID()}.tmp`;
  try {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // The umask can only remove permission bits, but say 0600 explicitly all the same.
    await chmod(temporary, 0o600);
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw new RagError(
      ErrorCode.INVALID_CONFIG,
      `cannot write the admin key to ${file}: ${(error as Error).message}`,
      {
        cause: error,
        details: { path: file },
      },
    );
  }
}
