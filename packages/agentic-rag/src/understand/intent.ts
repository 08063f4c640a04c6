import type {
  AskedAction,
  OperationField,
  OperationFieldIndex,
  QueryTerm,
  RankedOperation,
} from '../operations/index.js';
import type { QuestionShape } from './shape.js';
import type { QueryIntent } from './wording.js';

/**
 * What a question is after, with how sure the evidence makes it. The wording alone decides only
 * when it says so ("which endpoint", "what fields", "error codes"); otherwise the workspace does:
 * a question is about the API when the workspace describes one and the question's words name one
 * of its operations better than anything else — the words it would be searched by, not the verb
 * it happens to use ("What is the Q-learning update rule?" says "update" and names nothing an API
 * does). A question about a numbered entity (Algorithm 3.2) is never an API question.
 */
export interface UnderstoodIntent extends QueryIntent {
  /** 0 to 1: how sure the evidence makes the kind. */
  confidence: number;
  /** What decided it, in words, for the "why" of an answer. */
  reasons: string[];
  /** The wording said so, the workspace's evidence did, or neither (general by default). */
  source: 'wording' | 'evidence' | 'none';
}

/** At this confidence or above a question is treated as being about the API's operations. */
export const API_CONFIDENCE = 0.5;
/** How sure a workspace that is all API description makes it that a question is about the API. */
const SPEC_PRIOR = 0.9;
/** What a question of no verb of change still counts for (it may ask to read). */
const LOOKING = 0.6;
/** What a question for a fact counts for: the operation that names its words is seldom the answer. */
const FACTUAL = 0.3;
/** The best operation acts on what the question names, and does what it asks. */
const TARGET_EVIDENCE = 0.6;
const ACTION_EVIDENCE = 0.3;

export interface IntentEvidence {
  wording: QueryIntent;
  action: AskedAction;
  shape: QuestionShape;
  /** The question's own content terms, as the operation index spells them (no expansions). */
  terms: readonly QueryTerm[];
  ranked: readonly RankedOperation[];
  index: OperationFieldIndex | null;
  specShare: number;
  /** The question names a numbered entity. */
  entity: boolean;
}

/**
 * How much of the question's terms (each weighted by its rarity among the operations; a term no
 * operation has counts as rare as can be) the best operation's fields hold.
 */
export function operationCoverage(
  index: OperationFieldIndex,
  terms: readonly QueryTerm[],
  best: RankedOperation | undefined,
): number {
  if (!best || terms.length === 0) return 0;
  const rarest = Math.log(1 + (index.size + 0.5) / 0.5);
  let total = 0;
  let covered = 0;
  for (const { term, weight } of terms) {
    const df = index.documentFrequency(term);
    const idf = df === 0 ? rarest : index.idf(term);
    total += idf * weight;
    if (index.fieldsOf(best.index, term).length > 0) covered += idf * weight;
  }
  return total > 0 ? covered / total : 0;
}

/** Whether some operation's path has the term as a segment: the spec names a resource by it. */
function namesResource(index: OperationFieldIndex, term: string): boolean {
  for (let position = 0; position < index.size; position++)
    if (index.has(position, term, 'path')) return true;
  return false;
}

/** Fields that say what an operation is about, not how it works. */
const NAMING: readonly OperationField[] = [
  'path',
  'target',
  'summary',
  'operationId',
  'tags',
  'tagDescriptions',
];

/**
 * Whether the operation names what the question's verb acts on, in the words of its naming fields
 * (its tag's description says "warehouses, stores, drop-off points" for `/locations`).
 */
function namesObject(evidence: IntentEvidence, best: RankedOperation): boolean {
  const index = evidence.index;
  if (!index || evidence.action.object.length === 0) return false;
  return evidence.action.object
    .flatMap((word) => index.terms(word))
    .some((term) => NAMING.some((field) => index.has(best.index, term, field)));
}

export function decideIntent(evidence: IntentEvidence): UnderstoodIntent {
  const { wording, action } = evidence;
  const operationType = action.class ?? wording.operationType;
  if (evidence.entity)
    return {
      kind: 'general',
      confidence: 1,
      reasons: ['the question names a numbered entity'],
      source: 'wording',
    };
  // "the fields of a ticket" asks for fields when the API has a `field` resource: a word the
  // spec names a resource by is the question's object, not the kind of answer it wants.
  const resource =
    wording.trigger !== undefined &&
    evidence.index !== null &&
    evidence.index
      .terms(wording.trigger)
      .some((term) => evidence.index!.documentFrequency(term) > 0 && namesResource(evidence.index!, term));
  // "find customers where a metadata field equals …" asks for something done, with a field in it;
  // "what fields does a customer have" asks for the shape. A generic shape word beside a verb of
  // action is not a request for a schema.
  const shapeInPassing =
    wording.kind === 'schema' &&
    // A verb must be there: "what fields …" reads as a listing by its plural alone, which is
    // the shape question itself, not an action beside it.
    action.verbs.length > 0 &&
    action.strength !== 'none' &&
    wording.trigger !== undefined &&
    !/^(schemas?|payload|request body)$/.test(wording.trigger);
  if ((wording.kind === 'schema' || wording.kind === 'error') && !resource && !shapeInPassing)
    return {
      ...wording,
      confidence: 0.8,
      reasons: [`the wording asks for ${wording.kind === 'error' ? 'an error' : 'a shape'}`],
      source: 'wording',
    };
  const operations = evidence.index?.size ?? 0;
  if (wording.kind === 'endpoint')
    return {
      kind: 'endpoint',
      ...(operationType ? { operationType } : {}),
      confidence: operations > 0 ? 0.9 : 0.5,
      reasons: ['the wording asks for an API operation'],
      source: 'wording',
    };
  if (operations === 0 || !evidence.index)
    return { kind: 'general', confidence: 1, reasons: ['the workspace describes no API'], source: 'none' };
  const coverage = operationCoverage(evidence.index, evidence.terms, evidence.ranked[0]);
  const asksToDo =
    action.strength === 'strong' ||
    action.bulk ||
    evidence.shape.asks.has('steps') ||
    evidence.shape.asks.has('operation');
  // Two independent reasons to read the question as an API one, either enough on its own (a
  // noisy-or): the workspace is mostly an API description (a question asked of a spec is about
  // the spec; the prior grows from nothing at half the workspace to SPEC_PRIOR at all of it),
  // or the question's words name an operation and it asks for something done.
  // A question for a fact ("What is a library card?", "why …", "how many …") with no action in it
  // asks what the spec says, not which operation to call: the workspace's prior does not apply.
  const factual =
    action.strength === 'none' &&
    !asksToDo &&
    (['definition', 'reason', 'number', 'yes-no'] as const).some((ask) => evidence.shape.asks.has(ask));
  const prior = factual ? 0 : SPEC_PRIOR * Math.max(0, 2 * evidence.specShare - 1);
  // The words are one sign; the question's structure is another: the best operation acts on the
  // thing the question names (its target resource), and does what the question asks.
  const best = evidence.ranked[0];
  const structure = best
    ? (best.explain.target > 1 || namesObject(evidence, best) ? TARGET_EVIDENCE : 0) +
      (best.explain.action > 1 ? ACTION_EVIDENCE : 0)
    : 0;
  const named = Math.max(coverage, structure) * (asksToDo ? 1 : factual ? FACTUAL : LOOKING);
  const confidence = Number((1 - (1 - prior) * (1 - named)).toFixed(4));
  const reasons = [
    `the best operation (${best?.operation.name ?? 'none'}) holds ${Math.round(coverage * 100)}% of the question's terms${best && best.explain.target > 1 ? ', acts on what it names' : ''}${best && best.explain.action > 1 ? ', does what it asks' : ''}`,
    asksToDo ? 'the question asks for something to be done' : 'the question asks to see something',
    `${Math.round(evidence.specShare * 100)}% of the workspace describes an API`,
  ];
  return confidence >= API_CONFIDENCE
    ? {
        kind: 'endpoint',
        ...(operationType ? { operationType } : {}),
        confidence,
        reasons,
        source: 'evidence',
      }
    : { kind: 'general', confidence: Number((1 - confidence).toFixed(4)), reasons, source: 'evidence' };
}
