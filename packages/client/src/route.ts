import {
  applyFormatter,
  metadataLines,
  pieceLine,
  relationshipLine,
  sortPieces,
  sortRelationships,
  type FormatOptions,
  type InfoTypeFormatter,
} from './format.js';
import type { GraphFact, KnowledgeBundle, ScoredPiece } from './knowledge.js';

export interface RouteOptions extends FormatOptions {
  /** Where the entity's metadata (and the global metadata) goes (default `user_profile`). */
  metadataInfoType?: string;
  /** How a bucket's pieces are written; the default is the formatter's piece format. */
  formatters?: Record<string, InfoTypeFormatter>;
}

interface Bucket {
  metadata: string[];
  globalMetadata: string[];
  pieces: ScoredPiece[];
  relationships: GraphFact[];
}

/**
 * `KnowledgeProvider` routing (docs/knowledge-packs.md): the bundle as `{info_type: text}`.
 *
 * | source                                      | goes to                                   |
 * | entity metadata (then global metadata)      | `metadataInfoType` (`user_profile`)       |
 * | a piece                                     | its own `info_type`                       |
 * | an edge linking a piece                     | that piece's `info_type`                  |
 * | an edge from the active entity, no piece    | `user_profile`                            |
 * | any other edge, no piece                    | `context`                                 |
 *
 * Each value is its parts in this order, separated by the section delimiter: the metadata lines
 * (sorted keys), the global metadata lines, the pieces (by −score, id; item delimiter between),
 * the relationship lines (by relation, target). Keys come out sorted; the same bundle gives
 * byte-identical values.
 */
export function routeKnowledge(bundle: KnowledgeBundle, options: RouteOptions = {}): Record<string, string> {
  const buckets = new Map<string, Bucket>();
  const bucket = (infoType: string) => {
    let found = buckets.get(infoType);
    if (!found) {
      found = { metadata: [], globalMetadata: [], pieces: [], relationships: [] };
      buckets.set(infoType, found);
    }
    return found;
  };
  const metadataInfoType = options.metadataInfoType ?? 'user_profile';
  const own = metadataLines(bundle.metadata);
  const shared = metadataLines(bundle.globalMetadata);
  if (own.length > 0) bucket(metadataInfoType).metadata.push(...own);
  if (shared.length > 0) bucket(metadataInfoType).globalMetadata.push(...shared);
  const pieces = new Map(bundle.pieces.map((piece) => [piece.id, piece]));
  for (const piece of bundle.pieces) bucket(piece.infoType).pieces.push(piece);
  for (const fact of bundle.graph) {
    const linked = fact.pieceId !== null ? pieces.get(fact.pieceId) : undefined;
    const infoType = linked ? linked.infoType : fact.fromEntity ? 'user_profile' : 'context';
    bucket(infoType).relationships.push(fact);
  }

  const itemDelimiter = options.itemDelimiter ?? '\n---\n';
  const sectionDelimiter = options.sectionDelimiter ?? '\n\n';
  const provided: Record<string, string> = {};
  for (const infoType of [...buckets.keys()].sort((left, right) =>
    left < right ? -1 : left > right ? 1 : 0,
  )) {
    const { metadata, globalMetadata, pieces: own, relationships } = buckets.get(infoType)!;
    const sorted = sortPieces(own);
    const formatter = options.formatters?.[infoType];
    const piecesText = formatter
      ? sorted.length > 0
        ? applyFormatter(formatter, sorted, bundle)
        : ''
      : sorted.map((piece) => pieceLine(piece, options)).join(itemDelimiter);
    provided[infoType] = [
      metadata.join('\n'),
      globalMetadata.join('\n'),
      piecesText,
      sortRelationships(relationships)
        .map((fact) => relationshipLine(fact, options))
        .join('\n'),
    ]
      .filter((part) => part.length > 0)
      .join(sectionDelimiter);
  }
  return provided;
}
