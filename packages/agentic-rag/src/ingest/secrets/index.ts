export { findSecrets, redactSecrets } from './scanner.js';
export type { Redacted, SecretFinding, SecretRedaction } from './scanner.js';
export { screenDocument, screenForIngest } from './screen.js';
export type { Screened, SecretsMode } from './screen.js';
