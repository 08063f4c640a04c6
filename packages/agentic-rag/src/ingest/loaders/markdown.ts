import { parse as parseYaml } from 'yaml';
import type { LoadedDocument } from '../document.js';
import type { Loader, LoaderInput } from './loader.js';
import { parseMarkdownBlocks } from './markdown-blocks.js';
import { titleFromPath } from './normalize.js';

const FRONT_MATTER = /^---\n([\s\S]*?)\n---\n?/;

/** Markdown: optional YAML front matter (title, url, tags...), then the body as blocks. */
export const loadMarkdown: Loader = (input) => ({ documents: [markdownDocument(input)], failures: [] });

export function markdownDocument(
  input: LoaderInput,
  overrides: Partial<LoadedDocument> = {},
): LoadedDocument {
  let text = input.text;
  let metadata: Record<string, unknown> = {};
  const frontMatter = FRONT_MATTER.exec(text);
  if (frontMatter) {
    try {
      const parsed: unknown = parseYaml(frontMatter[1]!);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        metadata = parsed as Record<string, unknown>;
        text = text.slice(frontMatter[0].length);
      }
    } catch {
      // Not YAML after all (a document that opens with a horizontal rule): keep it as text.
    }
  }
  const blocks = parseMarkdownBlocks(text);
  const firstHeading = blocks.find((block) => block.type === 'heading' && block.level === 1);
  const { title, url, ...rest } = metadata;
  return {
    sourcePath: input.sourcePath,
    sourceFile: input.sourcePath,
    kind: 'markdown',
    title: typeof title === 'string' ? title : (firstHeading?.title ?? titleFromPath(input.sourcePath)),
    url: typeof url === 'string' ? url : null,
    text,
    blocks,
    metadata: rest,
    ...overrides,
  };
}
