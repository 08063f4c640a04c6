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

describe('architecture of packages/agentic-rag/src (STYLE.md)', () => {
  const files = sourceFiles();

  it('reaches another concept folder only through its index.js', () => {
    const violations = files.flatMap(({ file, folder, imports }) =>
      imports
        .filter(
          (target) => folderOf(target) !== folder && !target.endsWith('/index.js') && target !== 'index.js',
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

  it('reads process.env in one place only: the CLI configuration loader', () => {
    const readers = files
      .filter(({ file }) => /process\.env/.test(readFileSync(path.join(SRC, file), 'utf8')))
      .map(({ file }) => file);
    expect(readers).toEqual(['cli/cli-support.ts']);
  });
});
