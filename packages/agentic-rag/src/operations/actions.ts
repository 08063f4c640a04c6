import type { ApiOperation, OperationType } from './catalogue.js';
import { UNDO, verbClass, VERBS, words as wordList, type ActionClass } from './verbs.js';

export type { ActionClass };

/**
 * What a question asks an API to do, read from its verbs, and how well an operation does it.
 * The verbs are English usage, grouped by the HTTP shape that does them (REST's uniform
 * interface): removing anything is a DELETE, adding one is a POST to a collection, changing one a
 * PUT or PATCH, reading one a GET of an item, many a GET of a collection. A verb an operation
 * names as its own action segment (`/cancel`, `/star`, `/retry`) is that operation whatever its
 * method.
 */

export interface AskedAction {
  /** The CRUD shape the verbs ask for, when one does. */
  class?: ActionClass;
  /** The verbs, lower case and as typed ("get rid of", "unstar"): an action segment may be one. */
  verbs: string[];
  /** `strong`: a verb that names a change; `weak`: a verb of looking, which a list and a read both answer. */
  strength: 'strong' | 'weak' | 'none';
  /** Many at once: "in one request", "bulk", "all at once". */
  bulk: boolean;
  /** "un-" verbs that undo another: "unstar" undoes "star" (a DELETE of the star, or an `/unstar`). */
  undoes: string | null;
  /**
   * Every word where English puts the question's verb (first in a clause, after a subject or
   * "to"), in the table or not ("merge", "rerun", "favorite"): what an action segment may name.
   */
  positionVerbs: string[];
  /** The words of what the verb acts on (see `directObject`): they say most about which operation. */
  object: string[];
}

const PRECEDENCE: Record<ActionClass, number> = { delete: 3, update: 2, create: 1, list: 0, read: 0 };

function outranks(
  found: [ActionClass, 'strong' | 'weak'],
  chosen: [ActionClass, 'strong' | 'weak'],
): boolean {
  return found[1] === 'strong' && chosen[1] === 'strong' && PRECEDENCE[found[0]] > PRECEDENCE[chosen[0]];
}

/** Nouns that head an object without being it: "the details of a book" is about the book. */
const LIGHT_NOUNS = new Set(
  wordList(
    'details detail info information data list lists number count set kind kinds type types ' +
      'name names contents content value values state status rest all some one each every any ' +
      'few most',
  ),
);
/** Words that end the object of a verb: "add a new warehouse | to my account". */
const OBJECT_ENDS = new Set(
  'to for from in on at by with without into onto about before after when while so because than that which who where whose whether if is are was were'.split(
    ' ',
  ),
);
const ARTICLES = new Set(
  wordList(
    'a an the my our your their its this that these those some new existing specific ' +
      'particular single given certain',
  ),
);

/**
 * The object of the question's verb: the words after it up to a preposition or a clause break
 * ("add a single new warehouse to my account" → warehouse); a light noun's "of" carries on to
 * what it is of ("see the details of a book" → book). What a question is about is what its verb
 * acts on; the rest is context.
 */
export function directObject(words: readonly string[], after: number): string[] {
  const object: string[] = [];
  for (let index = after + 1; index < words.length; index++) {
    const word = words[index]!;
    if (OBJECT_ENDS.has(word)) break;
    if (word === 'of') {
      if (object.length > 0 && object.every((part) => LIGHT_NOUNS.has(part))) {
        object.length = 0;
        continue;
      }
      break;
    }
    if (ARTICLES.has(word) || /^\d/.test(word)) continue;
    object.push(word);
  }
  return object.filter((word) => !LIGHT_NOUNS.has(word));
}

/** Words that stand where a verb may, but are not the action (question words, auxiliaries). */
const NOT_VERBS = new Set(
  wordList(
    'what which who whom whose where when why is are was were be do does did have has had a ' +
      'an the it this there not no any some every all my our your their want need like able ' +
      'way',
  ),
);

/** A modal or auxiliary, then a possessive subject: "how can my integration retrieve …". */
const MODALS = new Set([
  'can',
  'could',
  'should',
  'would',
  'will',
  'do',
  'does',
  'did',
  'must',
  'may',
  'might',
  'to',
]);
const POSSESSIVES = new Set(['my', 'our', 'your', 'their', 'the', 'this', 'that', 'its']);

function afterSubject(words: readonly string[], position: number): boolean {
  return position >= 3 && MODALS.has(words[position - 3]!) && POSSESSIVES.has(words[position - 2]!);
}

/** Words after which English puts a verb. */
const VERB_OPENERS = new Set(
  wordList(
    'i we you they to can could should would will must may please let lets me us and or ' +
      'then stop start also just quickly programmatically automatically how that who endpoint ' +
      'endpoints call calls api apis operation operations route routes request requests',
  ),
);

/** "every location", "see them all", "which webhooks …": the question wants a collection. */
const MANY = /\b(all|every)\b|\b(which|what)\s+(?!(?:does|is|was|has|kinds?|types?)\b)[a-z]+[^s\W]s\b/;

const BULK =
  /\b(bulk|batch(es)?|(?<!how )many|several|multiple|in (one|a single) (request|call|go)|at once)\b/i;

/**
 * The action a question asks for, from its words (lower case, in order). Words the question
 * rules out ("without removing the runner") are not asked for.
 */
export function askedAction(question: string, words: readonly string[]): AskedAction {
  // What the question rules out or describes as done is not what it asks for: "without creating
  // a location", "the webhooks we have set up".
  const lower = ` ${question
    .toLowerCase()
    .replace(/\b(without|instead of|rather than|not)\s+\w+/g, ' ')
    .replace(/\b(have|has|had|been|was|were|is|are)\s+(already\s+)?(set\s+up|\w+ed)\b/g, ' ')} `;
  const bulk = BULK.test(question);
  const verbs: string[] = [];
  // Words of a multi-word verb already read ("set up" is not "set").
  const consumed = new Set<string>();
  // Where the first verb (or the end of the first verb phrase) stands among the words.
  let verbEnd = -1;
  let chosen: [ActionClass, 'strong' | 'weak'] | undefined;
  for (const [kind, strength, list] of VERBS) {
    for (const verb of list) {
      if (!verb.includes(' ')) continue;
      if (new RegExp(`\\b${verb.replace(' ', '\\s+(?:\\w+\\s+)?')}\\b`).test(lower)) {
        verbs.push(verb);
        const last = verb.split(' ').at(-1)!;
        const end = words.indexOf(last, Math.max(0, words.indexOf(verb.split(' ')[0]!)));
        if (end >= 0 && (verbEnd === -1 || end < verbEnd)) verbEnd = end;
        for (const part of verb.split(' ')) consumed.add(part);
        chosen ??= [kind, strength];
      }
    }
  }
  let undoes: string | null = null;
  const positionVerbs: string[] = [];
  // The first word of each clause ("Upload a new rate card, replacing the old one").
  const clauseStarts = new Set(
    question
      .toLowerCase()
      .split(/[,;:(]/)
      .map((clause) => clause.trim().split(/\s+/)[0] ?? ''),
  );
  for (const [position, word] of words.entries()) {
    if (!lower.includes(word) || consumed.has(word)) continue;
    // Many of these words are nouns or adjectives too ("an issue", "open MRs", "a post"): a word
    // is read as the asked verb only where English puts one: first in a clause (an imperative),
    // after a subject or "to" ("how do I remove", "I want to add"), or after another verb
    // ("stop receiving").
    if (
      position > 0 &&
      !VERB_OPENERS.has(words[position - 1]!) &&
      !clauseStarts.has(word) &&
      !afterSubject(words, position)
    )
      continue;
    if (!VERB_OPENERS.has(word) && !NOT_VERBS.has(word)) {
      positionVerbs.push(word);
      if (verbEnd === -1) verbEnd = position;
    }
    const undo = UNDO.exec(word);
    if (undo && !verbClass(word)) {
      undoes = undo[1]!;
      verbs.push(word);
      if (!chosen || chosen[1] === 'weak') chosen = ['delete', 'strong'];
      continue;
    }
    const found = verbClass(word);
    if (!found) continue;
    verbs.push(word);
    // A strong verb outranks a weak one, and a change or removal outranks an addition in the
    // same question ("upload a new rate card, replacing the old one" replaces).
    if (!chosen || (chosen[1] === 'weak' && found[1] === 'strong') || outranks(found, chosen)) chosen = found;
  }
  if (!chosen && bulk) chosen = ['create', 'weak'];
  // Looking at all of something, or at "which carriers …", is listing a collection, not reading one.
  if ((!chosen || (chosen[0] === 'read' && chosen[1] === 'weak')) && MANY.test(lower))
    chosen = ['list', 'weak'];
  return {
    ...(chosen ? { class: chosen[0] } : {}),
    verbs,
    strength: chosen?.[1] ?? 'none',
    bulk,
    undoes,
    positionVerbs: [...positionVerbs, ...verbs.filter((verb) => verb.includes(' '))],
    object: verbEnd >= 0 ? directObject(words, verbEnd) : [],
  };
}

/** The CRUD class an operation's shape does; an action's verb segment decides by its own class. */
export function operationClass(operation: ApiOperation): ActionClass | 'action' {
  const type: OperationType = operation.operationType;
  if (type !== 'action') return type;
  const verb = operation.action ? verbClass(operation.action.split(/[_-]/)[0]!) : undefined;
  return verb?.[0] ?? 'action';
}

/**
 * How well an operation does the asked action: above 1 agrees, below contradicts. `verbNamed`:
 * the question uses the operation's own action word (or undoes it: "unstar" for `/unstar`).
 */
export function actionAgreement(operation: ApiOperation, asked: AskedAction, verbNamed: boolean): number {
  let factor = 1;
  const wanted = asked.class;
  const done = operationClass(operation);
  if (verbNamed) factor *= 1.6;
  else if (wanted !== undefined) {
    if (done === wanted) factor *= 1.4;
    else if (
      asked.strength === 'weak' &&
      (done === 'read' || done === 'list') &&
      (wanted === 'read' || wanted === 'list')
    )
      factor *= 0.9;
    else if (done === 'action') factor *= asked.strength === 'strong' ? 0.8 : 0.9;
    else factor *= asked.strength === 'strong' ? 0.5 : 0.75;
  }
  if (asked.bulk) factor *= operation.bulk ? 1.5 : 0.85;
  else if (operation.bulk) factor *= 0.8;
  return factor;
}
