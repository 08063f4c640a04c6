import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/**
 * The five design documents live outside this repository, so a comment that cites one by number
 * ("000's DocPage", "per 002", "003 §5") cannot be followed by a reader of the code. A comment
 * links the docs/ page that states the contract instead (docs/design-conformance.md maps the
 * documents to those pages), or states the rule itself.
 */
const DESIGN_NUMBER = /(?<![\w.,/-]|\d )00[0-4](?:['’]s\b|(?![\w-]|\.\w|,\d|\s\d))/;

/**
 * Whether a comment line names a design document: a standalone 000 to 004 ("002's", "per 002",
 * "003 §5", "004:"), not part of a larger number, a decimal or a file name (`1,000`, `30 000`,
 * `0.004`, `knowledge-004.int.test.ts`, `004-data-loader-pack.json`).
 */
const namesDesignDocument = (line: string) => DESIGN_NUMBER.test(line);

/** `.ts`/`.tsx` files under packages/<name>/src and apps/<name>/src. */
function sourceFiles(): string[] {
  const files: string[] = [];
  for (const top of ['packages', 'apps']) {
    for (const name of readdirSync(path.join(ROOT, top))) {
      const src = path.join(ROOT, top, name, 'src');
      let entries: string[];
      try {
        entries = readdirSync(src, { recursive: true, encoding: 'utf8' });
      } catch {
        continue;
      }
      for (const entry of entries) {
        if (/\.tsx?$/.test(entry) && !entry.split(path.sep).includes('node_modules')) {
          files.push(path.join(src, entry));
        }
      }
    }
  }
  return files.sort();
}

/** Every comment of a file (line, block and JSX ones), each with the line it starts on. */
function comments(file: string): Array<{ line: number; text: string }> {
  const text = readFileSync(file, 'utf8');
  if (!/00[0-4]/.test(text)) return [];
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const seen = new Map<number, { line: number; text: string }>();
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      const line = source.getLineAndCharacterOfPosition(range.pos).line + 1;
      seen.set(range.pos, { line, text: text.slice(range.pos, range.end) });
    }
  };
  // Walking tokens as well as nodes reaches comments before a `}` or `)` and at the end of a file.
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...seen.values()];
}

/** Comment lines that name a design document by its number, as `file:line: text`. */
function offendingLines(file: string): string[] {
  const found: string[] = [];
  for (const comment of comments(file)) {
    comment.text.split('\n').forEach((line, index) => {
      if (!namesDesignDocument(line)) return;
      found.push(`${path.relative(ROOT, file)}:${comment.line + index}: ${line.trim()}`);
    });
  }
  return found;
}

describe('comments', () => {
  it('link a docs/ page instead of naming a design document by number', () => {
    const offending = sourceFiles().flatMap(offendingLines);
    expect(
      offending,
      `Comments cite a design document by number, which a reader of the code cannot resolve:\n${offending.join('\n')}\n` +
        'Link the docs/ page that states the contract (docs/design-conformance.md lists them) or state the rule.',
    ).toEqual([]);
  });

  it('recognises the forms a design reference takes, and leaves other numbers alone', () => {
    for (const line of [
      "// 002's queue",
      '// 000’s DocPage{url, title}',
      '// as design document 004 says',
      '// per 002, the flag is off',
      '/** 003 §5: the error format */',
      ' * 004: pieces are searched only for a non-empty query',
    ])
      expect(namesDesignDocument(line), line).toBe(true);
    for (const line of [
      '// 1,000 documents',
      '/** Per attempt. Default 30 000. */',
      '// moved all five, by -0.004 to',
      '// replayed in apps/api/src/knowledge-004.int.test.ts',
      "// fixtures/004-data-loader-pack.json, the document's pack",
      '// (~1,000:1), as a real bomb is built',
    ])
      expect(namesDesignDocument(line), line).toBe(false);
  });
});
