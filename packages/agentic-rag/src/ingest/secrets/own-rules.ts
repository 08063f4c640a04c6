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
  // A password in a URL whose scheme the preset's connection-string rules do not know
  // (redis, amqp, ...): `scheme://user:password@host`. Placeholders are filtered by the scanner.
  {
    name: 'url-password',
    pattern: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@"'<>]*:(?<secret>[^\s/@"'<>]{3,200})@[A-Za-z0-9.[\]-]/gi,
  },
];
