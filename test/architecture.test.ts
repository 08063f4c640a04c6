import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../packages/agentic-rag/src/', import.meta.url));

interface SourceFile {
  folder: string;
  file: string;
  imports: string[];
}

/** Every non-test source file of the core with its relative imports, resolved to src-relative paths. */
function sourceFiles(): SourceFile[] {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('conformance.ts'),
  );
  return files.map((file) => {
    const text = readFileSync(path.join(SRC, file), 'utf8');
    const imports = [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((match) =>
      path.posix.normalize(path.posix.join(path.posix.dirname(file.split(path.sep).join('/')), match[1]!)),
    );
    return { folder: file.split(path.sep)[0]!, file: file.split(path.sep).join('/'), imports };
  });
}

const folderOf = (target: string) => target.split('/')[0]!;

/**
 * The import circles of a graph, each as its files sorted (Tarjan's strongly connected components
 * of more than one file, and a file importing itself).
 */
function circles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (edges.get(node) ?? []).includes(node)) found.push(component.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('architecture of packages/agentic-rag/src (STYLE.md)', () => {
  const files = sourceFiles();

  it('reaches another concept folder only through its index.js', () => {
    const violations = files.flatMap(({ file, folder, imports }) =>
      imports
        .filter(
          (target) =>
            folderOf(target) !== folder &&
            !target.endsWith('/index.js') &&
            target !== 'index.js' &&
            // The testing door gathers what folders keep out of their index: suites and test servers;
            // the cli door, what command mains share.
            !(file === 'testing.ts' && /\/(conformance|chat-test-server|fixture-site)\.js$/.test(target)) &&
            !(file === 'cli.ts' && /^cli\/(cli-support|progress-bar)\.js$/.test(target)),
        )
        .map((target) => `${file} -> ${target}`),
    );
    expect(violations).toEqual([]);
  });

  it('has no dependency cycle between concept folders', () => {
    const edges = new Map<string, Set<string>>();
    for (const { folder, imports } of files) {
      for (const target of imports) {
        const to = folderOf(target);
        if (to !== folder && !to.endsWith('.js'))
          (edges.get(folder) ?? edges.set(folder, new Set()).get(folder)!).add(to);
      }
    }
    const cycles: string[] = [];
    const visit = (node: string, trail: string[]) => {
      if (trail.includes(node)) {
        cycles.push([...trail.slice(trail.indexOf(node)), node].join(' -> '));
        return;
      }
      for (const next of edges.get(node) ?? []) visit(next, [...trail, node]);
    };
    for (const node of edges.keys()) visit(node, []);
    expect(cycles).toEqual([]);
  });

  it('has no import circle between files, inside a folder or across (types count too)', () => {
    const known = new Set(files.map(({ file }) => file));
    const edges = new Map(
      files.map(({ file, imports }) => [
        file,
        imports.map((target) => target.replace(/\.js$/, '.ts')).filter((target) => known.has(target)),
      ]),
    );
    expect(circles(edges)).toEqual([]);
  });

  it('reads process.env only where a process loads its configuration, and where a CLI passes it on', () => {
    const readers = files
      .filter(({ file }) => /process\.env/.test(readFileSync(path.join(SRC, file), 'utf8')))
      .map(({ file }) => file)
      .sort();
    expect(readers).toEqual(['cli/cli-support.ts', 'runtime/service-config.ts']);
  });

  it('answers without SQL: the orchestrator reads chunks and the corpus version through store/', () => {
    const orchestrator = files.filter(({ folder }) => folder === 'orchestrator');
    expect(orchestrator.length).toBeGreaterThan(5);
    const touching = orchestrator.filter(
      ({ file, imports }) =>
        imports.some((target) => folderOf(target) === 'db') ||
        /\.query\s*[<(]|\bSELECT\b/.test(readFileSync(path.join(SRC, file), 'utf8')),
    );
    expect(touching.map(({ file }) => file)).toEqual([]);
  });

  it('reads chunks for display in one place (store/chunk-reader.ts); the ranking reads what it scores', () => {
    // Writers, the integrity check and the graph's mention rows are the store's and the graph's
    // own; the ranking's channels and the question understanding read ids, vectors and terms.
    const RANKING = /^(retrieve\/(channels|operation-search|graph-channel|feedback)|understand\/\w+)\.ts$/;
    const readers = files
      .filter(({ folder, file }) => folder !== 'store' && folder !== 'graph' && !RANKING.test(file))
      .filter(({ file }) =>
        /FROM\s+rag_chunks|JOIN\s+rag_chunks/.test(readFileSync(path.join(SRC, file), 'utf8')),
      )
      .map(({ file }) => file);
    expect(readers).toEqual([]);
    const storeReaders = files
      .filter(({ folder }) => folder === 'store')
      .filter(({ file }) => /SELECT[^;]*\bc\.text\b/s.test(readFileSync(path.join(SRC, file), 'utf8')))
      .map(({ file }) => file);
    expect(storeReaders).toEqual(['store/chunk-reader.ts']);
  });

  it('holds no benchmark or evaluation code: that is packages/bench', () => {
    const entries = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).map((entry) =>
      entry.split(path.sep).join('/'),
    );
    expect(
      entries.filter((entry) => /^(bench|eval|manuals)(\/|\.ts$|$)|^cli\/(bench|eval)[-.]/.test(entry)),
    ).toEqual([]);
    expect(entries).toContain('cli/ingest.ts');
  });

  it('lists each name its `.` door exports, never `export *` of a folder', () => {
    expect(readFileSync(path.join(SRC, 'index.ts'), 'utf8')).not.toMatch(/export\s+(type\s+)?\*/);
  });

  it('keeps CLI code and the test door out of the `.` and `./runtime` doors', () => {
    const importsOf = new Map(files.map(({ file, imports }) => [file, imports]));
    /** Every core file a door loads, following relative imports. */
    const reached = (door: string) => {
      const seen = new Set<string>();
      const visit = (file: string) => {
        if (seen.has(file)) return;
        seen.add(file);
        for (const target of importsOf.get(file) ?? []) visit(target.replace(/\.js$/, '.ts'));
      };
      visit(door);
      return [...seen];
    };
    for (const door of ['index.ts', 'runtime/index.ts']) {
      const measuring = reached(door).filter((file) => /^cli\/|^(cli|testing)\.ts$/.test(file));
      expect(measuring, door).toEqual([]);
    }
    // The check above must see the doors' files: a renamed door would make it pass vacuously.
    expect(reached('index.ts')).toContain('service/index.ts');
    expect(reached('runtime/index.ts')).toContain('runtime/entry-point.ts');
  });
});

const REPO = fileURLToPath(new URL('../', import.meta.url));
const APPS = ['apps/api/src', 'apps/worker/src', 'apps/mcp/src'];
/** Files that are not part of a running app: tests and their helpers. */
const notShipped = (file: string) => /\.test\.ts$|\.test-support\.ts$|(^|\/)test-[^/]*\.ts$/.test(file);

describe('architecture of apps/* (STYLE.md: composition roots)', () => {
  const appFiles = APPS.flatMap((dir) =>
    readdirSync(path.join(REPO, dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !notShipped(file))
      .map((file) => path.posix.join(dir, file.split(path.sep).join('/'))),
  );
  const specifiers = (file: string) =>
    [...readFileSync(path.join(REPO, file), 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map(
      (match) => match[1]!,
    );

  it('import the core only through `.` and `./runtime`, never its benchmarks, evaluation, CLI or internals', () => {
    const violations = appFiles.flatMap((file) =>
      specifiers(file)
        .filter(
          (specifier) =>
            (specifier.startsWith('@agentic-rag/core') &&
              !['@agentic-rag/core', '@agentic-rag/core/runtime'].includes(specifier)) ||
            /(^|\/)packages\/|(^|\/)(bench|eval|cli)\/|(^|\/)bench-[^/]*$/.test(specifier),
        )
        .map((specifier) => `${file} -> ${specifier}`),
    );
    expect(violations).toEqual([]);
    // The scan must reach the entry points, or it proves nothing.
    expect(appFiles).toEqual(expect.arrayContaining(['apps/api/src/main.ts', 'apps/worker/src/main.ts']));
  });

  it('have no import circle between their files', () => {
    const known = new Set(appFiles);
    const edges = new Map(
      appFiles.map((file) => [
        file,
        specifiers(file)
          .filter((specifier) => specifier.startsWith('.'))
          .map((specifier) => path.posix.join(path.posix.dirname(file), specifier).replace(/\.js$/, '.ts'))
          .filter((target) => known.has(target)),
      ]),
    );
    expect(circles(edges)).toEqual([]);
  });

  it('has four doors in the core package.json, each built to dist and read from src otherwise', () => {
    const manifest = JSON.parse(
      readFileSync(path.join(REPO, 'packages/agentic-rag/package.json'), 'utf8'),
    ) as {
      exports: Record<string, { 'agentic-rag-dist': string; default: string }>;
    };
    expect(Object.keys(manifest.exports)).toEqual(['.', './runtime', './testing', './cli']);
    for (const door of Object.values(manifest.exports)) {
      expect(door['agentic-rag-dist'].replace(/^\.\/dist\//, '').replace(/\.js$/, '')).toBe(
        door.default.replace(/^\.\/src\//, '').replace(/\.ts$/, ''),
      );
    }
  });
});

describe('packages/bench (benchmarks and evaluation, beside the product)', () => {
  const sources = (dir: string) =>
    readdirSync(path.join(REPO, dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.(ts|tsx)$/.test(file))
      .map((file) => path.posix.join(dir, file.split(path.sep).join('/')));
  const specifiers = (file: string) =>
    [...readFileSync(path.join(REPO, file), 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map(
      (match) => match[1]!,
    );

  it('is imported by nothing in the core or the apps', () => {
    const importers = ['packages/agentic-rag/src', ...APPS, 'apps/console/src']
      .flatMap(sources)
      .filter((file) => specifiers(file).some((specifier) => specifier.startsWith('@agentic-rag/bench')));
    expect(importers).toEqual([]);
    for (const manifest of ['packages/agentic-rag', ...APPS.map((app) => app.replace(/\/src$/, ''))]) {
      const declared = JSON.parse(readFileSync(path.join(REPO, manifest, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
        devDependencies?: Record<string, string>;
      };
      expect(Object.keys({ ...declared.dependencies, ...declared.devDependencies }), manifest).not.toContain(
        '@agentic-rag/bench',
      );
    }
  });

  it('reaches the core only through its doors, never its sources', () => {
    const doors = [
      '@agentic-rag/core',
      '@agentic-rag/core/runtime',
      '@agentic-rag/core/testing',
      '@agentic-rag/core/cli',
    ];
    const violations = sources('packages/bench/src').flatMap((file) =>
      specifiers(file)
        .filter(
          (specifier) =>
            (specifier.startsWith('@agentic-rag/core') && !doors.includes(specifier)) ||
            /(^|\/)agentic-rag\/src\//.test(specifier),
        )
        .map((specifier) => `${file} -> ${specifier}`),
    );
    expect(violations).toEqual([]);
    expect(sources('packages/bench/src')).toContain('packages/bench/src/cli/eval.ts');
  });
});
