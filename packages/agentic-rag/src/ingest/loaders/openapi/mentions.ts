import type { Span } from '../../../graph/index.js';
import { VERSION_SEGMENT } from '../../../graph/index.js';
import type { Operation } from './operations.js';

/** Where a name is written in a rendered document: the spans entities point at. */
export function resourceMentions(body: string, operation: Operation): Span[] {
  const collection = operation.path
    .split('/')
    .find((segment) => segment && !VERSION_SEGMENT.test(segment) && !segment.startsWith('{'));
  const words = new Set([operation.resource, ...(collection ? [collection] : [])]);
  return [...words].flatMap((word) => mentionsOf(body, word, { word: true, ignoreCase: true }));
}

/** Schema names are written in backticks by the renderers; bare "Location" in prose may mean something else. */
export function schemaMentions(body: string, name: string): Span[] {
  return mentionsOf(body, `\`${name}\``, { delimited: true }).map((span) => ({
    start: span.start + 1,
    end: span.end - 1,
  }));
}

/**
 * Occurrences of `name` not inside a longer name: `POST /locations` does not match inside
 * `POST /locations/bulk`. With `word`, only letters, digits and `_` extend a name.
 */
export function mentionsOf(
  body: string,
  name: string,
  options: { word?: boolean; ignoreCase?: boolean; delimited?: boolean } = {},
): Span[] {
  if (!name) return [];
  // A name in backticks is delimited already: `{data: \`Thing\`}` still mentions Thing.
  const extendsName = options.word ? /\w/ : /[\w/{}-]/;
  const pattern = new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), options.ignoreCase ? 'gi' : 'g');
  const spans: Span[] = [];
  for (const match of body.matchAll(pattern)) {
    const start = match.index;
    const end = start + match[0].length;
    const before = body[start - 1];
    const after = body[end];
    const extended = (before && extendsName.test(before)) || (after && extendsName.test(after));
    if (extended && !options.delimited) continue;
    spans.push({ start, end });
  }
  return spans;
}

/** Where `name` is written inside a heading or list item (the whole span if it is not). */
export function nameSpan(body: string, span: Span, name: string): Span {
  const start = body.indexOf(name, span.start);
  return start !== -1 && start + name.length <= span.end ? { start, end: start + name.length } : span;
}
