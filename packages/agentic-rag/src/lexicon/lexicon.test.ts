import { describe, expect, it } from 'vitest';
import {
  clippingsOf,
  compoundParts,
  englishWords,
  isProtected,
  learnedAcronyms,
  lemmas,
  senses,
  tableExpansions,
  tokenize,
} from './index.js';

describe('tokenize', () => {
  const kinds = (text: string) => tokenize(text).map((token) => `${token.kind}:${token.text}`);

  it('keeps flags, identifiers, paths, extensions, numbers and code whole', () => {
    expect(kinds('use --allow-unrelated-histories with git merge -x')).toEqual([
      'word:use',
      'flag:--allow-unrelated-histories',
      'word:with',
      'word:git',
      'word:merge',
      'flag:-x',
    ]);
    expect(kinds('convert a .psd file')).toEqual(['word:convert', 'word:a', 'extension:.psd', 'word:file']);
    expect(kinds('os.path.join() on ~/.gitconfig and /v1/customers/{id}')).toEqual([
      'identifier:os.path.join()',
      'word:on',
      'path:~/.gitconfig',
      'word:and',
      'path:/v1/customers/{id}',
    ]);
    expect(kinds('is `ShipmentStatus` or pickup_cutoff 2FA (default: 900)?')).toEqual([
      'word:is',
      'code:`ShipmentStatus`',
      'word:or',
      'identifier:pickup_cutoff',
      'identifier:2FA',
      'word:default',
      'number:900',
    ]);
  });

  it('reads a hyphenated word as a word, and capitals as an acronym', () => {
    expect(kinds('re-run the PR')).toEqual(['word:re-run', 'word:the', 'acronym:PR']);
    expect(tokenize('re-run PR').map(isProtected)).toEqual([false, true]);
  });
});

describe('englishWords', () => {
  it('knows American and British spellings and inflections, and not misspellings', () => {
    const english = englishWords();
    for (const word of ['organisation', 'organization', 'certain', 'typo', 'typos', 'logged', 'release'])
      expect(english.isWord(word), word).toBe(true);
    for (const word of ['relase', 'webhok', 'creds']) expect(english.isWord(word), word).toBe(false);
    expect(english.suggest('relase')).toContain('release');
  });
});

describe('WordNet', () => {
  it('finds base forms by its detachment rules, a doubled consonant included', () => {
    expect(lemmas('repositories', 'noun')).toEqual(['repository']);
    expect(lemmas('logged', 'verb')).toEqual(['log']);
    expect(lemmas('webhooks', 'noun')).toEqual([]);
  });

  it('reads the senses of a phrase, commonest first', () => {
    const refund = senses('give back');
    expect(refund[0]!.words).toEqual(expect.arrayContaining(['refund', 'give back']));
    expect(senses('remove').find((sense) => sense.pos === 'verb')!.rank).toBe(0);
  });
});

describe('compoundParts', () => {
  it.each([
    ['worklog', ['work', 'log']],
    ['issuelinktype', ['issue', 'link', 'type']],
    ['permissionscheme', ['permission', 'scheme']],
    ['mergeto', ['merge', 'to']],
    ['myself', []],
    ['notifications', []],
  ])('%s → %j', (word, parts) => {
    expect(compoundParts(word)).toEqual(parts);
  });
});

describe('abbreviations', () => {
  it('expands the table, plurals too', () => {
    expect(tableExpansions('repo')).toEqual(['repository']);
    expect(tableExpansions('repos')).toEqual(['repositories']);
    expect(tableExpansions('PRs')).toEqual(['pull requests']);
    expect(tableExpansions('repository')).toEqual([]);
  });

  it('learns acronyms from the names a spec uses, commonest long form first', () => {
    const acronyms = learnedAcronyms(['merge_requests', 'mergeRequests', 'deploy_keys']);
    expect(acronyms.get('mr')).toEqual(['merge requests']);
    expect(acronyms.get('dk')).toEqual(['deploy keys']);
  });

  it('finds the words a clipping shortens, never a shorter one', () => {
    expect(clippingsOf('proj', ['project', 'projects', 'prod'])).toEqual(['project', 'projects']);
    expect(clippingsOf('env', ['environment', 'envelope', 'env'])).toEqual(['environment', 'envelope']);
    expect(clippingsOf('pr', ['project'])).toEqual([]);
  });
});
