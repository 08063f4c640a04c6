import { stem } from '../embed/index.js';
import { contentStems } from '../lexicon/index.js';

/**
 * What a question asks for, read from its wording alone. A question may ask for several things
 * ("How long is a token valid, and can it be refreshed?" wants a number and a yes/no), so this is
 * a set, not one label.
 */
export type Ask =
  | 'number'
  | 'definition'
  | 'steps'
  | 'list'
  | 'yes-no'
  | 'reason'
  | 'operation'
  | 'entity'
  | 'option'
  | 'difference';

export interface QuestionShape {
  asks: ReadonlySet<Ask>;
  /**
   * The subject: the question's content stems without the words that only say what kind of
   * answer is wanted ("endpoint", "mean", "happens", "steps"), each once, in question order.
   */
  focus: string[];
  /** "How long is it valid, and can it be refreshed?": a second question joined to the first. */
  multiPart: boolean;
  /** The two things a question of difference compares ("fetch" and "pull"), as content stems. */
  compared: [string[], string[]] | null;
}

// The patterns read the lower-cased question. Each says which wording signals the kind, so that a
// new kind of question is a new row here, not a special case in the synthesis.
const ASKS: ReadonlyArray<[Ask, RegExp]> = [
  [
    'option',
    // "which option dumps only the schema", "what flag", "is there a switch to …", "the parameter that …"
    /\b(which|what|is there an?|the|an?) (command[- ]line )?(options?|flags?|switch(es)?|parameters?|arguments?|settings?|keywords?|clauses?|modifiers?)\b|\b(options?|flags?|switch|parameters?|arguments?) (to|for|that|which)\b/,
  ],
  [
    'difference',
    /\bdifferen(ce|t|ces)\b.*\b(between|from)\b|\b(vs\.?|versus)\b|\bcompare[sd]?\b|\bdiffers?\b|\bwhen (should|do|would) (i|we|you) use\b.*\bor\b/,
  ],
  [
    'number',
    /\bhow (many|much|long|often|far|big|large|soon|old|deep|high|low|fast|quickly)\b|\b(limit|limits|maximum|minimum|max|min|threshold|timeout|duration|size|percentage|ratio|factor|divisor|price|cost|fee|rate|credit|sla|uptime|at what)\b|\bper (second|minute|hour|day|week|month|request)\b|\bwhat (time|date|version)\b/,
  ],
  [
    'definition',
    /^(what|who) (is|are|was) (an? |the )?[^,?]{1,48}\??$|\bwhat does [^?]{1,48} (mean|stand for|do|show|compute|represent)\b|\b(define|definition of|meaning of|what is meant by)\b/,
  ],
  [
    'steps',
    /\bhow (do|can|should|would|could|must) (i|we|you|one|they|my)\b|\bhow to\b|\b(is there a way|is it possible|what is the way) to\b|\b(steps?|procedure|process|walk me through|set ?up|configure)\b/,
  ],
  [
    'list',
    /\b(which|what) (\w+ ){0,3}(are|fields|properties|values|options|codes|errors|types|kinds|parameters|headers|statuses|states|items|ones)\b|\b(which|what) (\w+ )?(endpoints|operations|calls|routes|apis|methods|functions|commands)\b|\b(list|enumerate|all the|every|enum)\b|\bvalues?\b.{0,40}\btake\b/,
  ],
  [
    'yes-no',
    /(^|[,;:]\s*|\b(and|or|but)\s+)(can|could|is|are|does|do|did|will|would|should|must|may|has|have)\s+(i|we|you|it|they|this|that|there|an?|the|my|our)\b/,
  ],
  ['reason', /\bwhy\b|\bwhat (causes|caused|triggers|triggered)\b|\broot cause\b|\bhow come\b/],
  [
    'operation',
    // "endpoint" alone is often a noun of the subject ("a webhook endpoint object"): the wording
    // must ask which one.
    /\b(which|what) (api |http )?(endpoint|call|operation|request|route)\b|\bendpoint (to|do|does|for|should|that)\b|\b(through|via|with) the api\b/,
  ],
];

/**
 * Words that name the kind of answer wanted, not its subject: they are never the focus. Kept
 * small on purpose; a word here can never make a passage relevant.
 */
const KIND_WORDS: ReadonlySet<string> = new Set(
  [
    'endpoint',
    'endpoints',
    'operation',
    'call',
    'happen',
    'happens',
    'mean',
    'means',
    'meaning',
    'step',
    'steps',
    'procedure',
    'exactly',
    'need',
    'want',
    'know',
    'thing',
    'things',
    'possible',
    'anything',
    'something',
    'example',
    'instance',
    'one',
    'ones',
    'find',
  ].map(stem),
);

/**
 * Reads a question: what kinds of answer it asks for and what it is about. The plan's intent
 * (from the retrieval analysis) adds a numbered entity; an endpoint intent is left to the caller,
 * because that analysis also fires on questions about an API's objects, not its operations.
 */
export function questionShape(query: string, intent = 'general'): QuestionShape {
  const lower = query.toLowerCase().replace(/[’']/g, "'").trim();
  const asks = new Set<Ask>();
  for (const [ask, pattern] of ASKS) if (pattern.test(lower)) asks.add(ask);
  if (intent === 'entity') asks.add('entity');
  const focus = [...new Set(contentStems(query))].filter((word) => !KIND_WORDS.has(word));
  return {
    asks,
    focus,
    multiPart: multiPart(query),
    compared: asks.has('difference') ? compared(query) : null,
  };
}

/**
 * The two sides of a comparison: "the difference between X and Y", "X vs Y", "X rather than Y",
 * "should I use X or Y". Each side's content stems; null when the sides cannot be read.
 */
function compared(query: string): [string[], string[]] | null {
  const lower = query.toLowerCase().replace(/[?.!]+$/, '');
  const patterns = [
    /\bbetween (.+?) and (.+?)(?:[,;]|$| when | for | in )/,
    /(?:^|\b(?:is|are|use|using|choose|pick)\s+)(.+?)\s+(?:vs\.?|versus|or|rather than|instead of|compared (?:to|with))\s+(.+?)(?:[,;]|$| when | for )/,
    /\bdoes (.+?) differ from (.+?)(?:[,;]|$)/,
    /\bcompare (.+?) (?:with|to|and) (.+?)(?:[,;]|$)/,
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(lower);
    if (!match) continue;
    const left = contentStems(match[1]!).filter((word) => !KIND_WORDS.has(word));
    const right = contentStems(match[2]!).filter((word) => !KIND_WORDS.has(word));
    if (left.length > 0 && right.length > 0) return [left.slice(-3), right.slice(0, 3)];
  }
  return null;
}

function multiPart(query: string): boolean {
  return (
    /[,;]\s*(and|or|but)?\s*(at|in|on|for|to|from|by|with)?\s*(what|which|who|where|when|why|how|can|does|do|is|are|should)\b/i.test(
      query,
    ) ||
    /\band (at |in |on |for |to |from |by |with )?(what|which|who|where|when|why|how)\b/i.test(query) ||
    (query.match(/\?/g)?.length ?? 0) > 1
  );
}
