import type { DocumentFacts, Span } from '../../../graph/index.js';
import type { Block } from '../../document.js';
import { parseMarkdownBlocks } from '../markdown-blocks.js';
import { oneLine } from './json.js';

/** Drafts of documents and the builder that records each block's offsets as it writes. */

/** A document before `referenced_by` (which needs every document of the file) is known. */
export interface Draft {
  id: string;
  title: string;
  text: string;
  blocks: Block[];
  metadata: Record<string, unknown>;
  refIds: Set<string>;
  unresolved: Set<string>;
  facts?: DocumentFacts;
}

/** Appends blocks separated by blank lines and records their offsets as it goes. */
export class TextBuilder {
  text = '';
  readonly blocks: Block[] = [];

  heading(level: number, title: string): Span {
    const line = oneLine(title);
    return this.push('heading', `${'#'.repeat(level)} ${line}`, { level, title: line });
  }

  paragraph(content: string): Span {
    return this.push('paragraph', oneLine(content));
  }

  /** One list block; returns each item's span (from its `- `). */
  list(items: string[]): Span[] {
    if (items.length === 0) return [];
    const lines = items.map((item) => `- ${oneLine(item)}`);
    let offset = this.push('list', lines.join('\n')).start;
    return lines.map((line) => {
      const span = { start: offset, end: offset + line.length };
      offset = span.end + 1;
      return span;
    });
  }

  /** A fenced code block, kept whole by the chunker. */
  code(language: string, content: string): Span {
    return this.push('code', `\`\`\`${language}\n${content.trimEnd()}\n\`\`\``);
  }

  /** A description is Markdown: keep its own blocks, its headings nested under the section's. */
  markdown(content: unknown, levelOffset: number): void {
    const body = typeof content === 'string' ? content.trim() : '';
    if (!body) return;
    const start = this.separate();
    this.text += body;
    for (const block of parseMarkdownBlocks(body)) {
      this.blocks.push({
        ...block,
        start: block.start + start,
        end: block.end + start,
        ...(block.level ? { level: Math.min(6, block.level + levelOffset) } : {}),
      });
    }
  }

  private separate(): number {
    if (this.text) this.text += '\n\n';
    return this.text.length;
  }

  private push(type: Block['type'], content: string, extra: Partial<Block> = {}): Span {
    const start = this.separate();
    this.text += content;
    this.blocks.push({ type, start, end: this.text.length, ...extra });
    return { start, end: this.text.length };
  }
}
