import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

export interface DiscoveredFile {
  /** Path relative to the root, with forward slashes: the document identity. */
  relativePath: string;
  absolutePath: string;
}

const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git']);

/**
 * Every file below `root` in a stable (sorted) order; hidden files and folders are skipped.
 * Broken links are returned as files so they are reported as unreadable rather than ignored.
 */
export async function discoverFiles(root: string): Promise<DiscoveredFile[]> {
  const files: DiscoveredFile[] = [];
  const walk = async (directory: string): Promise<void> => {
    const entries = await readdir(directory, { withFileTypes: true });
    entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const absolutePath = path.join(directory, entry.name);
      let isDirectory = entry.isDirectory();
      if (entry.isSymbolicLink()) {
        isDirectory = await stat(absolutePath).then(
          (info) => info.isDirectory(),
          () => false,
        );
      }
      if (isDirectory) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) await walk(absolutePath);
        continue;
      }
      files.push({ absolutePath, relativePath: path.relative(root, absolutePath).split(path.sep).join('/') });
    }
  };
  await walk(root);
  return files;
}
