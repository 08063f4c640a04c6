// `pnpm build` (also run by `pnpm install`, as `prepare`): compiles the core and the three apps with
// `tsc -b` into each package's dist/, and copies beside the output the files the code reads relative
// to itself at run time (.sql files, the GraphQL schema, the explorer's browser files). Plain
// JavaScript because it runs before anything is compiled. `pnpm start`, `pnpm worker` and `pnpm mcp`
// call ensureBuilt(), which rebuilds only when a source file is newer than the last build.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, URL } from 'node:url';

const REPO = fileURLToPath(new URL('../', import.meta.url));
const PACKAGES = ['packages/agentic-rag', 'apps/api', 'apps/worker', 'apps/mcp'];
const APPS = PACKAGES.filter((pkg) => pkg.startsWith('apps/'));
const STAMP = '.build-stamp';
const LOCK = path.join(REPO, 'node_modules', '.agentic-rag-build.lock');

/** Files beside the code that it reads at run time, copied into dist/ as they are. */
const ASSETS = ['.sql', '.graphql', '.js', '.css'];

/** Sources the build reads, not tests or their fixtures. */
function isInput(file) {
  return !file.endsWith('.test.ts') && !file.split(path.sep).includes('fixtures');
}

function newestInput() {
  let newest = statSync(path.join(REPO, 'tsconfig.base.json')).mtimeMs;
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (isInput(file)) newest = Math.max(newest, statSync(file).mtimeMs);
    }
  };
  for (const pkg of PACKAGES) {
    for (const name of ['package.json', 'tsconfig.build.json']) {
      newest = Math.max(newest, statSync(path.join(REPO, pkg, name)).mtimeMs);
    }
    visit(path.join(REPO, pkg, 'src'));
  }
  return newest;
}

/** Why the last build is out of date, or null when it is current (a walk of mtimes, ~10 ms). */
export function staleness() {
  const stamps = PACKAGES.map((pkg) => path.join(REPO, pkg, 'dist', STAMP));
  const missing = stamps.find((stamp) => !existsSync(stamp));
  if (missing) return `no build yet (${path.relative(REPO, missing)})`;
  const built = Math.min(...stamps.map((stamp) => statSync(stamp).mtimeMs));
  return newestInput() > built ? 'sources changed since the last build' : null;
}

/** Compiles everything; throws when tsc reports errors. */
export function build() {
  const started = new Date();
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  // The SDK too: its dist/ (ESM and .d.ts) is what the published package and plain Node import.
  const projects = [...APPS, 'packages/client'].map((pkg) => `${pkg}/tsconfig.build.json`);
  // tsc's report goes to stderr: on `pnpm mcp`, stdout is the MCP protocol's.
  const result = spawnSync(process.execPath, [tsc, '-b', ...projects], {
    cwd: REPO,
    stdio: ['ignore', 2, 2],
  });
  if (result.status !== 0) throw new Error(`tsc -b failed (exit ${result.status ?? result.signal})`);
  for (const pkg of PACKAGES) {
    cpSync(path.join(REPO, pkg, 'src'), path.join(REPO, pkg, 'dist'), {
      recursive: true,
      filter: (file) =>
        isInput(file) && (ASSETS.includes(path.extname(file)) || statSync(file).isDirectory()),
    });
    // Stamped with the time the build started: a file saved during the build makes the next start rebuild.
    const stamp = path.join(REPO, pkg, 'dist', STAMP);
    writeFileSync(stamp, '');
    utimesSync(stamp, started, started);
  }
  buildConsole();
}

/**
 * The web console (apps/console): type-checked on its own (DOM and JSX, which the Node packages'
 * tsconfig leaves out), then bundled by Vite into apps/console/dist, which the API serves at /.
 */
function buildConsole() {
  const root = path.join(REPO, 'apps', 'console');
  const resolveFrom = createRequire(path.join(root, 'package.json'));
  const vite = path.join(path.dirname(resolveFrom.resolve('vite/package.json')), 'bin', 'vite.js');
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  for (const args of [
    [tsc, '-p', 'tsconfig.json'],
    [vite, 'build', '--logLevel', 'warn'],
  ]) {
    const result = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', 2, 2] });
    if (result.status !== 0) throw new Error(`console build failed (exit ${result.status ?? result.signal})`);
  }
}

/** Builds when the last build is missing or older than the sources; one process at a time. */
export function ensureBuilt({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  if (staleness() === null) return false;
  return withLock(() => {
    const reason = staleness(); // another process may have built it while we waited
    if (reason === null) return false;
    const started = performance.now();
    log(`building compiled output: ${reason}`);
    build();
    log(`built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return true;
  });
}

/** A directory as the lock (mkdir is atomic); one left by a dead process is taken over. */
function withLock(action) {
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(path.join(LOCK, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      if (Date.now() > deadline)
        throw new Error(`${LOCK} held for 10 minutes; remove it if no build is running`, {
          cause: error,
        });
      if (!lockHolderAlive()) rmSync(LOCK, { recursive: true, force: true });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    return action();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

function lockHolderAlive() {
  let pid;
  try {
    pid = Number(readFileSync(path.join(LOCK, 'pid'), 'utf8'));
  } catch {
    // Created but no pid yet: alive unless it stayed that way for seconds.
    try {
      return Date.now() - statSync(LOCK).mtimeMs < 5_000;
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    build();
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
