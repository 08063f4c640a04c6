import type { Block } from '../document.js';
import type { Loader } from './loader.js';
import { titleFromPath } from './normalize.js';

/**
 * Plain text: paragraphs separated by blank lines. A short first line stands as the title, and
 * short all-caps or colon-ended lines standing alone act as headings, as they do in notes.
 */
export const loadPlainText: Loader = (input) => {
  const blocks: Block[] = [];
  // A paragraph starts at its first visible character and ends before a line that is blank or
  // holds only spaces.
  const pattern = /\S[\s\S]*?(?=\n[ \t]*\n|$)/g;
  for (const match of input.text.matchAll(pattern)) {
    const start = match.index;
    const raw = match[0];
    const trimmedEnd = start + raw.trimEnd().length;
    if (trimmedEnd <= start) continue;
    const single = !raw.includes('\n') ? raw.trim() : '';
    const headingLike =
      single.length > 0 &&
      single.length <= 80 &&
      (/^[A-Z0-9][A-Z0-9 &/()\-:.,]+$/.test(single) || single.endsWith(':'));
    blocks.push(
      headingLike
        ? { type: 'heading', start, end: trimmedEnd, level: 2, title: single.replace(/:$/, '') }
        : { type: 'paragraph', start, end: trimmedEnd },
    );
  }
  const firstLine = input.text.trimStart().split('\n', 1)[0]?.trim() ?? '';
  return {
    documents: [
      {
        sourcePath: input.sourcePath,
        sourceFile: input.sourcePath,
        kind: 'text',
        title: firstLine.length > 0 && firstLine.length <= 100 ? firstLine : titleFromPath(input.sourcePath),
        url: null,
        text: input.text,
        blocks,
        metadata: {},
      },
    ],
    failures: [],
  };
};
