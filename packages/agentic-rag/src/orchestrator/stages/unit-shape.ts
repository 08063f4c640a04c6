/**
 * What a quotable unit looks like, independent of any question: whether it can stand alone as an
 * answer sentence, whether it leans on the sentence before it, and what it offers (a number, a
 * definition, a reason, a yes or no). The synthesis weighs these against what the question asks.
 */

const WORD = /[\p{L}\p{N}]/u;

/** Words of a unit, Markdown marks aside. */
function wordsIn(text: string): string[] {
  return text
    .replace(/[`*_]/g, '')
    .split(/\s+/)
    .filter((word) => WORD.test(word));
}

/** Fewer words than this cannot answer anything on their own ("For each parcel."). */
const MIN_WORDS = 4;
/** A list item quoted within its list needs only this many. */
export const MIN_ITEM_WORDS = 2;
/** A subordinate clause this short with no comma has no main clause ("When you exceed the limit."). */
const SHORT_CLAUSE = 9;
const SUBORDINATE =
  /^(when|if|because|although|though|while|after|before|unless|since|until|whereas|once|whenever)\b/i;

/**
 * A fragment is not an answer sentence: a few words or a dangling subordinate clause. A member of
 * a list quoted with its list may be shorter (`hs_code`, "Email support"): pass a smaller minimum.
 */
export function isFragment(text: string, minimumWords = MIN_WORDS): boolean {
  const trimmed = text.trim();
  const words = wordsIn(trimmed);
  if (words.length < minimumWords) return true;
  if (SUBORDINATE.test(trimmed) && !/[,;:—–]/.test(trimmed) && words.length < SHORT_CLAUSE) return true;
  return false;
}

/** A lead-in ("Delivery attempts differ by carrier:") announces the list after it. */
export function isLeadIn(text: string): boolean {
  return /:\s*$/.test(text.trim());
}

/** A sentence the source asks (an FAQ's "Q: …?"): what follows it is the answer. */
export function isQuestion(text: string): boolean {
  return /\?\s*$/.test(text.trim());
}

/**
 * A unit that leans on what came before it ("This is retried…", "Support will contact the owner
 * when this happens"): quoted alone, it does not say what it is about.
 */
export function needsAntecedent(text: string): boolean {
  return (
    /^(this|that|these|those|it|its|they|their|them|such|then|there|here|also|otherwise|in that case|in this case)\b/i.test(
      text.trim(),
    ) || /\b(when|if|after|before|until) (this|that|it) (happens|occurs|is the case)\b/i.test(text)
  );
}

const NUMBER_WORDS =
  /\b(zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|hundred|thousand|million|once|twice|half|double)\b/i;

/**
 * A figure: a number standing on its own or a number word ("four levels", "30 to 300", "99.9%"),
 * not the digits of a name (`SHA256`, `v1`, `loc_01HQ`).
 */
export function hasNumber(text: string): boolean {
  return /(?<![\p{L}\d_.])\d+(?:[.,]\d+)*(?![\p{L}\d_])/u.test(text) || NUMBER_WORDS.test(text);
}

/** "X is …", "X means …", "X refers to …": the shape of a definition. */
export function isDefinitional(text: string): boolean {
  return /\b(is|are|means|mean|refers to|refer to|denotes|stands for|is called|are called|describes|represents|is defined as)\b/i.test(
    text,
  );
}

/** Words that decide a yes/no question. */
export function isDecisive(text: string): boolean {
  return /\b(yes|no|not|never|cannot|can't|can|only|must|always|may|allowed|supported|unsupported)\b/i.test(
    text,
  );
}

/** Words that give a cause, a purpose or the condition something happens under. */
export function givesReason(text: string): boolean {
  return /\b(because|so that|due to|caused by|causes|cause|since|to avoid|in order to|results? in|leads? to|otherwise|without|when|if|unless|(?:more|fewer|less|larger|bigger|smaller|longer|shorter|higher|lower|greater|older|newer) than|exceeds?)\b/i.test(
    text,
  );
}

/** A unit that names an API operation (`POST /locations`). */
export const OPERATION_REFERENCE = /\b(GET|POST|PUT|PATCH|DELETE) \/[\w{}\-/.~]*/;
/** The heading an API operation's chunk starts with (`POST /locations — Create a location`). */
export const OPERATION_HEADING = /^(GET|POST|PUT|PATCH|DELETE) \//;
