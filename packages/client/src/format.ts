import type { GraphFact, KnowledgeBundle, ScoredPiece } from './knowledge.js';

/**
 * `KnowledgeFormatter` settings as docs/knowledge-packs.md has them. The older names stay
 * accepted: `tags` and `scores` for `includeTags` and `includeScores`, and `delimiters` (put
 * around each section's title).
 */
export interface FormatOptions {
  /** Between sections (default `"\n\n"`). */
  sectionDelimiter?: string;
  /** Between pieces in the knowledge section (default `"\n---\n"`). */
  itemDelimiter?: string;
  /** Show each piece's tags below it (default true). */
  includeTags?: boolean;
  /** Show each piece's and relationship's relevance score (default false). */
  includeScores?: boolean;
  /** Put around each section's title: `['[', ']']` gives `[Knowledge]` (the default). */
  delimiters?: [string, string];
  /** Alias of `includeTags`. */
  tags?: boolean;
  /** Alias of `includeScores`. */
  scores?: boolean;
}

interface Settings {
  sectionDelimiter: string;
  itemDelimiter: string;
  includeTags: boolean;
  includeScores: boolean;
  delimiters: [string, string];
}

function settings(options: FormatOptions): Settings {
  return {
    sectionDelimiter: options.sectionDelimiter ?? '\n\n',
    itemDelimiter: options.itemDelimiter ?? '\n---\n',
    includeTags: options.includeTags ?? options.tags ?? true,
    includeScores: options.includeScores ?? options.scores ?? false,
    delimiters: options.delimiters ?? ['[', ']'],
  };
}

const field = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
/** Code-unit order, not locale order: the same on every machine. */
const compare = (left: string, right: string) => (left < right ? -1 : left > right ? 1 : 0);

/** `key: value` lines, keys in alphabetical order. */
export function metadataLines(fields: Record<string, unknown> | null): string[] {
  return Object.keys(fields ?? {})
    .sort(compare)
    .map((key) => `${key}: ${field(fields![key])}`);
}

/** Pieces by (−score, piece id): most relevant first, ties by id. */
export function sortPieces(pieces: readonly ScoredPiece[]): ScoredPiece[] {
  return [...pieces].sort((left, right) => right.score - left.score || compare(left.id, right.id));
}

/** Relationships by (relation type, target id), then source id. */
export function sortRelationships(facts: readonly GraphFact[]): GraphFact[] {
  return [...facts].sort(
    (left, right) =>
      compare(left.relation, right.relation) ||
      compare(left.target, right.target) ||
      compare(left.source, right.source),
  );
}

/** `[procedure] Initialize ...`, then `  Tags: les, rans` (and `  Score: 0.85` when asked). */
export function pieceLine(piece: ScoredPiece, options: FormatOptions = {}): string {
  const { includeTags, includeScores } = settings(options);
  const lines = [piece.knowledgeType ? `[${piece.knowledgeType}] ${piece.content}` : piece.content];
  if (includeTags && piece.tags.length > 0) lines.push(`  Tags: ${piece.tags.join(', ')}`);
  if (includeScores) lines.push(`  Score: ${piece.score.toFixed(2)}`);
  return lines.join('\n');
}

/**
 * `SPECIALIZES_IN → Technique:les (LES simulation expert)`: the relation, the target's typed id,
 * and the edge's description when it has one. An edge that does not start at the active entity
 * names its source first, or the line would not say whose relation it is.
 */
export function relationshipLine(fact: GraphFact, options: FormatOptions = {}): string {
  const source = fact.fromEntity ? '' : `${fact.source} `;
  const description = fact.description ? ` (${fact.description})` : '';
  const score = settings(options).includeScores ? ` [score: ${fact.score.toFixed(2)}]` : '';
  return `${source}${fact.relation} → ${fact.target}${description}${score}`;
}

/**
 * The bundle as prompt text (docs/knowledge-packs.md, formatter): `[Metadata]`, `[Global Metadata]`,
 * `[Knowledge]` and `[Relationships]` sections, each only when it has something, separated by the
 * section delimiter; metadata keys sorted, pieces by (−score, id) separated by the item delimiter,
 * relationships by (relation, target). The same bundle always gives the same bytes.
 */
export function formatKnowledge(bundle: KnowledgeBundle, options: FormatOptions = {}): string {
  const resolved = settings(options);
  const [open, close] = resolved.delimiters;
  const sections: string[] = [];
  const section = (title: string, body: string) => {
    if (body.length > 0) sections.push(`${open}${title}${close}\n${body}`);
  };
  section('Metadata', metadataLines(bundle.metadata).join('\n'));
  section('Global Metadata', metadataLines(bundle.globalMetadata).join('\n'));
  section(
    'Knowledge',
    sortPieces(bundle.pieces)
      .map((piece) => pieceLine(piece, options))
      .join(resolved.itemDelimiter),
  );
  section(
    'Relationships',
    sortRelationships(bundle.graph)
      .map((fact) => relationshipLine(fact, options))
      .join('\n'),
  );
  return sections.join(resolved.sectionDelimiter);
}

/**
 * A per-info-type formatter: a function, or a template applied to each piece (`{content}`,
 * `{knowledge_type}`, `{tags}`, `{score}`, `{id}`) and joined by newlines.
 */
export type InfoTypeFormatter = string | ((pieces: ScoredPiece[], bundle: KnowledgeBundle) => string);

export function applyFormatter(
  formatter: InfoTypeFormatter,
  pieces: ScoredPiece[],
  bundle: KnowledgeBundle,
): string {
  if (typeof formatter === 'function') return formatter(pieces, bundle);
  return pieces
    .map((piece) =>
      formatter
        .replaceAll('{content}', piece.content)
        .replaceAll('{knowledge_type}', piece.knowledgeType ?? '')
        .replaceAll('{tags}', piece.tags.join(', '))
        .replaceAll('{score}', piece.score.toFixed(2))
        .replaceAll('{id}', piece.id),
    )
    .join('\n');
}
