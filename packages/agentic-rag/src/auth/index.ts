export { ROLES, isRole, parseRole, roleAllows } from './roles.js';
export type { Role } from './roles.js';
export { ALL_WORKSPACES, ApiKeyStore, parseApiKey, validScope } from './api-keys.js';
export type { ApiKeyRecord, ApiKeyStoreOptions, CreateApiKeyInput, CreatedApiKey } from './api-keys.js';
export { ADMIN_KEY_FILE, ensureAdminKey } from './admin-key.js';
export { createRateLimiter, DEFAULT_RATE_LIMIT_PREFIX } from './rate-limit.js';
export type { RateLimitDecision, RateLimiter, RateLimiterOptions } from './rate-limit.js';
