import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../errors/index.js';
import { hashSecret, parseApiKey, secretMatches, validScope } from './api-keys.js';
import { isRole, parseRole, roleAllows, ROLES } from './roles.js';

const WELL_FORMED = `ar_0123456789abcdef_${'A'.repeat(43)}`;

describe('roles', () => {
  it('are ordered weakest first', () => {
    expect(ROLES).toEqual(['reader', 'writer', 'admin']);
  });

  it.each([
    ['reader', 'reader', true],
    ['reader', 'writer', false],
    ['reader', 'admin', false],
    ['writer', 'reader', true],
    ['writer', 'writer', true],
    ['writer', 'admin', false],
    ['admin', 'reader', true],
    ['admin', 'writer', true],
    ['admin', 'admin', true],
  ] as const)('%s allows what needs %s: %s', (role, needed, allowed) => {
    expect(roleAllows(role, needed)).toBe(allowed);
  });

  it.each(['Admin', 'owner', '', ' reader', null, 3])('refuses %j as a role', (value) => {
    expect(isRole(value)).toBe(false);
    expect(() => parseRole(value)).toThrow(expect.objectContaining({ code: ErrorCode.INVALID_INPUT }));
  });
});

describe('parseApiKey', () => {
  it('splits a well-formed key into id and secret', () => {
    expect(parseApiKey(WELL_FORMED)).toEqual({ id: '0123456789abcdef', secret: 'A'.repeat(43) });
    expect(parseApiKey(`ar_0123456789abcdef_${'-_'.repeat(21)}x`)?.secret).toBe(`${'-_'.repeat(21)}x`);
  });

  it.each([
    ['empty', ''],
    ['10 KB', 'a'.repeat(10_240)],
    ['10 KB with the prefix', `ar_${'a'.repeat(10_240)}`],
    ['a NUL byte', `ar_0123456789abcdef_${'A'.repeat(42)}\0`],
    ['another prefix', `sk_0123456789abcdef_${'A'.repeat(43)}`],
    ['an upper-case id', `ar_0123456789ABCDEF_${'A'.repeat(43)}`],
    ['a short secret', `ar_0123456789abcdef_${'A'.repeat(42)}`],
    ['a long secret', `ar_0123456789abcdef_${'A'.repeat(44)}`],
    ['a space', `ar_0123456789abcdef_${'A'.repeat(42)} `],
    ['a Bearer prefix', `Bearer ${WELL_FORMED}`],
    ['not a string', 42],
    ['undefined', undefined],
  ])('refuses %s', (_name, presented) => {
    expect(parseApiKey(presented)).toBeNull();
  });
});

describe('validScope', () => {
  it.each(['*', 'acme', 'team-1', 'a.b_c', 'x'.repeat(64)])('accepts %s', (scope) => {
    expect(validScope(scope)).toBe(scope);
  });

  it.each(['', '**', 'a b', '-lead', 'x'.repeat(65), 'a/b', 'a\0', undefined])('refuses %j', (scope) => {
    expect(() => validScope(scope)).toThrow(expect.objectContaining({ code: ErrorCode.INVALID_INPUT }));
  });
});

describe('secret hashing', () => {
  it('stores scrypt parameters, a salt and a hash, never the secret', async () => {
    const secret = 'A'.repeat(43);
    const first = await hashSecret(secret);
    const second = await hashSecret(secret);
    expect(first).toMatch(/^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(first).not.toContain(secret);
    expect(second).not.toBe(first); // a salt per key
    expect(await secretMatches(secret, first)).toBe(true);
    expect(await secretMatches(secret, second)).toBe(true);
    expect(await secretMatches('B'.repeat(43), first)).toBe(false);
  });

  it.each(['', 'plain', 'scrypt$1$1$1$$', 'scrypt$0$8$1$c2FsdA$aGFzaA', 'bcrypt$x'])(
    'treats a damaged stored hash %j as no match',
    async (stored) => {
      expect(await secretMatches('A'.repeat(43), stored)).toBe(false);
    },
  );
});
