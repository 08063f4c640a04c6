/** Something a query names exactly, which a chunk either contains or does not. */
export interface Identifier {
  kind: 'operation' | 'entity' | 'code' | 'path';
  /** Regex that finds a definition or exact mention in a chunk. */
  strong: RegExp;
  /** Regex that finds a weaker, partial mention (e.g. the path without its method). */
  weak?: RegExp;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const pathPattern = (path: string) => `(?:^|[^\\w/{])${escape(path)}(?![\\w/{])`;

/**
 * The exact identifiers in a query: API operations (`POST /locations`), numbered entities
 * (`Algorithm 3.2`, `Equation A.3`), constant-style codes (`CARRIER_SUSPENDED`, `INC-2291`) and
 * bare API paths.
 */
export function extractIdentifiers(query: string): Identifier[] {
  const identifiers: Identifier[] = [];
  const seenPaths = new Set<string>();
  for (const match of query.matchAll(/\b(GET|POST|PUT|PATCH|DELETE)\s+(\/[\w\-{}/.]*[\w}])/gi)) {
    const method = match[1]!;
    const path = match[2]!;
    seenPaths.add(path);
    identifiers.push({
      kind: 'operation',
      // "POST /locations" written out, or an OpenAPI path key followed by its method key before
      // the next path key (no line in between may start with "/").
      strong: new RegExp(
        `\\b${method}\\s+${escape(path)}(?![\\w/{])|${pathPattern(path)}:\\s*\\n(?:(?![ \\t]*/)[^\\n]*\\n){0,40}?\\s+${method.toLowerCase()}:`,
        'i',
      ),
      weak: new RegExp(pathPattern(path), 'i'),
    });
  }
  for (const match of query.matchAll(
    /\b(Algorithm|Equation|Table|Figure|Example|Exercise|Chapter|Section|Appendix)\s+((?:[A-Z]\.?)?\d+(?:\.\d+)*)\b/gi,
  )) {
    // "3.2" must not match "3.21" or "3.2.1": neither a digit nor a dot and digit may follow.
    const label = `${match[1]!}\\s+${escape(match[2]!)}(?!\\d|\\.\\d)`;
    identifiers.push({
      kind: 'entity',
      // Its definition: the bold label or a heading that opens with it.
      strong: new RegExp(`\\*\\*${label}|^#{1,6}\\s+${label}|^${escape(match[2]!)}\\s`, 'im'),
      weak: new RegExp(`\\b${label}`, 'i'),
    });
  }
  for (const match of query.matchAll(/\b[A-Z][A-Z0-9]*(?:[_-][A-Z0-9]+)+\b/g)) {
    identifiers.push({ kind: 'code', strong: new RegExp(`\\b${escape(match[0])}\\b`) });
  }
  for (const match of query.matchAll(/(?:^|\s)(\/[a-z][\w\-{}/.]*[\w}])/gi)) {
    if (seenPaths.has(match[1]!)) continue;
    identifiers.push({ kind: 'path', strong: new RegExp(pathPattern(match[1]!), 'i') });
  }
  return identifiers;
}

/**
 * 1 when the text has an identifier's strong form (its definition, or the operation itself),
 * 0.25 for only a weak form (a mention, or the path without its method), else 0. A mention is
 * worth little: "what is Algorithm 3.2" wants the definition, not every page that cites it.
 */
export function identifierMatch(identifiers: readonly Identifier[], text: string): number {
  let best = 0;
  for (const identifier of identifiers) {
    if (identifier.strong.test(text)) return 1;
    if (identifier.weak?.test(text)) best = 0.25;
  }
  return best;
}
