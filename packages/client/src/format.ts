import type { KnowledgeBundle, ScoredPiece } from './knowledge.js';

export interface FormatOptions {
  /** Put around each section's title: `['[', ']']` gives `[Knowledge]` (the default). */
  delimiters?: [string, string];
  /** Show a piece's tags after it. */
  tags?: boolean;
  /** Show each piece's and relationship's score. */
  scores?: boolean;
}

const field = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * The bundle as prompt text: `[Metadata]`, `[Global Metadata]`, `[Knowledge]` and
 * `[Relationships]` sections, each only when it has something, in the bundle's order.
 */
export function formatKnowledge(bundle: KnowledgeBundle, options: FormatOptions = {}): string {
  const [open, close] = options.delimiters ?? ['[', ']'];
  const sections: string[] = [];
  const section = (title: string, lines: string[]) => {
    if (lines.length > 0) sections.push([`${open}${title}${close}`, ...lines].join('\n'));
  };
  const entries = (fields: Record<string, unknown> | null) =>
    Object.entries(fields ?? {}).map(([key, value]) => `${key}: ${field(value)}`);
  section('Metadata', entries(bundle.metadata));
  section('Global Metadata', entries(bundle.globalMetadata));
  section(
    'Knowledge',
    bundle.pieces.map((piece) => pieceLine(piece, options)),
  );
  section(
    'Relationships',
    bundle.graph.map(
      (fact) =>
        `- ${fact.from} ${fact.relation} ${fact.to}${options.scores ? ` (${fact.score.toFixed(2)})` : ''}`,
    ),
  );
  return sections.join('\n\n');
}

export function pieceLine(piece: ScoredPiece, options: Pick<FormatOptions, 'tags' | 'scores'> = {}): string {
  const tags = options.tags && piece.tags.length > 0 ? ` [${piece.tags.join(', ')}]` : '';
  const score = options.scores ? ` (${piece.score.toFixed(2)})` : '';
  return `- ${piece.content}${tags}${score}`;
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
