import { z } from 'zod';
import { ensureAdminKey, ROLES } from '../auth/index.js';
import { ErrorCode, RagError } from '../errors/index.js';
import { documentLabel } from '../queue/index.js';
import { inScope, missingWorkspace, type Caller } from './caller.js';
import { idText, integer, parseInput, ScopeSchema } from './inputs.js';
import { queueOf, type OperationHost } from './operation-host.js';

/**
 * Running the deployment: keys, dead letters, the audit log. Admin keys only; an admin key made
 * for one workspace manages that workspace's keys and sees its dead letters and audit records,
 * an unscoped one (`*`) all of them.
 */

export const CreateKeyInput = z.object({
  workspaceId: ScopeSchema,
  // Any string in (a transport need not know the roles), one of the roles out.
  role: z
    .string({ error: `role must be one of ${ROLES.join(', ')}` })
    .pipe(z.enum(ROLES, { error: `role must be one of ${ROLES.join(', ')}` })),
  label: idText('label', 200).nullish(),
});

export async function createApiKey(
  service: OperationHost,
  caller: Caller,
  input: z.input<typeof CreateKeyInput>,
) {
  const claimed = typeof input.workspaceId === 'string' ? input.workspaceId : null;
  return service.guardDeployment(
    caller,
    'createApiKey',
    async () => {
      const parsed = parseInput(CreateKeyInput, input);
      // A scoped admin cannot mint a key wider than its own.
      if (caller.scope !== '*' && parsed.workspaceId !== caller.scope) {
        if (parsed.workspaceId === '*') {
          throw new RagError(
            ErrorCode.FORBIDDEN,
            'only an admin key for every workspace (*) can create a * key',
          );
        }
        throw missingWorkspace(parsed.workspaceId);
      }
      const created = await service.keys.create({
        workspaceId: parsed.workspaceId,
        role: parsed.role,
        label: parsed.label ?? null,
        createdBy: caller.keyId ?? caller.actor,
      });
      return created;
    },
    { workspaceId: claimed, target: `role ${String(input.role)}` },
  );
}

/**
 * The quick start's first key: an admin key for every workspace, written to DATA_DIR, made only
 * while no admin key is active (the API's start-up, with auth on).
 */
export function bootstrapAdminKey(service: OperationHost) {
  const { config, logger } = service.runtime;
  return ensureAdminKey(service.keys, config.DATA_DIR, logger);
}

export const KeyIdInput = z.object({ id: idText('id', 200) });

export async function revokeApiKey(
  service: OperationHost,
  caller: Caller,
  input: z.input<typeof KeyIdInput>,
) {
  const id = typeof input.id === 'string' ? input.id.slice(0, 200) : null;
  return service.guardDeployment(
    caller,
    'revokeApiKey',
    async () => {
      const { id: keyId } = parseInput(KeyIdInput, { id: input.id });
      const record = await service.keys.get(keyId);
      // A key outside the caller's scope answers like one that does not exist.
      if (!record || (caller.scope !== '*' && record.workspaceId !== caller.scope)) {
        throw new RagError(ErrorCode.NOT_FOUND, `API key "${keyId}" does not exist`);
      }
      return service.keys.revoke(keyId);
    },
    { target: id },
  );
}

const ListKeysInput = z.object({
  includeRevoked: z.boolean({ error: 'includeRevoked must be a boolean' }).nullish(),
});

export async function listApiKeys(
  service: OperationHost,
  caller: Caller,
  input: z.input<typeof ListKeysInput> = {},
) {
  return service.guardDeployment(caller, 'listApiKeys', async () =>
    service.keys.list({
      ...(caller.scope !== '*' ? { workspaceId: caller.scope } : {}),
      includeRevoked: parseInput(ListKeysInput, input).includeRevoked === true,
    }),
  );
}

export const DeadLettersInput = z.object({ limit: integer('limit', 1, 1000).nullish() });

export async function deadLetters(
  service: OperationHost,
  caller: Caller,
  input: z.input<typeof DeadLettersInput> = {},
) {
  return service.guardDeployment(caller, 'deadLetters', async () => {
    const limit = parseInput(DeadLettersInput, input).limit ?? 100;
    const letters = await queueOf(service.runtime).listDeadLetters(caller.scope === '*' ? limit : 10_000);
    return letters
      .filter((letter) => inScope(caller, letter.payload.workspaceId))
      .slice(0, limit)
      .map((letter) => ({
        ...letter,
        workspaceId: letter.payload.workspaceId,
        kind: letter.payload.kind,
        document: documentLabel(letter.payload),
      }));
  });
}

export const RetryInput = z.object({ ids: z.array(idText('each id', 200)).max(10_000).nullish() });

export async function retryDeadLetters(
  service: OperationHost,
  caller: Caller,
  input: z.input<typeof RetryInput> = {},
) {
  return service.guardDeployment(
    caller,
    'retryDeadLetters',
    async () => {
      const { ids } = parseInput(RetryInput, input);
      const queue = queueOf(service.runtime);
      if (caller.scope === '*') return queue.retryDeadLetters(ids ?? undefined);
      // A scoped admin re-drives its own workspace's letters only.
      const own = (await queue.listDeadLetters(10_000))
        .filter((letter) => letter.payload.workspaceId === caller.scope)
        .map((letter) => letter.id)
        .filter((id) => !ids || ids.includes(id));
      return own.length > 0 ? queue.retryDeadLetters(own) : [];
    },
    { target: Array.isArray(input.ids) ? `${input.ids.length} ids` : 'all' },
  );
}

export async function purgeDeadLetters(service: OperationHost, caller: Caller) {
  return service.guardDeployment(caller, 'purgeDeadLetters', async () => {
    if (caller.scope !== '*') {
      throw new RagError(
        ErrorCode.FORBIDDEN,
        'purging dead letters needs an admin key for every workspace (*)',
      );
    }
    return queueOf(service.runtime).purgeDeadLetters();
  });
}

export const AuditInput = z.object({
  workspaceId: ScopeSchema.nullish(),
  first: integer('first', 1, 1000).default(100),
  before: z.int().min(1).nullish(),
});

export async function auditLog(service: OperationHost, caller: Caller, input: z.input<typeof AuditInput>) {
  return service.guardDeployment(caller, 'auditLog', async () => {
    const parsed = parseInput(AuditInput, input);
    const requested = parsed.workspaceId === '*' ? null : (parsed.workspaceId ?? null);
    if (caller.scope !== '*' && requested !== null && requested !== caller.scope)
      throw missingWorkspace(requested);
    return service.audit.list({
      workspaceId: caller.scope !== '*' ? caller.scope : requested,
      visibleTo: caller.scope !== '*' ? caller.scope : null,
      first: parsed.first,
      before: parsed.before ?? null,
    });
  });
}
