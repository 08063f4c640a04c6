import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { Sql, SqlExecutor } from '../db/index.js';
import { ErrorCode, RagError } from '../errors/index.js';
import { assertWorkspaceId } from '../store/index.js';
import { silentLogger, type Logger } from '../telemetry/index.js';
import { parseRole, type Role } from './roles.js';

/** A key as every listing, audit record and permission check sees it: never the secret. */
export interface ApiKeyRecord {
  /** Public id: the middle part of the key, shown by `list` and written to audit records. */
  id: string;
  role: Role;
  /** One workspace id, or '*' for all. */
  workspaceId: string;
  label: string | null;
  /** The id of the key that created it, or 'cli' / 'bootstrap'. */
  createdBy: string | null;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

export interface CreateApiKeyInput {
  workspaceId: string;
  role: Role;
  label?: string | null;
  createdBy?: string | null;
}

export interface CreatedApiKey {
  id: string;
  /** The plaintext key: returned here once, stored nowhere. */
  key: string;
  record: ApiKeyRecord;
}

export interface ApiKeyStoreOptions {
  /** Warns when the best-effort last_used_at update fails. */
  logger?: Logger;
}

/** Scope meaning every workspace. */
export const ALL_WORKSPACES = '*';

// `ar_<id>_<secret>`: the id finds the row by primary key, the secret is 32 random bytes.
const KEY_PREFIX = 'ar_';
const ID_PATTERN = /^[0-9a-f]{16}$/;
const KEY_PATTERN = /^ar_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;
const KEY_LENGTH = 63;

// scrypt's recommended interactive parameters (about 50 ms, 16 MiB); stored with each hash so
// they can be raised later without invalidating existing keys.
const SCRYPT = { N: 16_384, r: 8, p: 1, keyLength: 32, saltLength: 16 } as const;

// How many verified keys are remembered; only a correct secret ever gets in.
const VERIFIED_CACHE_SIZE = 10_000;
const MAX_TEXT = 200;

// A type, not an interface: rows must be assignable to SqlRow's index signature.
type KeyRow = {
  id: string;
  key_hash: string;
  role: Role;
  workspace_id: string;
  label: string | null;
  created_by: string | null;
  created_at: Date | string;
  revoked_at: Date | string | null;
  last_used_at: Date | string | null;
};

const COLUMNS = 'id, key_hash, role, workspace_id, label, created_by, created_at, revoked_at, last_used_at';

// One primary-key read per verify; `stale` asks the database's own clock whether last_used_at
// is over a minute old, so processes with skewed clocks agree on when to write it.
const SELECT_FOR_VERIFY = `
  SELECT ${COLUMNS},
         (last_used_at IS NULL OR last_used_at < now() - interval '1 minute') AS stale
  FROM rag_api_keys
  WHERE id = $1`;

const TOUCH = `
  UPDATE rag_api_keys SET last_used_at = now()
  WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')
  RETURNING last_used_at`;

// Any constant shared by every process that bootstraps the same database.
const BOOTSTRAP_LOCK_KEY = 7_351_022_014;

/**
 * API keys in rag_api_keys. Only an scrypt hash of each secret is stored. verify() runs scrypt
 * once per key and process and remembers the result (by a SHA-256 of the presented key); every
 * call still reads the key's row, so a revocation by another process (the CLI) refuses the very
 * next request.
 */
export class ApiKeyStore {
  /** SHA-256 of a presented key → the id whose secret it was proven to be. */
  private readonly verified = new Map<string, string>();
  private readonly logger: Logger;

  constructor(
    private readonly sql: Sql,
    options: ApiKeyStoreOptions = {},
  ) {
    this.logger = options.logger ?? silentLogger;
  }

  async create(input: CreateApiKeyInput): Promise<CreatedApiKey> {
    return this.insert(this.sql, input);
  }

  /**
   * Creates a key only when no active key exists, under an advisory lock so two processes
   * starting together mint one. `persist` runs before the commit: if it throws, no key is made.
   */
  async createIfNoneActive(
    input: CreateApiKeyInput,
    persist: (created: CreatedApiKey) => Promise<void>,
  ): Promise<CreatedApiKey | null> {
    return this.sql.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK_KEY]);
      if ((await countActive(tx)) > 0) return null;
      const created = await this.insert(tx, input);
      await persist(created);
      return created;
    });
  }

  /** Keys oldest first; `workspaceId` keeps keys whose scope is exactly it ('*' for all-workspace keys). */
  async list(options: { workspaceId?: string; includeRevoked?: boolean } = {}): Promise<ApiKeyRecord[]> {
    const conditions: string[] = [];
    const params: unknown[] = [];
    if (options.workspaceId !== undefined) {
      params.push(validScope(options.workspaceId));
      conditions.push(`workspace_id = $${params.length}`);
    }
    if (!options.includeRevoked) conditions.push('revoked_at IS NULL');
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    const result = await this.sql.query<KeyRow>(
      `SELECT ${COLUMNS} FROM rag_api_keys ${where} ORDER BY created_at, id`,
      params,
    );
    return result.rows.map(toRecord);
  }

  async get(id: string): Promise<ApiKeyRecord | null> {
    if (typeof id !== 'string' || !ID_PATTERN.test(id)) return null;
    const result = await this.sql.query<KeyRow>(`SELECT ${COLUMNS} FROM rag_api_keys WHERE id = $1`, [id]);
    const row = result.rows[0];
    return row ? toRecord(row) : null;
  }

  /** True when the key was active and is now revoked; false for unknown or already revoked ids. */
  async revoke(id: string): Promise<boolean> {
    if (typeof id !== 'string' || !ID_PATTERN.test(id)) return false;
    const result = await this.sql.query(
      'UPDATE rag_api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id',
      [id],
    );
    for (const [digest, verifiedId] of this.verified) if (verifiedId === id) this.verified.delete(digest);
    return result.rowCount > 0;
  }

  async activeCount(): Promise<number> {
    return countActive(this.sql);
  }

  /**
   * The live key's record, or null for anything else (unknown, malformed, revoked, wrong
   * secret). Never throws for bad input; a database that cannot be reached still throws
   * (STORE_UNAVAILABLE), since that is not the caller's fault.
   *
   * A well-formed key this process has not proven costs one scrypt whether its id exists or not
   * (a decoy hash stands in for a missing or revoked row), so the time of a refusal says nothing
   * about which key ids exist. `beforeProof` runs before that scrypt: the caller's limit on
   * unproven keys (it throws to refuse), so nobody buys the server's CPU with made-up keys.
   */
  async verify(presented: string, beforeProof?: () => Promise<void>): Promise<ApiKeyRecord | null> {
    const parsed = parseApiKey(presented);
    if (!parsed) return null;
    const result = await this.sql.query<KeyRow & { stale: boolean }>(SELECT_FOR_VERIFY, [parsed.id]);
    const row = result.rows[0];
    const digest = createHash('sha256').update(presented).digest('base64url');
    const live = row !== undefined && row.revoked_at === null;
    if (!live) this.verified.delete(digest);
    if (!live || this.verified.get(digest) !== parsed.id) {
      await beforeProof?.();
      const matches = await secretMatches(parsed.secret, live ? row.key_hash : await decoyHash());
      if (!live || !matches) return null;
      this.remember(digest, parsed.id);
    }
    const record = toRecord(row);
    if (row.stale) record.lastUsedAt = (await this.touch(parsed.id)) ?? record.lastUsedAt;
    return record;
  }

  private async insert(executor: SqlExecutor, input: CreateApiKeyInput): Promise<CreatedApiKey> {
    const role = parseRole(input.role);
    const workspaceId = validScope(input.workspaceId);
    const label = optionalText('label', input.label);
    const createdBy = optionalText('createdBy', input.createdBy);
    const id = randomBytes(8).toString('hex');
    const secret = randomBytes(32).toString('base64url');
    const result = await executor.query<KeyRow>(
      `INSERT INTO rag_api_keys (id, key_hash, role, workspace_id, label, created_by)
       VALUES ($1, $2, $3, $4, $5, $6)
       RETURNING ${COLUMNS}`,
      [id, await hashSecret(secret), role, workspaceId, label, createdBy],
    );
    return { id, key: `${KEY_PREFIX}${id}_${secret}`, record: toRecord(result.rows[0]!) };
  }

  private remember(digest: string, id: string): void {
    if (this.verified.size >= VERIFIED_CACHE_SIZE) {
      const oldest = this.verified.keys().next().value;
      if (oldest !== undefined) this.verified.delete(oldest);
    }
    this.verified.set(digest, id);
  }

  /** Best effort: a failed last_used_at write must not refuse a valid key. */
  private async touch(id: string): Promise<string | null> {
    try {
      const result = await this.sql.query<{ last_used_at: Date | string }>(TOUCH, [id]);
      const row = result.rows[0];
      return row ? new Date(row.last_used_at).toISOString() : null;
    } catch (error) {
      this.logger.warn('could not record when an API key was last used', {
        event: 'api-key-touch-failed',
        keyId: id,
        error: (error as Error).message,
      });
      return null;
    }
  }
}

/** The id and secret of a well-formed key, or null; looks at nothing longer than a key. */
export function parseApiKey(presented: unknown): { id: string; secret: string } | null {
  if (typeof presented !== 'string' || presented.length !== KEY_LENGTH) return null;
  const match = KEY_PATTERN.exec(presented);
  return match ? { id: match[1]!, secret: match[2]! } : null;
}

/** A key's scope from user input: a workspace id or '*'. */
export function validScope(workspaceId: unknown): string {
  if (workspaceId === ALL_WORKSPACES) return ALL_WORKSPACES;
  if (typeof workspaceId !== 'string') {
    throw new RagError(ErrorCode.INVALID_INPUT, 'workspace is required: a workspace id, or * for all');
  }
  assertWorkspaceId(workspaceId);
  return workspaceId;
}

function optionalText(name: string, value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > MAX_TEXT || /\p{Cc}/u.test(value)) {
    throw new RagError(
      ErrorCode.INVALID_INPUT,
      `${name} is invalid: expected text of at most ${MAX_TEXT} characters without control characters`,
    );
  }
  return value;
}

async function countActive(executor: SqlExecutor): Promise<number> {
  const result = await executor.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM rag_api_keys WHERE revoked_at IS NULL',
  );
  return result.rows[0]?.count ?? 0;
}

function scryptAsync(
  secret: string,
  salt: Buffer,
  keyLength: number,
  options: ScryptOptions,
): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, keyLength, options, (error, derived) => (error ? reject(error) : resolve(derived))),
  );
}

let decoy: Promise<string> | null = null;

/** A hash of no key, with the parameters every key has: what an unknown id is checked against. */
function decoyHash(): Promise<string> {
  decoy ??= hashSecret(randomBytes(32).toString('base64url'));
  return decoy;
}

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url. */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(SCRYPT.saltLength);
  const hash = await scryptAsync(secret, salt, SCRYPT.keyLength, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  return [
    'scrypt',
    SCRYPT.N,
    SCRYPT.r,
    SCRYPT.p,
    salt.toString('base64url'),
    hash.toString('base64url'),
  ].join('$');
}

export async function secretMatches(secret: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  try {
    const actual = await scryptAsync(secret, Buffer.from(salt, 'base64url'), expected.length, {
      N: Number(N),
      r: Number(r),
      p: Number(p),
    });
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  } catch {
    return false;
  }
}

function toRecord(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    role: row.role,
    workspaceId: row.workspace_id,
    label: row.label,
    createdBy: row.created_by,
    createdAt: new Date(row.created_at).toISOString(),
    revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at).toISOString(),
    lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at).toISOString(),
  };
}
