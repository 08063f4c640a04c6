/** One earlier question and answer of a conversation, oldest first in a history. */
export interface ConversationTurn {
  /** What the user asked, as sent. */
  question: string;
  /** The question resolved against the turns before it: what the run searched for. */
  standaloneQuery: string;
  answer: string;
}

export interface FollowUp {
  /** The question to answer: the follow-up made standalone, or the question as it was. */
  query: string;
  /** True when the question was changed to stand alone. */
  rewritten: boolean;
  /** The phrase the earlier turn was about ("a location"), when one was found and used. */
  subject: string | null;
}

// A conversational opener that carries no content: "and how do I delete it?".
const OPENER = /^(?:(?:and|but|so|also|ok(?:ay)?|then|now|well|right)\b[\s,]*)+/i;
// Words that open a question before its verb or object: "how do I", "what is the", "can we".
const QUESTION_WORDS = new Set(
  'how what which where when why who whom whose can could may might should shall do does did is are was were will would i we you me my our to please tell show explain'.split(
    ' ',
  ),
);
// Verbs a question asks to do something to its subject with: the subject is what follows them.
const ACTIONS = new Set(
  'create creating add adding make making delete deleting remove removing update updating change changing edit editing modify modifying list listing get getting retrieve retrieving fetch fetching find finding cancel cancelling canceling register registering connect connecting validate validating quote quoting use using configure configuring set setting enable enabling disable disabling call calling send sending track tracking download downloading upload uploading replace replacing read reading write writing handle handling rotate rotating revoke revoking authenticate authenticating paginate paginating test testing check checking define defining compute computing refresh refreshing verify verifying renew renewing reset resetting void voiding subscribe subscribing import importing export exporting archive archiving restore restoring filter filtering'.split(
    ' ',
  ),
);
// Verbs that end a question about its subject ("how does pagination work?") without being part of it.
const TRAILING_VERBS = /\s+(?:work|works|mean|means|happen|happens|do|does|look like|behave|behaves)$/i;
const ARTICLE = /^(?:a|an|the|some|any)\s+/i;
const TOPIC_SWITCH = /^(?:what|how)\s+about\s+(.+)$|^(?:and\s+)?for\s+(.+)$/i;
// Pronouns that always stand for something said earlier.
const PRONOUN = /\b(?:it's|it|its|they|them|their|theirs)\b/i;
// Demonstratives stand for it only when no noun follows: "what does that return?", "delete this".
const DEMONSTRATIVE =
  /\b(?:this|that|these|those)\b(?=\s*(?:$|[?.!,]|\s(?:is|are|was|were|does|do|did|mean|means|return|returns|require|requires|need|needs|cost|costs|take|takes|work|works|one|ones)\b))/i;
const MAX_SUBJECT_WORDS = 8;
const PREPOSITIONS = new Set('on in for at with from to by under over'.split(' '));
/** After "how": a degree, not a subject ("how long", "how often"). */
const DEGREE = new Set('long often many much far soon frequently big large old'.split(' '));
/** Linking verbs between the question words and the subject ("how long are deliveries …"). */
const LINKING = new Set('are is was were be been being'.split(' '));
const AUXILIARIES = new Set('does do did'.split(' '));
/** A question that stops at its auxiliary leaves its verb and object to the turn before: "how often should I?". */
const ELLIPSIS =
  /\b(?:should|can|could|must|may|might|do|does|did|would|will|shall)\s+(?:i|we|you|they|one)\s*[?.!]?$/i;
/** "do it", "do that": the earlier action itself. */
const DO_IT = /\bdo\s+(?:it|that|this)\b/i;
/** "that" as what takes time, costs or fails: the earlier action, named as a gerund. */
const ACTION_THAT = /\b(that|this|it)\s+(take|takes|cost|costs|last|lasts|fail|fails|work|works)\b/i;

const words = (text: string) => text.split(/\s+/).filter(Boolean);
const trimPunctuation = (text: string) => text.replace(/[\s?!.]+$/, '').trim();

/**
 * The phrase an earlier query was about: what remains once its question words and its action verb
 * are gone ("How do I create a location?" → "a location"); null when nothing does or it is long
 * enough to be a sentence rather than a subject.
 */
export function subjectOf(query: string): string | null {
  const tokens = words(trimPunctuation(query.replace(OPENER, '')));
  let start = 0;
  // "How long are …", "how often do …": the degree word belongs to the question, not its subject.
  while (
    start < tokens.length &&
    (QUESTION_WORDS.has(tokens[start]!.toLowerCase()) ||
      (start > 0 && tokens[start - 1]!.toLowerCase() === 'how' && DEGREE.has(tokens[start]!.toLowerCase())) ||
      LINKING.has(tokens[start]!.toLowerCase()))
  )
    start += 1;
  const beforeAction = start;
  while (start < tokens.length && ACTIONS.has(tokens[start]!.toLowerCase())) start += 1;
  let rest = tokens.slice(start);
  // "What does the belief update compute?", "How long are deliveries retried?": with no action
  // verb before it, the question's own verb closes it, after its subject.
  const auxiliary = tokens.slice(0, beforeAction).some((token) => AUXILIARIES.has(token.toLowerCase()));
  const last = rest.at(-1);
  if (start === beforeAction && rest.length > 1 && last && (auxiliary || /(?:ed|en)$/i.test(last)))
    rest = rest.slice(0, -1);
  const subject = rest.join(' ').replace(TRAILING_VERBS, '').trim();
  if (subject.length === 0 || words(subject).length > MAX_SUBJECT_WORDS) return null;
  return subject;
}

/**
 * What an earlier query asked to do, verb and object: "How do I rotate the signing key?" →
 * "rotate the signing key"; null when it asked no action.
 */
export function predicateOf(query: string): string | null {
  const tokens = words(trimPunctuation(query.replace(OPENER, '')));
  let start = 0;
  while (start < tokens.length && QUESTION_WORDS.has(tokens[start]!.toLowerCase())) start += 1;
  if (start >= tokens.length || !ACTIONS.has(tokens[start]!.toLowerCase())) return null;
  const predicate = tokens.slice(start).join(' ');
  return words(predicate).length <= MAX_SUBJECT_WORDS + 1 ? predicate : null;
}

/** "connect a carrier account" → "connecting a carrier account". */
function gerund(predicate: string): string {
  const [verb = '', ...rest] = words(predicate);
  const lower = verb.toLowerCase();
  const ing = lower.endsWith('ing')
    ? lower
    : /[^aeiou]e$/.test(lower)
      ? `${lower.slice(0, -1)}ing`
      : `${lower}ing`;
  return [ing, ...rest].join(' ');
}

/** True when the words left after question words and action verbs name nothing: "how do I delete?". */
function namesNothing(text: string): boolean {
  return words(text).every((word) => {
    const bare = word.toLowerCase().replace(/[^\p{L}\p{N}']/gu, '');
    return bare.length === 0 || QUESTION_WORDS.has(bare) || ACTIONS.has(bare) || ARTICLE.test(`${bare} `);
  });
}

function replacePronouns(text: string, subject: string): string {
  const possessive = `the ${subject.replace(ARTICLE, '')}'s`;
  return text
    .replace(/\bit's\b/gi, `${subject} is`)
    .replace(/\b(?:its|their|theirs)\b/gi, possessive)
    .replace(/\b(?:it|they|them)\b/gi, subject)
    .replace(new RegExp(DEMONSTRATIVE.source, 'gi'), subject);
}

/**
 * The deterministic follow-up rewriter (no model needed): a question that leans on the previous
 * turn is rewritten to stand alone by carrying that turn's subject into it.
 * - a pronoun stands for the subject: "and how do I delete it?" → "how do I delete a location?";
 * - "what about X?" / "and for X?" asks the previous question of X instead;
 * - a question that names nothing gets the subject: "and how do I update?" → "how do I update a location?".
 * Anything else already stands alone and is kept as asked. The previous turn's standalone query
 * is what is read, so a chain of follow-ups keeps its subject.
 */
export function rewriteFollowUp(question: string, history: readonly ConversationTurn[]): FollowUp {
  const unchanged: FollowUp = { query: question, rewritten: false, subject: null };
  // The latest turn that was about something: a turn that was itself only a question of degree
  // ("how often?") leaves the subject where it was.
  const previous = [...history].reverse().find((turn) => subjectOf(turn.standaloneQuery) !== null);
  if (!previous) return unchanged;
  const subject = subjectOf(previous.standaloneQuery)!;
  const predicate = predicateOf(previous.standaloneQuery);
  const opened = OPENER.test(question);
  const body = question.replace(OPENER, '').trim();
  const ending = /[?!.]$/.test(body) ? body.slice(-1) : '?';
  const resolved = (query: string): FollowUp => ({ query, rewritten: query !== question, subject });

  // "and how often should I?": the earlier verb and object complete it.
  if (predicate && ELLIPSIS.test(body)) return resolved(`${trimPunctuation(body)} ${predicate}${ending}`);
  // "can I do it after pickup?": doing it is doing what was asked before.
  if (predicate && DO_IT.test(body)) return resolved(body.replace(DO_IT, predicate));
  // "how long does that take?": the earlier action is what takes the time.
  if (predicate && ACTION_THAT.test(body))
    return resolved(
      body.replace(ACTION_THAT, (_, _pronoun: string, verb: string) => `${gerund(predicate)} ${verb}`),
    );

  if (PRONOUN.test(body) || DEMONSTRATIVE.test(body)) return resolved(replacePronouns(body, subject));

  const switched = TOPIC_SWITCH.exec(trimPunctuation(body));
  const topic = switched ? (switched[1] ?? switched[2])!.trim() : opened ? trimPunctuation(body) : null;
  if (
    topic &&
    words(topic).length <= MAX_SUBJECT_WORDS &&
    !QUESTION_WORDS.has(words(topic)[0]!.toLowerCase())
  ) {
    const first = words(topic)[0]!.toLowerCase();
    // "what about deleting?": the same subject, another action.
    if (ACTIONS.has(first) && namesNothing(topic)) return resolved(`${topic} ${subject}${ending}`);
    // "and on Enterprise?": the previous question's phrase with that preposition, replaced.
    const preposition = PREPOSITIONS.has(first) ? ` ${first} ` : null;
    const asked = trimPunctuation(previous.standaloneQuery);
    if (preposition && asked.toLowerCase().includes(preposition)) {
      const at = asked.toLowerCase().lastIndexOf(preposition);
      return resolved(`${asked.slice(0, at)} ${topic}${ending}`);
    }
    // "what about shipments?": the previous question, asked of another subject.
    if (!ACTIONS.has(first)) {
      const asked = trimPunctuation(previous.standaloneQuery);
      const at = asked.toLowerCase().lastIndexOf(subject.toLowerCase());
      if (at >= 0)
        return resolved(`${asked.slice(0, at)}${topic}${asked.slice(at + subject.length)}${ending}`);
    }
  }
  if (namesNothing(trimPunctuation(body))) return resolved(`${trimPunctuation(body)} ${subject}${ending}`);
  return unchanged;
}
