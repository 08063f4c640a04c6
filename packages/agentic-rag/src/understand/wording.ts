export type IntentKind = 'endpoint' | 'schema' | 'error' | 'general';

export interface QueryIntent {
  kind: IntentKind;
  /** create / read / update / delete / list, when the question says which. */
  operationType?: string;
  /** The word that made a schema or error question one ("fields", "errors"). */
  trigger?: string;
}

const ENDPOINT = new RegExp(
  [
    String.raw`\b(endpoints?|api calls?|routes?|(GET|POST|PUT|PATCH|DELETE)\s+\/)`,
    // "which call ...", "what operation ...": a bare "request" or "operation" is often a thing of
    // the domain ("a merge request", "a bulk operation"), so only asked for as such.
    String.raw`\b(which|what|an?|the)\s+(api\s+|http\s+|rest\s+)?(calls?|operations?|requests?)\b(?!\s+(body|bodies|payload|schema|fields?|headers?|id))`,
    // "... through the API", "via the REST API", "using the API"
    String.raw`\b(via|through|using|with|from|in)\s+(the\s+|our\s+|your\s+)?(rest\s+|http\s+)?api\b`,
  ].join('|'),
  'i',
);
// The Knowledge Retriever design's examples (docs/search.md): "what fields", "user object
// structure", "data model"; "error codes", "failed request", "exception handling".
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
  if (kind === 'schema' || kind === 'error') {
    const trigger = (kind === 'schema' ? SCHEMA : FAILED_CALL.test(query) ? FAILED_CALL : ERROR).exec(
      query,
    )?.[0];
    return trigger ? { kind, trigger: trigger.toLowerCase() } : { kind };
  }
  if (kind !== 'endpoint') return { kind };
  const verb = OPERATION_VERBS.find(([, pattern]) => pattern.test(query));
  if (verb) return { kind, operationType: verb[0] };
  // "new" alone is the weakest sign of a create: only when no verb says otherwise.
  return /\bnew\b/i.test(query) ? { kind, operationType: 'create' } : { kind };
}
