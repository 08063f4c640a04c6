/**
 * Formats secretlint's recommended preset (12.0.0) does not cover, kept few on purpose: each is a
 * provider's documented key shape, not a guess from entropy. The `secret` group, when present, is
 * what is redacted; otherwise the whole match is.
 */
export interface OwnRule {
  name: string;
  pattern: RegExp;
  /** A further check of a match; none: every match is a secret. */
  accept?: (match: RegExpMatchArray) => boolean;
}

export const OWN_RULES: readonly OwnRule[] = [
  // A private key block of any kind. The preset checks the body's first bytes for an ASN.1 long
  // form or OpenSSH magic, which misses short EC keys (`MHcC...`) and armoured PGP blocks; here the
  // body only has to be base64 (armour headers such as `Version:` aside), so `...` placeholders pass.
  {
    name: 'privatekey',
    pattern:
      /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?<body>[\s\S]{0,20000}?)-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g,
    accept: (match) => {
      const body = (match.groups?.body ?? '')
        .replace(/\\n/g, '\n')
        .split('\n')
        .filter((line) => !/^[A-Za-z-]+: /.test(line.trim()))
        .join('')
        .replace(/\s/g, '');
      return /^[A-Za-z0-9+/=]{40,}$/.test(body);
    },
  },
  // Stripe secret and restricted keys (live and test); publishable `pk_` keys are public by design.
  { name: 'stripe', pattern: /(?<![A-Za-z0-9_])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,247}(?![A-Za-z0-9])/g },
  // A signed JWT: base64url JSON header `{"` (eyJ) and payload, and a signature.
  {
    name: 'jwt',
    pattern:
      /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}(?![A-Za-z0-9_-])/g,
  },
  // Azure storage / Service Bus / Event Hubs connection strings: the key, base64.
  {
    name: 'azure',
    pattern: /\b(?:AccountKey|SharedAccessKey)=(?<secret>[A-Za-z0-9+/]{30,}={0,2})/g,
  },
  // Azure SAS: a URL (or connection string) with a signed-version and a signature.
  {
    name: 'azure',
    pattern: /[?&;]sv=\d{4}-\d{2}-\d{2}[^\s"'<>]*?[&;]sig=(?<secret>[A-Za-z0-9%+/=]{20,})/g,
  },
  // Google API keys (Maps, Firebase, ...).
  { name: 'google-api-key', pattern: /(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g },
  // OpenAI keys: project, service-account and admin keys (`sk-proj-...`) and the older `sk-` + 48.
  {
    name: 'openai',
    pattern:
      /(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-)?(?<body>[A-Za-z0-9_-]{32,300})(?![A-Za-z0-9_-])/g,
    accept: (match) => looksRandom(match.groups?.body ?? ''),
  },
  // Anthropic API and admin keys.
  {
    name: 'anthropic',
    pattern: /(?<![A-Za-z0-9_-])sk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{32,300}(?![A-Za-z0-9_-])/g,
  },
  // An AWS secret access key written after its access key id, in prose or a table ("the key id is
  // AKIA... and the secret is ..."): the preset finds one only as an assignment.
  {
    name: 'aws',
    pattern:
      /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])[\s\S]{1,160}?(?<![A-Za-z0-9/+])(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/g,
    accept: (match) => looksRandom(match.groups?.secret ?? ''),
  },
  // gitleaks' generic rule, narrowed to an assignment on a line of its own: a key named like a
  // credential (`DB_PASSWORD=`, `password:`, `"api_key": "`) whose whole value is one token that
  // looks generated. A sentence about a password, a placeholder, an expression or a reference to
  // another variable is not a value.
  {
    name: 'generic-secret',
    pattern:
      /^[ \t-]*(?:export[ \t]+)?["']?[A-Za-z0-9_.-]*(?:passw(?:or)?d|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credentials?)[A-Za-z0-9_.-]*["']?[ \t]*[:=][ \t]*["']?(?<secret>[^\s"'`]{8,200})["']?[ \t]*,?(?:[ \t]+#.*)?[ \t]*$/gim,
    accept: (match) => isGeneratedValue(match.groups?.secret ?? ''),
  },
  // A password in a URL whose scheme the preset's connection-string rules do not know
  // (redis, amqp, ...): `scheme://user:password@host`. Placeholders are filtered by the scanner.
  {
    name: 'url-password',
    pattern: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@"'<>]*:(?<secret>[^\s/@"'<>]{3,200})@[A-Za-z0-9.[\]-]/gi,
  },
];

/** Upper case, lower case and digits mixed, as a generated key is; a word or a number is not. */
export function looksRandom(value: string): boolean {
  return /[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value) && entropy(value) >= 3.5;
}

/**
 * A value a person or a generator chose as a secret: at least three of lower case, upper case,
 * digits and symbols, and not a reference (`${X}`, `env.X`, `os.getenv(`), a path, a URL or a
 * placeholder.
 */
function isGeneratedValue(value: string): boolean {
  if (/^(?:\$|%|<|\{|\[|~|\/|\.{1,2}\/|https?:|file:)/i.test(value) || value.includes('://')) return false;
  if (/^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(\)?)?$/.test(value)) return false; // settings.SECRET_KEY
  if (/[()]/.test(value)) return false; // a call: pwd.getpwnam(user)[1]
  if (/(?:\.{3}|…)$/.test(value)) return false; // cut short in an example: "eyJhbGci..."
  if (/^(?:x+|\*+|\.+|-+|_+)$/i.test(value) || /^[A-Z][A-Z0-9_]*$/.test(value)) return false;
  if (/(?:example|changeme|placeholder|your|redacted|secret|password|dummy|sample)/i.test(value))
    return false;
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((kind) => kind.test(value)).length;
  return classes >= 3 || (value.length >= 20 && entropy(value) >= 4);
}

/** Shannon entropy in bits per character. */
export function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const character of value) counts.set(character, (counts.get(character) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const share = count / value.length;
    bits -= share * Math.log2(share);
  }
  return bits;
}
