import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One file the explorer serves under /explorer/assets/, held in memory once read. */
export interface ExplorerAsset {
  /** The URL file name. It carries a package version or a content hash, so it may be cached forever. */
  name: string;
  contentType: string;
  body: Buffer;
}

export interface ExplorerAssets {
  /** In the order the page must load them. */
  styles: ExplorerAsset[];
  /** In the order the page must run them: React, ReactDOM, GraphiQL (UMD globals), then our boot script. */
  scripts: ExplorerAsset[];
  /** The allowlist: the only names /explorer/assets/<name> answers. */
  byName: ReadonlyMap<string, ExplorerAsset>;
}

const JAVASCRIPT = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

// Resolved from this file, not the working directory, so the API finds apps/api's packages from anywhere.
const require = createRequire(import.meta.url);

/**
 * A file of an installed package and the package's version. React's and GraphiQL's `exports` maps do not
 * expose their browser builds, so the file is found beside the package.json they do expose.
 */
function packageFile(packageName: string, file: string): { body: Buffer; version: string } {
  const manifestPath = require.resolve(`${packageName}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version: string };
  return { body: readFileSync(path.join(path.dirname(manifestPath), file)), version: manifest.version };
}

/** A file of ours in ./browser, named by a hash of its content. */
function ownFile(file: string, contentType: string): ExplorerAsset {
  const body = readFileSync(fileURLToPath(new URL(`./browser/${file}`, import.meta.url)));
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  const extension = path.extname(file);
  return { name: `${path.basename(file, extension)}-${hash}${extension}`, contentType, body };
}

function versioned(
  packageName: string,
  file: string,
  name: (version: string) => string,
  contentType: string,
) {
  const { body, version } = packageFile(packageName, file);
  return { name: name(version), contentType, body };
}

/**
 * Reads every asset: GraphiQL's prebuilt browser bundle and stylesheet (4.x is the last line that ships
 * one; 5.x is ESM-only with Monaco workers) and the React 18 UMD builds it expects as globals (React 19
 * ships no UMD build). Throws when a package is missing, so a broken install fails the first request loudly.
 */
export function loadExplorerAssets(): ExplorerAssets {
  const styles = [
    versioned('graphiql', 'graphiql.min.css', (version) => `graphiql-${version}.min.css`, CSS),
    ownFile('explorer.css', CSS),
  ];
  const scripts = [
    versioned(
      'react',
      'umd/react.production.min.js',
      (version) => `react-${version}.production.min.js`,
      JAVASCRIPT,
    ),
    versioned(
      'react-dom',
      'umd/react-dom.production.min.js',
      (version) => `react-dom-${version}.production.min.js`,
      JAVASCRIPT,
    ),
    versioned('graphiql', 'graphiql.min.js', (version) => `graphiql-${version}.min.js`, JAVASCRIPT),
    ownFile('explorer.js', JAVASCRIPT),
  ];
  const byName = new Map([...styles, ...scripts].map((asset) => [asset.name, asset]));
  return { styles, scripts, byName };
}
