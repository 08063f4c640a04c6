import { FIELD_WEIGHTS, stemmedWords, type ApiOperation } from './api-vocabulary.js';
import type { QuestionAction } from './intent.js';

/**
 * Which API operations a question in plain words is about: its object (the words it shares with
 * each operation's spec vocabulary, rarer words counting more) times its action (the CRUD shape
 * its verbs ask for, many-at-once, one item or a collection). No model and no domain list: the
 * words come from the spec, the verbs from English.
 */

export interface OperationScore {
  operation: ApiOperation;
  /** How much of the question's object the operation's vocabulary covers (idf-weighted). */
  object: number;
  /** object × the action's agreement. */
  score: number;
}

export interface OperationMatch {
  /** Every operation with a positive score, best first. */
  ranked: OperationScore[];
  /**
   * Whether the question is about the API at all: it asks to do something (a verb, or "how do
   * I ...") and its object is a resource the workspace's specs name, strongly enough.
   */
  aboutApi: boolean;
}

/** Words of a question that say nothing about its object. */
const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or of to in on at for from by with without into onto about as is are was were be been ' +
    'do does did done can could should would will shall may might must i we you they it its my our your ' +
    'their me us them this that these those there here what which who whom whose when where why how ' +
    'not no yes if then than so just only also again still very too some any each every all one ' +
    'api endpoint endpoints call calls operation operations request requests route routes use using ' +
    'way want need like get got have has had make made please thing things'
  )
    .split(' ')
    .flatMap(stemmedWords),
);

// Fields that name what an operation is about rather than describe it: a question whose object
// meets the operation only in a description's lead has not named an API resource.
const NAMING_WEIGHT = FIELD_WEIGHTS.tagDescription;

/** Agreement of an operation with the action asked for: > 1 agrees, < 1 contradicts. */
function actionFactor(
  operation: ApiOperation,
  action: QuestionAction,
  words: ReadonlySet<string>,
  verbs: ReadonlySet<string>,
): number {
  let factor = 1;
  const wanted = action.operationType;
  // An action sub-resource whose verb the question uses ("cancel", "validate", "quote", or a verb
  // its own summary or description uses: "voids its label") is the operation that verb asks for,
  // whatever CRUD shape the verb alone suggests.
  const verbNamed =
    operation.operationType === 'action' &&
    ((operation.action !== null && stemmedWords(operation.action).every((word) => words.has(word))) ||
      [...verbs].some((verb) => operation.ownWords.has(verb)));
  if (verbNamed) factor *= 1.6;
  else if (wanted !== undefined) {
    const type = operation.operationType;
    if (type === wanted) factor *= 1.5;
    else if (
      action.strength === 'weak' &&
      (type === 'read' || type === 'list') &&
      (wanted === 'read' || wanted === 'list')
    )
      factor *= 0.85;
    else factor *= action.strength === 'strong' ? 0.4 : 0.7;
  }
  // Many at once goes to the bulk operation; one at a time away from it.
  if (action.bulk) factor *= operation.bulk ? 1.6 : 0.8;
  else if (operation.bulk) factor *= 0.7;
  // Collection or item: a list or a create is on the collection path, a read, change or delete
  // of one is on the item path (`/locations` against `/locations/{id}`).
  if (!verbNamed && wanted !== undefined && operation.operationType !== 'action') {
    const wantsItem = wanted === 'read' || wanted === 'update' || wanted === 'delete';
    if (wantsItem !== operation.item && !(wanted === 'read' && operation.operationType === 'read'))
      factor *= 0.85;
  }
  return factor;
}

// Words that end the object of a verb: "add a new warehouse | to my account".
const OBJECT_ENDS = new Set(
  'to for from in on at by with without into onto of about before after when while so because than that which who where'.split(
    ' ',
  ),
);

/**
 * The object of the question's action: the words after its first action verb up to a preposition
 * or a clause break ("add a single new warehouse to my account" → single, new, warehouse). They
 * say what the question is about; the rest is context ("my account").
 */
export function directObject(question: string, verbs: readonly string[]): Set<string> {
  const lower = question.toLowerCase();
  const starts = verbs.map((verb) => lower.indexOf(verb.toLowerCase())).filter((index) => index >= 0);
  if (starts.length === 0) return new Set();
  const first = Math.min(...starts);
  const verb = verbs.find((candidate) => lower.indexOf(candidate.toLowerCase()) === first)!;
  const rest = question.slice(first + verb.length).split(/[.,;:?!()]/)[0] ?? '';
  const words: string[] = [];
  for (const word of rest.split(/\s+/).filter(Boolean)) {
    if (OBJECT_ENDS.has(word.toLowerCase())) break;
    words.push(...stemmedWords(word));
  }
  return new Set(words);
}

/** How much more a word of the action's object counts than a word of the context. */
const OBJECT_BOOST = 2;

/** Scores every operation against the question; `aboutApi` says whether to treat it as an API question. */
export function matchOperations(
  operations: readonly ApiOperation[],
  question: string,
  action: QuestionAction,
): OperationMatch {
  if (operations.length === 0) return { ranked: [], aboutApi: false };
  const words = new Set(
    stemmedWords(question).filter((word) => word.length > 1 && !FUNCTION_WORDS.has(word)),
  );
  // The verbs chose the action; what is left is the object ("register several warehouses" is
  // about warehouses, not about the webhook operation whose summary says "Register").
  const verbs = new Set(action.verbs.flatMap(stemmedWords));
  const objectWords = [...words].filter((word) => !verbs.has(word));
  const actionObject = directObject(question, action.verbs);
  const documentFrequency = new Map<string, number>();
  for (const operation of operations) {
    for (const word of words)
      if (operation.terms.has(word)) documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
  }
  const idf = (word: string) =>
    Math.log(1 + operations.length / (documentFrequency.get(word) ?? operations.length));
  const ranked: OperationScore[] = [];
  for (const operation of operations) {
    let object = 0;
    // An action operation whose own words hold the question's verb ("cancel", "void") is about
    // what the verb says even when the object is misspelt or unnamed: the verb counts as object.
    const named =
      operation.operationType === 'action' ? [...verbs].filter((verb) => operation.ownWords.has(verb)) : [];
    for (const word of [...objectWords, ...named]) {
      const weight = operation.terms.get(word);
      if (weight === undefined) continue;
      object += weight * idf(word) * (actionObject.has(word) ? OBJECT_BOOST : 1);
    }
    if (object <= 0) continue;
    ranked.push({ operation, object, score: object * actionFactor(operation, action, words, verbs) });
  }
  ranked.sort(
    (left, right) =>
      right.score - left.score || (left.operation.sourcePath < right.operation.sourcePath ? -1 : 1),
  );
  // Named: some word of the question is one the specs use to name an operation's object (a path,
  // summary, tag or tag description word) and that tells operations apart (not in every one).
  const named = objectWords.some((word) => {
    const frequency = documentFrequency.get(word) ?? 0;
    return (
      frequency > 0 &&
      frequency < operations.length &&
      operations.some((operation) => (operation.terms.get(word) ?? 0) >= NAMING_WEIGHT)
    );
  });
  // "Which carriers are connected?" asks for a collection when the specs have one by that name
  // (a path segment), though it has no verb of its own.
  const collection = action.collection;
  const listsKnown =
    collection !== undefined &&
    operations.some((operation) => operation.operationType === 'list' && operation.pathWords.has(collection));
  return { ranked, aboutApi: (action.asks || listsKnown) && named };
}
