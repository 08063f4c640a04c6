/**
 * English verbs of software work, as data: which HTTP shape each asks for (REST's uniform
 * interface: removing anything is a DELETE, adding one a POST to a collection, changing one a PUT
 * or PATCH, reading one a GET of an item, many a GET of a collection), and which verbs name one
 * action (the families a question's word and a spec's action segment meet in). General usage,
 * never one product's vocabulary.
 */

export type ActionClass = 'create' | 'read' | 'update' | 'delete' | 'list';

/** Space-separated words as a list (the tables stay readable). */
export const words = (text: string): string[] => text.split(/\s+/).filter(Boolean);
/** Comma-separated phrases as a list. */
const phrases = (text: string): string[] => text.split(/\s*,\s*/).filter(Boolean);

/** Checked in order; multi-word verbs first. A change outranks a look in the same question. */
export const VERBS: ReadonlyArray<[ActionClass, 'strong' | 'weak', readonly string[]]> = [
  [
    'delete',
    'strong',
    phrases(
      'get rid of, take down, throw away, clean up, do away with, wipe out, stop receiving, stop getting, stop watching, stop following, kick out, opt out',
    ),
  ],
  ['create', 'strong', phrases('set up, sign up, put in, kick off, hand over')],
  ['list', 'weak', phrases('look through, go through')],
  ['read', 'weak', phrases('look up, look at, find out, check on')],
  [
    'update',
    'strong',
    words(
      'update change edit modify rename replace overwrite correct adjust alter amend ' +
        'tweak reconfigure patch move transfer reassign switch toggle enable disable mark ' +
        'set reset reorder resize extend upgrade downgrade',
    ),
  ],
  [
    'delete',
    'strong',
    words(
      'delete remove erase destroy drop discard purge clear wipe unset detach unlink ' +
        'uninstall unregister revoke deactivate deregister dismiss withdraw trash kill ' +
        'void cancel abort stop halt terminate expire invalidate',
    ),
  ],
  [
    'create',
    'strong',
    words(
      'create add make new register post submit upload attach generate issue invite ' +
        'open start begin schedule book reserve rent hire order borrow lend import insert ' +
        'append connect subscribe buy ' +
        'purchase send write publish provision spin launch trigger enroll enrol assign ' +
        'grant give share fork copy duplicate clone',
    ),
  ],
  ['list', 'weak', words('list all every enumerate browse search query filter find')],
  [
    'read',
    'weak',
    words(
      'get retrieve fetch read show see view display download print inspect check ' +
        'lookup return obtain pull export count preview look',
    ),
  ],
];

/**
 * Verbs English uses for one software action, so the question's word meets the spec's action
 * segment (`/cancel`, `/retry`, `/star`).
 */
const FAMILIES: ReadonlyArray<readonly string[]> = [
  phrases('cancel, stop, abort, halt, terminate, kill, end'),
  phrases('retry, rerun, re-run, restart, replay, redo, resend, redeliver, redeploy'),
  phrases('approve, accept, confirm, sign off'),
  phrases('decline, reject, deny, refuse'),
  phrases('star, favorite, favourite, bookmark'),
  phrases('unstar, unfavorite, unfavourite, unbookmark'),
  phrases('move, transfer, relocate, migrate'),
  phrases('block, ban, suspend, lock out'),
  phrases('unblock, unban, reinstate, unsuspend'),
  phrases('revoke, invalidate, expire, deauthorize'),
  phrases('subscribe, watch, follow'),
  phrases(
    'unsubscribe, unwatch, unfollow, stop receiving, stop getting, stop watching, stop following, opt out',
  ),
  phrases('close, resolve, finish, complete'),
  phrases('reopen, unresolve'),
  phrases('archive, shelve'),
  phrases('unarchive, restore, undelete, recover'),
  phrases('validate, verify, lint, check'),
  phrases('merge, combine, squash'),
  phrases('lock, freeze'),
  phrases('unlock, unfreeze'),
  phrases('publish, release'),
  phrases('send, deliver, dispatch, email, notify'),
  phrases('test, ping, try'),
  phrases('search, find, query, look up, filter'),
  phrases('count, tally, total'),
  phrases('copy, duplicate, clone'),
  phrases('assign, allocate'),
  phrases('unassign, deallocate'),
  phrases('share, grant'),
  phrases('upload, attach'),
  phrases('download, export'),
  phrases('import, load'),
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
export const UNDO = /^un(?!der|til|less|ion|it|ique|ix|ivers|ifor|usual|able|known)([a-z]{3,})$/;

/** Inflections of a verb to its base: "removing", "deleted", "adds" → remove, delete, add. */
export function baseForms(word: string): string[] {
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
