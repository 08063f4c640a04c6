import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * ARCHITECTURE.md's one door: every transport (GraphQL, REST, MCP, the console's API) and every
 * command (the CLIs, the API's start-up) calls the application service's operations; none reaches
 * the runtime's stores, SQL, retriever, graph, pipeline, tools or queue, nor the service's gate.
 * Composition roots may open and close a runtime and wire the processes they run; the lines below
 * that do more are the listed exceptions, each with its reason.
 */

const ROOT = path.resolve(import.meta.dirname, '..');

/** Product source an app or a command runs, tests and their fixtures aside. */
function productSources(): string[] {
  const roots = [...['api', 'mcp', 'worker'].map((app) => `apps/${app}/src`), 'packages/agentic-rag/src/cli'];
  return roots.flatMap((root) =>
    readdirSync(path.join(ROOT, root), { recursive: true, encoding: 'utf8' })
      .map((file) => path.posix.join(root, file.split(path.sep).join('/')))
      .filter((file) => /\.tsx?$/.test(file))
      .filter((file) => !/\.test\.tsx?$|test-support|\/test-[^/]*\.ts$|\/generated\//.test(file)),
  );
}

/** What reaching past the service looks like. */
const REACHES = [
  // A runtime member other than closing it.
  /\bruntime\.(?!close\b)[A-Za-z]+/,
  // Taking the runtime apart, or handing all of it on.
  /\{[^}]*\}\s*=\s*runtime\b/,
  /\.\.\.runtime\b/,
  // The service's private parts.
  /\bservice\.(runtime|gate|guard|guardDeployment|keys|audit)\b/,
  // The database itself.
  /\bopenSql\(|\bsql\.(query|transaction)\(/,
];

/**
 * file → the one line that may match, and why. None is listed: the API registers its queue's
 * depth through the service, the worker hands its runtime to the data plane (startDataPlane), and
 * rag:migrate applies the schema through migrateDatabase. The list stays for a future exception,
 * which must say why.
 */
const EXCEPTIONS: Record<string, { line: RegExp; why: string }[]> = {};

describe('one door: apps and commands call the service (ARCHITECTURE.md)', () => {
  it('no app or command reaches the runtime, the database or the gate except the listed wiring', () => {
    const found: string[] = [];
    for (const file of productSources()) {
      const lines = readFileSync(path.join(ROOT, file), 'utf8').split('\n');
      lines.forEach((text, index) => {
        const code = text.replace(/\/\/.*$|^\s*\*.*$/, '');
        if (!REACHES.some((pattern) => pattern.test(code))) return;
        if ((EXCEPTIONS[file] ?? []).some((exception) => exception.line.test(code))) return;
        found.push(`${file}:${index + 1}: ${text.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });

  it('each listed exception still exists (a stale one would hide nothing and mislead)', () => {
    for (const [file, exceptions] of Object.entries(EXCEPTIONS)) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      for (const exception of exceptions) expect(text, `${file}: ${exception.why}`).toMatch(exception.line);
    }
  });

  it('would catch a reach past the service', () => {
    const reaches = (code: string) => REACHES.some((pattern) => pattern.test(code));
    expect(reaches('const hits = await runtime.retriever.retrieve({ workspaceId, query });')).toBe(true);
    expect(reaches('const { store } = runtime;')).toBe(true);
    expect(reaches("await context.service.guard(caller, 'search', id, work);")).toBe(true);
    expect(reaches('await runtime.close();')).toBe(false);
    expect(reaches('const result = await service.search(caller, input);')).toBe(false);
  });
});
