import type { Sql } from '../db/index.js';
import { STOPWORDS } from '../embed/index.js';
import { learnedAcronyms } from '../lexicon/index.js';
import { fromCatalogue, type ApiOperation, type Catalogue } from './catalogue.js';
import { OperationFieldIndex } from './field-index.js';
import { operationTerm } from './terms.js';

/** What retrieval and question understanding need of a workspace's API operations. */
export interface WorkspaceOperations {
  operations: readonly ApiOperation[];
  index: OperationFieldIndex;
  /** Acronyms of the names the spec uses ("mr" → "merge requests"). */
  acronyms: ReadonlyMap<string, readonly string[]>;
  /** Every word of every operation's fields, lower case, as written: what a clipped word may shorten. */
  vocabulary: ReadonlySet<string>;
  /** Share of the workspace's documents that describe an API. */
  specShare: number;
}

/** The workspace's operations, indexed; cached until its corpus version changes. */
export function workspaceOperations(
  sql: Sql,
  workspaceId: string,
  corpusVersion?: number,
): Promise<WorkspaceOperations> {
  return fromCatalogue(sql, workspaceId, 'operations', indexed, corpusVersion);
}

function indexed({ operations, specShare }: Catalogue): WorkspaceOperations {
  const vocabulary = new Set<string>();
  for (const operation of operations)
    for (const text of Object.values(operation.fields))
      for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) vocabulary.add(word);
  return {
    operations,
    index: new OperationFieldIndex(operations, {
      term: (word) => (STOPWORDS.has(word) ? null : operationTerm(word)),
    }),
    // Names only: a path segment or a tag is what the spec calls a thing ("merge_requests");
    // the words of a sentence ("closes issues") are not.
    acronyms: learnedAcronyms(operations.flatMap((operation) => [...operation.segments, ...operation.tags])),
    vocabulary,
    specShare,
  };
}
