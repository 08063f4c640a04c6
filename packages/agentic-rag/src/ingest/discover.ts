import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode } from '../errors/index.js';
import type { LoadFailure } from './document.js';

export interface DiscoveredFile {
  /** Path relative to the root, with forward slashes. */
  relativePath: string;
  absolutePath: string;
}

export interface Discovery {
  files: DiscoveredFile[];
  /** Folders that could not be read; their siblings are still walked. */
  failures: LoadFailure[];
}

const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git']);

export type InsideRoot =
  | { realPath: string }
  /** `reason` completes a sentence that starts with the path as given (the link, not its target). */
  | { code: typeof ErrorCode.SOURCE_OUTSIDE_ROOT | typeof ErrorCode.FILE_UNREADABLE; reason: string };

/**
 * Where `absolutePath` really is (every link resolved), if that is inside the real path of `root`:
 * a link (or `..`) out of the folder being ingested is refused before anything reads it.
 */
export async function resolveInsideRoot(root: string, absolutePath: string): Promise<InsideRoot> {
  const realRoot = await realpath(root).catch(() => path.resolve(root));
  let realPath: string;
  try {
    realPath = await realpath(absolutePath);
  } catch (error) {
    return {
      code: ErrorCode.FILE_UNREADABLE,
      reason: `cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    };
  }
  const inside = path.relative(realRoot, realPath);
  // '' is the root itself (a link back up the tree): inside, and the walk's visited set stops it.
  if (inside === '..' || inside.startsWith(`..${path.sep}`) || path.isAbsolute(inside)) {
    return {
      code: ErrorCode.SOURCE_OUTSIDE_ROOT,
      reason: 'resolves outside the folder being ingested (a link out of it?); it was not read',
    };
  }
  return { realPath };
}

/**
 * Every file below `root` in a stable (sorted) order; hidden files and folders are skipped.
 * Broken links are returned as files so they are reported as unreadable rather than ignored;
 * linked folders are followed once (a link back up the tree is not a loop). A link whose target
 * is outside the root's real path is a SOURCE_OUTSIDE_ROOT failure, and is neither walked nor read.
 */
export async function discoverFiles(root: string): Promise<Discovery> {
  const files: DiscoveredFile[] = [];
  const failures: LoadFailure[] = [];
  const visited = new Set<string>();
  const relative = (absolutePath: string) => path.relative(root, absolutePath).split(path.sep).join('/');

  const walk = async (directory: string): Promise<void> => {
    const real = await realpath(directory).catch(() => directory);
    if (visited.has(real)) return;
    visited.add(real);
    let entries;
    try {
      entries = await readdir(directory, { withFileTypes: true });
    } catch (error) {
      failures.push({
        sourcePath: relative(directory) || '.',
        code: ErrorCode.FILE_UNREADABLE,
        message: `cannot read folder: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      });
      return;
    }
    entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const absolutePath = path.join(directory, entry.name);
      let isDirectory = entry.isDirectory();
      if (entry.isSymbolicLink()) {
        const resolved = await resolveInsideRoot(root, absolutePath);
        if ('code' in resolved && resolved.code === ErrorCode.SOURCE_OUTSIDE_ROOT) {
          failures.push({
            sourcePath: relative(absolutePath),
            code: resolved.code,
            message: `${relative(absolutePath)} ${resolved.reason}`,
          });
          continue;
        }
        isDirectory = await stat(absolutePath).then(
          (info) => info.isDirectory(),
          () => false,
        );
      }
      if (isDirectory) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) await walk(absolutePath);
        continue;
      }
      files.push({ absolutePath, relativePath: relative(absolutePath) });
    }
  };
  await walk(root);
  return { files, failures };
}
