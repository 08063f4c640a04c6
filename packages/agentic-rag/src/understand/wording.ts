import { stemmedWords } from './api-vocabulary.js';
import type { RetrievalFilters } from './filters.js';

export type IntentKind = 'endpoint' | 'schema' | 'error' | 'general';

export interface QueryIntent {
  kind: IntentKind;
  /** create / read / update / delete / list, when the question says which. */
  operationType?: string;
}

const ENDPOINT = new RegExp(
  [
    String.raw`\b(endpoints?|api calls?|routes?|operations?|requests?|(GET|POST|PUT|PATCH|DELETE)\s+\/)`,
    // "which call ...", "what call ..."
    String.raw`\b(which|what)\s+calls?\b`,
    // "... through the API", "via the REST API", "using the API"
    String.raw`\b(via|through|using|with|from|in)\s+(the\s+|our\s+|your\s+)?(rest\s+|http\s+)?api\b`,
  ].join('|'),
  'i',
);
// 001's examples: "what fields", "user object structure", "data model"; "error codes", "failed
// request", "exception handling".
const SCHEMA = /\b(schemas?|fields?|propert(y|ies)|request body|payload|attributes?|model|structures?)\b/i;
const FAILED_CALL = /\b(fail(s|ed|ing)?|rejected|erroring)\s+(api\s+)?(requests?|calls?)\b/i;
const ERROR = /\b(errors?|error codes?|status codes?|[45]\d\d|fail(s|ed|ing|ure)?|exceptions?)\b/i;

/** Checked in order; an update or delete verb outranks "new" or "add" in the same question. */
const OPERATION_VERBS: ReadonlyArray<[string, RegExp]> = [
  [
    'update',
    /\b(updat(e|es|ed|ing)|chang(e|es|ing)|edit(s|ing)?|modif(y|ies|ying)|renam(e|es|ing)|replac(e|es|ed|ing)|overwrit(e|es|ing))\b/i,
  ],
  [
    'create',
    /\b(creat(e|es|ed|ing)|adds?|adding|register(s|ed|ing)?|makes?|purchas(e|es|ing)|buy(s|ing)?|connect(s|ing)?)\b/i,
  ],
  ['list', /\b(lists?|listing|all|enumerat(e|es|ing)|browse)\b/i],
  ['delete', /\b(delet(e|es|ed|ing)|remov(e|es|ed|ing)|destroy(s|ing)?)\b/i],
  ['read', /\b(gets?|retriev(e|es|ing)|fetch(es|ing)?|look up|reads?|show(s|ing)?)\b/i],
];

/**
 * What kind of chunk the question is after, from its wording alone (no model): "what endpoints
 * create a location?" wants API operations that create, not prose that mentions locations. The
 * first stage is narrowed to that kind and falls back to everything when too little matches.
 */
export function detectIntent(query: string): QueryIntent {
  // "a failed request" asks about the failure, not about which request to send.
  const kind: IntentKind = FAILED_CALL.test(query)
    ? 'error'
    : ENDPOINT.test(query)
      ? 'endpoint'
      : ERROR.test(query)
        ? 'error'
        : SCHEMA.test(query)
          ? 'schema'
          : 'general';
  if (kind !== 'endpoint') return { kind };
  const verb = OPERATION_VERBS.find(([, pattern]) => pattern.test(query));
  if (verb) return { kind, operationType: verb[0] };
  // "new" alone is the weakest sign of a create: only when no verb says otherwise.
  return /\bnew\b/i.test(query) ? { kind, operationType: 'create' } : { kind };
}

/** What a question asks an API to do, from its verbs and phrases alone. */
export interface QuestionAction {
  /** The CRUD shape asked for, when a verb or phrase says which. */
  operationType?: 'create' | 'read' | 'update' | 'delete' | 'list';
  /**
   * `strong`: a verb that names the change (add, remove, rename). `weak`: a verb of looking
   * (see, show, get), which a list and a read of one both answer.
   */
  strength: 'strong' | 'weak' | 'none';
  /** Many at once: "in one request", "several", "bulk", "batch". */
  bulk: boolean;
  /** "How do I ...", "what do I call", "is there a way": a question about doing something. */
  howTo: boolean;
  /** The words that said which action: they name the action, not the object it is done to. */
  verbs: string[];
  /**
   * Whether the question asks for something to be done: a verb of change, "how do I ...", many
   * at once, or a command ("Show me every location"). "What print darkness does the label
   * supplier recommend?" names a verb of looking in passing and asks for a fact.
   */
  asks: boolean;
  /** The plural after "which"/"what" ("Which carriers ..."), stemmed: a collection, if the specs name it. */
  collection?: string;
}

/**
 * Checked in order, first match wins: a change outranks a look ("replace the card I see"), and a
 * request for one specific item outranks a generic "find". The words are English usage, not any
 * spec's vocabulary; the spec's own words come in through the operations' metadata. Past
 * participles are left out on purpose: "connected carriers" and "cancelled shipments" say what to
 * list, not a change to make.
 */
const ACTION_PATTERNS: ReadonlyArray<
  [NonNullable<QuestionAction['operationType']>, 'strong' | 'weak', RegExp]
> = [
  [
    'update',
    'strong',
    /\b(updat(e|es|ing)|chang(e|es|ing)|edit(s|ing)?|modif(y|ies|ying)|renam(e|es|ing)|replac(e|es|ing)|overwrit(e|es|ing)|correct(s|ing)?|adjust(s|ing)?)\b/i,
  ],
  [
    'delete',
    'strong',
    /\b(delet(e|es|ing)|remov(e|es|ing)|cancel(s|ling|ing)?|void(s|ing)?|get(ting)? rid of|deactivat(e|es|ing)|destroy(s|ing)?|unsubscrib(e|es|ing)|stop(s|ping)? (receiving|getting|sending))\b/i,
  ],
  [
    'create',
    'strong',
    /\b(creat(e|es|ing)|adds?|adding|register(s|ing)?|make|makes|making|set(ting)? ((it|that|this|them|one) )?up|import(s|ing)?|purchas(e|es|ing)|buy(s|ing)?|connect(s|ing)?|subscrib(e|es|ing)|open(s|ing)? an?|submit(s|ting)?|new)\b/i,
  ],
  [
    'read',
    'weak',
    /\b(one|single|specific|particular|by (its |their )?(id|identifier|number)|details? (of|for|about)|look(ing)? up)\b/i,
  ],
  [
    'list',
    'weak',
    /\b(lists?|listing|all|every|search(es|ing)?|find|browse|enumerat(e|es|ing)|which ones)\b/i,
  ],
  [
    'read',
    'weak',
    /\b(gets?|retriev(e|es|ing)|fetch(es|ing)?|reads?|show(s|ing)?|see|view(s|ing)?|download(s|ing)?|print(s|ing)?|look(s|ing)? at)\b/i,
  ],
];

// "Which carriers ...", "what locations ...": a plural after which/what asks for a collection; the
// plural is the object, so it is not one of the action's verbs.
const WHICH_PLURAL = /\b(which|what)\s+(?!(?:does|is|was|has)\b)[a-z]+[^s\W]s\b/i;
// "How many levels ..." asks for a number, not for many things at once.
const BULK =
  /\b(bulk|batch(es)?|(?<!how )many|several|multiple|in (one|a single) (request|call|go)|at once|all at once)\b/i;
const NOT_ASKED =
  /\b(without|instead of|rather than|before)\s+\w+ing\b|\b(have|has|had|been|was|were|is|are)\s+(already\s+)?(set\s+up|\w+ed)\b/gi;
const HOW_TO =
  /\b(how (do|does|can|could|should|would) (i|we|you|my|our)|how to|is there a way|what do (i|we) (call|use)|where (do|can) (i|we)|can (i|we)|i want to|i need to|we need to)\b/i;

/** The action a question asks for, with no model: "get rid of a returns centre" → delete. */
export function detectAction(query: string): QuestionAction {
  const bulk = BULK.test(query);
  const howTo = HOW_TO.test(query);
  // What the question rules out or describes as done is not what it asks for: "without creating
  // a location", "the webhooks we have set up".
  const asked = query.replace(NOT_ASKED, ' ');
  const match = ACTION_PATTERNS.find(([, , pattern]) => pattern.test(asked));
  const leadingWords = asked
    .replace(/^\W*(please\s+)?/i, '')
    .split(/\s+/)
    .slice(0, 2)
    .join(' ');
  const command = ACTION_PATTERNS.some(([, , pattern]) => pattern.exec(leadingWords)?.index === 0);
  if (match) {
    const verbs = [...new Set(ACTION_PATTERNS.flatMap(([, , pattern]) => pattern.exec(asked)?.[0] ?? []))];
    const asks = match[1] === 'strong' || howTo || bulk || command;
    return { operationType: match[0], strength: match[1], bulk, howTo, verbs, asks };
  }
  const asks = howTo || bulk;
  const which = WHICH_PLURAL.exec(asked);
  if (which) {
    const collection = stemmedWords(which[0]).at(-1)!;
    return { operationType: 'list', strength: 'weak', bulk, howTo, verbs: [], asks, collection };
  }
  // Many at once with no other verb is still a request to make them ("300 locations in one request").
  return bulk
    ? { operationType: 'create', strength: 'weak', bulk, howTo, verbs: [], asks }
    : { strength: 'none', bulk, howTo, verbs: [], asks };
}

/** The narrowings to try in order, most specific first; the caller ends with the plain filters. */
export function narrowings(intent: QueryIntent, filters: RetrievalFilters): RetrievalFilters[] {
  if (intent.kind === 'general' || filters.chunk_type !== undefined) return [];
  const chunkType = intent.kind === 'error' ? 'errors' : intent.kind;
  const narrowed: RetrievalFilters[] = [];
  if (intent.operationType && filters.operation_type === undefined) {
    narrowed.push({ ...filters, chunk_type: chunkType, operation_type: intent.operationType });
  }
  narrowed.push({ ...filters, chunk_type: chunkType });
  return narrowed;
}
