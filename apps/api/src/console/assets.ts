import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One built file of the console, held in memory once read. */
export interface ConsoleAsset {
  /** Vite names every file it builds `<name>-<content hash>.<ext>`, so it may be cached forever. */
  name: string;
  contentType: string;
  body: Buffer;
}

export interface ConsoleBuild {
  page: Buffer;
  /** The allowlist: the only names /assets/<name> answers. */
  assets: ReadonlyMap<string, ConsoleAsset>;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

/**
 * apps/console/dist, found from this file (src/console or dist/console of apps/api: the same depth),
 * so the API finds it whatever its working directory.
 */
export const CONSOLE_DIST = fileURLToPath(new URL('../../../console/dist/', import.meta.url));

/**
 * Reads `vite build`'s output: index.html and the files of assets/ whose type we know. Null when
 * the console has not been built (`pnpm build` builds it).
 */
export function loadConsoleBuild(dist = CONSOLE_DIST): ConsoleBuild | null {
  const index = path.join(dist, 'index.html');
  if (!existsSync(index)) return null;
  const assetsDir = path.join(dist, 'assets');
  const assets = new Map<string, ConsoleAsset>();
  const names = existsSync(assetsDir) ? readdirSync(assetsDir, { withFileTypes: true }) : [];
  for (const entry of names) {
    const contentType = CONTENT_TYPES[path.extname(entry.name)];
    if (!entry.isFile() || !contentType) continue;
    assets.set(entry.name, {
      name: entry.name,
      contentType,
      body: readFileSync(path.join(assetsDir, entry.name)),
    });
  }
  return { page: readFileSync(index), assets };
}
