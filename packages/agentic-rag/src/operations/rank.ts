import { actionAgreement, type AskedAction } from './actions.js';
import { verbFamily } from './verbs.js';
import type { ApiOperation, OperationField } from './catalogue.js';
import type { OperationFieldIndex, QueryTerm } from './field-index.js';

/**
 * Operations ranked for a question: what it names (BM25F over each operation's fields) times
 * what it asks to do (the action's agreement with the operation's method and shape) times
 * whether the operation acts on the thing it names (its target resource, not a sub-resource the
 * question never mentions: "delete a repository" is not "delete a label of a repository").
 */

export interface RankedOperation {
  operation: ApiOperation;
  index: number;
  score: number;
  /** Why: the field score and the factors applied to it. */
  explain: { fields: number; action: number; target: number };
}

export interface OperationQuery {
  /** Terms as the index spells them, with their weights (expansions below 1). */
  terms: QueryTerm[];
  action: AskedAction;
}

/** Factors for the operation's target resource: named by the question, or not. */
const TARGET_NAMED = 1.3;
const TARGET_UNNAMED = 0.8;
const DEPRECATED = 0.9;
/** Where the spec names what an operation acts on besides its path: its summary, tags and their descriptions. */
const OBJECT_NAMING: readonly OperationField[] = ['summary', 'tags', 'tagDescriptions'];

/** What agrees or disagrees with the question besides its words: the action, the target, deprecation. */
export interface OperationFactors {
  action: number;
  target: number;
  deprecated: number;
}

/** The factors one operation gets for a question (the same for every opinion on its words). */
export class OperationJudge {
  private readonly asked: Set<string>;
  private readonly verbTerms: Set<string>;
  private readonly undone: string | null;

  constructor(
    private readonly index: OperationFieldIndex,
    private readonly query: OperationQuery,
  ) {
    this.asked = new Set(query.terms.map((term) => term.term));
    this.verbTerms = new Set(
      query.action.positionVerbs
        .flatMap((verb) => verbFamily(verb))
        .map((verb) => index.terms(verb).join(' ')),
    );
    this.undone = query.action.undoes === null ? null : index.terms(`un${query.action.undoes}`).join(' ');
    this.object = query.action.object.flatMap((word) => index.terms(word));
    this.positions = new Map(index.operations.map((operation, position) => [operation, position]));
  }

  private readonly object: string[];
  private readonly positions: Map<ApiOperation, number>;

  private has(operation: ApiOperation, term: string, field: OperationField): boolean {
    const position = this.positions.get(operation);
    return position !== undefined && this.index.has(position, term, field);
  }

  factors(operation: ApiOperation): OperationFactors {
    // The question's verb (or one of its family: "stop" for `/cancel`) is the operation's own
    // action segment, or undoes it ("unstar" for `/unstar`, or a DELETE of `/star`).
    const actionWords = operation.action ? this.index.terms(operation.action).join(' ') : '';
    const verbNamed = actionWords !== '' && (this.verbTerms.has(actionWords) || this.undone === actionWords);
    const target = this.index.terms(operation.fields.target);
    // The target is named by its own word, or by what the verb acts on in the words the spec uses
    // to name the operation ("a new store" for `/locations`, whose tag says "stores").
    const named =
      target.some((term) => this.asked.has(term)) ||
      this.object.some((term) =>
        OBJECT_NAMING.some((field) => operation.fields[field] && this.has(operation, term, field)),
      );
    return {
      action: actionAgreement(operation, this.query.action, verbNamed),
      target: target.length === 0 ? 1 : named ? TARGET_NAMED : TARGET_UNNAMED,
      deprecated: operation.deprecated ? DEPRECATED : 1,
    };
  }
}

/**
 * Whether an operation's fields hold the head of what the question's verb acts on — its last word,
 * as English noun phrases end in their head: "schedule a carrier pickup" is about a pickup, which
 * an operation that only knows carriers does not cover.
 */
export function coversObject(
  index: OperationFieldIndex,
  operation: ApiOperation,
  object: readonly string[],
  /** What the head also stands for (its expansions: "MRs" → merge requests). */
  alternatives: readonly string[] = [],
): boolean {
  const position = index.operations.indexOf(operation);
  const head = object.at(-1);
  if (position < 0 || head === undefined) return false;
  return [head, ...alternatives].some((form) => {
    const terms = index.terms(form);
    return terms.length > 0 && terms.every((term) => index.fieldsOf(position, term).length > 0);
  });
}

export const product = (factors: OperationFactors) => factors.action * factors.target * factors.deprecated;

export function rankOperations(index: OperationFieldIndex, query: OperationQuery): RankedOperation[] {
  const scores = index.score(query.terms);
  const judge = new OperationJudge(index, query);
  const ranked: RankedOperation[] = [];
  index.operations.forEach((operation, position) => {
    const fields = scores[position]!;
    if (fields <= 0) return;
    const factors = judge.factors(operation);
    ranked.push({
      operation,
      index: position,
      score: fields * product(factors),
      explain: { fields, action: factors.action, target: factors.target },
    });
  });
  return ranked.sort(byScore);
}

/**
 * Best first; ties go to the shorter path (the resource before its sub-resources), then by name:
 * never by the order the spec happens to list them in.
 */
export function byScore(
  left: { score: number; operation: ApiOperation },
  right: { score: number; operation: ApiOperation },
): number {
  return (
    right.score - left.score ||
    left.operation.segments.length - right.operation.segments.length ||
    (left.operation.name < right.operation.name ? -1 : 1)
  );
}
