import MiniSearch from 'minisearch';
import { parseDocument } from 'htmlparser2';
import type { ChildNode } from 'domhandler';

/**
 * The plain baseline every answer-level figure is reported beside: a BM25 index (MiniSearch, its
 * defaults: BM25+ with k 1.2, b 0.7, its own tokenizer, no stemming, no boosts) over one document
 * per unit a user asks for: an operation of a spec, or a page of a manual. Built straight from the
 * source files, sharing nothing with the product's loaders, so a loader's bug cannot help it.
 */
export interface BaselineIndex {
  /** Unit ids, best first. */
  search(question: string, limit?: number): string[];
  /** Units indexed. */
  size: number;
}

function index(documents: ReadonlyArray<Record<string, string>>, fields: string[]): BaselineIndex {
  const search = new MiniSearch({ fields, idField: 'id', storeFields: [] });
  search.addAll(documents);
  return {
    size: documents.length,
    search: (question, limit = 10) =>
      search
        .search(question, { combineWith: 'OR' })
        .slice(0, limit)
        .map((result) => String(result.id)),
  };
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

const str = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * One document per operation of an OpenAPI description: method, path, summary, description,
 * operationId and tags, the fields a developer reads. Ids are `METHOD /path`.
 */
export function operationBaseline(spec: unknown): BaselineIndex {
  const paths = (spec as { paths?: Record<string, Record<string, unknown>> }).paths ?? {};
  const documents: Array<Record<string, string>> = [];
  for (const [path, item] of Object.entries(paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item?.[method] as Record<string, unknown> | undefined;
      if (!operation || typeof operation !== 'object') continue;
      documents.push({
        id: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        summary: str(operation.summary),
        description: str(operation.description),
        operationId: str(operation.operationId),
        tags: Array.isArray(operation.tags) ? operation.tags.map(str).join(' ') : '',
      });
    }
  }
  return index(documents, ['method', 'path', 'summary', 'description', 'operationId', 'tags']);
}

/** The visible text of an HTML page: no script, style or head. */
export function visibleText(html: string): { title: string; text: string } {
  const document = parseDocument(html);
  let title = '';
  const parts: string[] = [];
  const walk = (node: ChildNode) => {
    if (node.type === 'text') parts.push(node.data);
    if (node.type !== 'tag' && node.type !== 'root') return;
    if (node.type === 'tag') {
      if (node.name === 'title') {
        title = node.children.map((child) => (child.type === 'text' ? child.data : '')).join('');
        return;
      }
      // The head holds the title (read above) and nothing a reader sees besides.
      if (node.name === 'script' || node.name === 'style') return;
      if (node.name === 'head') {
        for (const child of node.children) if (child.type === 'tag' && child.name === 'title') walk(child);
        return;
      }
    }
    for (const child of node.children) walk(child);
  };
  for (const node of document.children) walk(node);
  return { title: title.replace(/\s+/g, ' ').trim(), text: parts.join(' ').replace(/\s+/g, ' ').trim() };
}

/** One document per page (its title and visible text); ids are the pages' paths. */
export function pageBaseline(pages: ReadonlyArray<{ id: string; html: string }>): BaselineIndex {
  return index(
    pages.map((page) => ({ id: page.id, ...visibleText(page.html) })),
    ['title', 'text'],
  );
}
