import type { ApiOperation, OperationType } from './catalogue.js';

/**
 * What a question asks an API to do, read from its verbs, and how well an operation does it.
 * The verbs are English usage, grouped by the HTTP shape that does them (REST's uniform
 * interface): removing anything is a DELETE, adding one is a POST to a collection, changing one a
 * PUT or PATCH, reading one a GET of an item, many a GET of a collection. A verb an operation
 * names as its own action segment (`/cancel`, `/star`, `/retry`) is that operation whatever its
 * method.
 */

export type ActionClass = 'create' | 'read' | 'update' | 'delete' | 'list';

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

/** Checked in order; multi-word verbs first. A change outranks a look in the same question. */
const VERBS: ReadonlyArray<[ActionClass, 'strong' | 'weak', readonly string[]]> = [
  [
    'delete',
    'strong',
    [
      'get rid of',
      'take down',
      'throw away',
      'clean up',
      'do away with',
      'wipe out',
      'stop receiving',
      'stop getting',
      'stop watching',
      'stop following',
      'kick out',
      'opt out',
    ],
  ],
  ['create', 'strong', ['set up', 'sign up', 'put in', 'kick off', 'hand over']],
  ['list', 'weak', ['look through', 'go through']],
  ['read', 'weak', ['look up', 'look at', 'find out', 'check on']],
  [
    'update',
    'strong',
    [
      'update',
      'change',
      'edit',
      'modify',
      'rename',
      'replace',
      'overwrite',
      'correct',
      'adjust',
      'alter',
      'amend',
      'tweak',
      'reconfigure',
      'patch',
      'move',
      'transfer',
      'reassign',
      'switch',
      'toggle',
      'enable',
      'disable',
      'mark',
      'set',
      'reset',
      'reorder',
      'resize',
      'extend',
      'upgrade',
      'downgrade',
    ],
  ],
  [
    'delete',
    'strong',
    [
      'delete',
      'remove',
      'erase',
      'destroy',
      'drop',
      'discard',
      'purge',
      'clear',
      'wipe',
      'unset',
      'detach',
      'unlink',
      'uninstall',
      'unregister',
      'revoke',
      'deactivate',
      'deregister',
      'dismiss',
      'withdraw',
      'trash',
      'kill',
      'void',
      'cancel',
      'abort',
      'stop',
      'halt',
      'terminate',
      'expire',
      'invalidate',
    ],
  ],
  [
    'create',
    'strong',
    [
      'create',
      'add',
      'make',
      'new',
      'register',
      'post',
      'submit',
      'upload',
      'attach',
      'generate',
      'issue',
      'invite',
      'open',
      'start',
      'begin',
      'schedule',
      'book',
      'import',
      'insert',
      'append',
      'connect',
      'subscribe',
      'buy',
      'purchase',
      'send',
      'write',
      'publish',
      'provision',
      'spin',
      'launch',
      'trigger',
      'enroll',
      'enrol',
      'assign',
      'grant',
      'give',
      'share',
      'fork',
      'copy',
      'duplicate',
      'clone',
    ],
  ],
  ['list', 'weak', ['list', 'all', 'every', 'enumerate', 'browse', 'search', 'query', 'filter', 'find']],
  [
    'read',
    'weak',
    [
      'get',
      'retrieve',
      'fetch',
      'read',
      'show',
      'see',
      'view',
      'display',
      'download',
      'print',
      'inspect',
      'check',
      'lookup',
      'return',
      'obtain',
      'pull',
      'export',
      'count',
      'preview',
      'look',
    ],
  ],
];

/**
 * Verbs English uses for one software action, so the question's word meets the spec's action
 * segment (`/cancel`, `/retry`, `/star`): general usage, not one product's vocabulary.
 */
const FAMILIES: ReadonlyArray<readonly string[]> = [
  ['cancel', 'stop', 'abort', 'halt', 'terminate', 'kill', 'end'],
  ['retry', 'rerun', 're-run', 'restart', 'replay', 'redo', 'resend', 'redeliver', 'redeploy'],
  ['approve', 'accept', 'confirm', 'sign off'],
  ['decline', 'reject', 'deny', 'refuse'],
  ['star', 'favorite', 'favourite', 'bookmark'],
  ['unstar', 'unfavorite', 'unfavourite', 'unbookmark'],
  ['move', 'transfer', 'relocate', 'migrate'],
  ['block', 'ban', 'suspend', 'lock out'],
  ['unblock', 'unban', 'reinstate', 'unsuspend'],
  ['revoke', 'invalidate', 'expire', 'deauthorize'],
  ['subscribe', 'watch', 'follow'],
  [
    'unsubscribe',
    'unwatch',
    'unfollow',
    'stop receiving',
    'stop getting',
    'stop watching',
    'stop following',
    'opt out',
  ],
  ['close', 'resolve', 'finish', 'complete'],
  ['reopen', 'unresolve'],
  ['archive', 'shelve'],
  ['unarchive', 'restore', 'undelete', 'recover'],
  ['validate', 'verify', 'lint', 'check'],
  ['merge', 'combine', 'squash'],
  ['lock', 'freeze'],
  ['unlock', 'unfreeze'],
  ['publish', 'release'],
  ['send', 'deliver', 'dispatch', 'email', 'notify'],
  ['test', 'ping', 'try'],
  ['search', 'find', 'query', 'look up', 'filter'],
  ['count', 'tally', 'total'],
  ['copy', 'duplicate', 'clone'],
  ['assign', 'allocate'],
  ['unassign', 'deallocate'],
  ['share', 'grant'],
  ['upload', 'attach'],
  ['download', 'export'],
  ['import', 'load'],
];

const FAMILY_OF = new Map<string, readonly string[]>();
for (const family of FAMILIES) for (const verb of family) FAMILY_OF.set(verb, family);

/** The verbs a question's verb stands for (itself first), as the family table gives them. */
export function verbFamily(verb: string): readonly string[] {
  const lower = verb.toLowerCase();
  for (const form of baseForms(lower)) {
    const family = FAMILY_OF.get(form);
    if (family) return [form, ...family.filter((member) => member !== form)];
  }
  return [lower];
}

/** The un- verbs of English that undo another verb ("unstar", "unblock", "unsubscribe"). */
const UNDO = /^un(?!der|til|less|ion|it|ique|ix|ivers|ifor|usual|able|known)([a-z]{3,})$/;

/** Inflections of a verb to its base: "removing", "deleted", "adds" → remove, delete, add. */
function baseForms(word: string): string[] {
  const forms = [word];
  if (word.endsWith('ies')) forms.push(`${word.slice(0, -3)}y`);
  if (word.endsWith('es')) forms.push(word.slice(0, -2));
  if (word.endsWith('s')) forms.push(word.slice(0, -1));
  for (const suffix of ['ing', 'ed']) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, -suffix.length);
    forms.push(stem, `${stem}e`);
    if (/([b-df-hj-np-tv-z])\1$/.test(stem)) forms.push(stem.slice(0, -1));
  }
  return forms;
}

const SINGLE = new Map<string, [ActionClass, 'strong' | 'weak']>();
for (const [kind, strength, verbs] of VERBS)
  for (const verb of verbs) if (!verb.includes(' ') && !SINGLE.has(verb)) SINGLE.set(verb, [kind, strength]);

/** The class of one verb in base form or inflected, if the table has it. */
export function verbClass(word: string): [ActionClass, 'strong' | 'weak'] | undefined {
  for (const form of baseForms(word.toLowerCase())) {
    const found = SINGLE.get(form);
    if (found) return found;
  }
  return undefined;
}

const PRECEDENCE: Record<ActionClass, number> = { delete: 3, update: 2, create: 1, list: 0, read: 0 };

function outranks(
  found: [ActionClass, 'strong' | 'weak'],
  chosen: [ActionClass, 'strong' | 'weak'],
): boolean {
  return found[1] === 'strong' && chosen[1] === 'strong' && PRECEDENCE[found[0]] > PRECEDENCE[chosen[0]];
}

/** Nouns that head an object without being it: "the details of a book" is about the book. */
const LIGHT_NOUNS = new Set([
  'details',
  'detail',
  'info',
  'information',
  'data',
  'list',
  'lists',
  'number',
  'count',
  'set',
  'kind',
  'kinds',
  'type',
  'types',
  'name',
  'names',
  'contents',
  'content',
  'value',
  'values',
  'state',
  'status',
  'rest',
  'all',
  'some',
  'one',
  'each',
  'every',
  'any',
  'few',
  'most',
]);
/** Words that end the object of a verb: "add a new warehouse | to my account". */
const OBJECT_ENDS = new Set(
  'to for from in on at by with without into onto about before after when while so because than that which who where whose'.split(
    ' ',
  ),
);
const ARTICLES = new Set([
  'a',
  'an',
  'the',
  'my',
  'our',
  'your',
  'their',
  'its',
  'this',
  'that',
  'these',
  'those',
  'some',
  'new',
  'existing',
  'specific',
  'particular',
  'single',
  'given',
  'certain',
]);

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
const NOT_VERBS = new Set([
  'what',
  'which',
  'who',
  'whom',
  'whose',
  'where',
  'when',
  'why',
  'is',
  'are',
  'was',
  'were',
  'be',
  'do',
  'does',
  'did',
  'have',
  'has',
  'had',
  'a',
  'an',
  'the',
  'it',
  'this',
  'there',
  'not',
  'no',
  'any',
  'some',
  'every',
  'all',
  'my',
  'our',
  'your',
  'their',
  'want',
  'need',
  'like',
  'able',
  'way',
]);

/** Words after which English puts a verb. */
const VERB_OPENERS = new Set([
  'i',
  'we',
  'you',
  'they',
  'to',
  'can',
  'could',
  'should',
  'would',
  'will',
  'must',
  'may',
  'please',
  'let',
  'lets',
  'me',
  'us',
  'and',
  'or',
  'then',
  'stop',
  'start',
  'also',
  'just',
  'quickly',
  'programmatically',
  'automatically',
  'how',
  'that',
  'who',
  // "which call moves ...", "what endpoint lists ...": the kind word is the subject.
  'endpoint',
  'endpoints',
  'call',
  'calls',
  'api',
  'apis',
  'operation',
  'operations',
  'route',
  'routes',
]);

const BULK =
  /\b(bulk|batch(es)?|(?<!how )many|several|multiple|in (one|a single) (request|call|go)|at once)\b/i;

/**
 * The action a question asks for, from its words (lower case, in order). Words the question
 * rules out ("without removing the runner") are not asked for.
 */
export function askedAction(question: string, words: readonly string[]): AskedAction {
  const lower = ` ${question.toLowerCase().replace(/\b(without|instead of|rather than|not)\s+\w+/g, ' ')} `;
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
    if (position > 0 && !VERB_OPENERS.has(words[position - 1]!) && !clauseStarts.has(word)) continue;
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
