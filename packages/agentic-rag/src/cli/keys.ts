import { parseArgs } from 'node:util';
import { parseRole, validScope, type ApiKeyRecord } from '../auth/index.js';
import { ErrorCode, RagError } from '../errors/index.js';
import { asLocalOperator, cliConfig, cliLogger, EXIT, printer, runCli } from './cli-support.js';

const HELP = `Usage: pnpm rag:keys <command> [options]

Commands:
  create --workspace W --role R [--label L]
                    mint an API key for workspace W (or * for all) with role reader, writer
                    or admin; the key is printed once and stored nowhere, only its hash
  list              keys with their role, workspace, label and dates (never the keys)
  revoke ID         revoke a key: its next request is refused

Options:
  --workspace W     create: the workspace the key may use (* for every workspace)
  --role R          create: reader, writer or admin
  --label L         create: a note saying who or what the key is for
  --include-revoked list: revoked keys too
  --json            print JSON on stdout
  -h, --help        show this help

Acts as the local operator on the database of DATABASE_URL (or the embedded one under DATA_DIR):
whoever can open the database directly needs no key.`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: {
      workspace: { type: 'string' },
      role: { type: 'string' },
      label: { type: 'string' },
      'include-revoked': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    allowPositionals: true,
  });
  if (values.help || positionals.length === 0) {
    console.log(HELP);
    return values.help ? EXIT.ok : EXIT.usage;
  }
  const [command, ...rest] = positionals;
  // Usage is checked before the database is opened: a typo costs nothing.
  if (command === 'create') {
    if (rest.length > 0) throw usage(`create takes no arguments, got "${rest.join(' ')}"`);
    if (values.workspace === undefined)
      throw usage('create needs --workspace (a workspace id, or * for all)');
    if (values.role === undefined) throw usage('create needs --role (reader, writer or admin)');
    validScope(values.workspace);
    parseRole(values.role);
  } else if (command === 'list') {
    if (rest.length > 0) throw usage(`list takes no arguments, got "${rest.join(' ')}"`);
  } else if (command === 'revoke') {
    if (rest.length !== 1) throw usage('revoke takes one key id (see list)');
  } else {
    throw usage(`unknown command "${positionals.join(' ')}"`);
  }

  const config = cliConfig();
  // The operator at the machine, through the service: validated, and every key made or revoked audited.
  const print = printer(values.json);
  return asLocalOperator({ config, logger: cliLogger(config, 'normal') }, async (service, caller) => {
    if (command === 'create') {
      const { id, key, record } = await service.createApiKey(caller, {
        workspaceId: values.workspace!,
        role: parseRole(values.role),
        label: values.label ?? null,
      });
      print({ id, key, role: record.role, workspaceId: record.workspaceId, label: record.label }, () =>
        console.log(
          [
            `created API key ${id} (role ${record.role}, workspace ${record.workspaceId})`,
            '',
            `  ${key}`,
            '',
            'Store it now (a password manager or a secret store): it is not shown again, and only its hash is kept.',
            `Send it as "Authorization: Bearer <key>"; revoke it with: pnpm rag:keys revoke ${id}`,
          ].join('\n'),
        ),
      );
      return EXIT.ok;
    }

    if (command === 'list') {
      const keys = await service.listApiKeys(caller, { includeRevoked: values['include-revoked'] });
      print(keys, () => {
        for (const key of keys) console.log(describe(key));
        console.log(`${keys.length} ${values['include-revoked'] ? 'keys' : 'active keys'}`);
      });
      return EXIT.ok;
    }

    const id = rest[0]!;
    const known = (await service.listApiKeys(caller, { includeRevoked: true })).find((key) => key.id === id);
    if (!known)
      throw new RagError(ErrorCode.NOT_FOUND, `API key "${id}" does not exist (see pnpm rag:keys list)`);
    if (await service.revokeApiKey(caller, { id })) {
      print({ id, revoked: true }, () => console.log(`revoked API key ${id}`));
      return EXIT.ok;
    }
    print({ id, revoked: false, revokedAt: known.revokedAt }, () =>
      console.log(`API key ${id} was already revoked at ${known.revokedAt}`),
    );
    return EXIT.ok;
  });
}

function usage(message: string): RagError {
  return new RagError(ErrorCode.INVALID_INPUT, `${message} (see --help)`);
}

function describe(key: ApiKeyRecord): string {
  const columns = [
    key.id,
    key.role.padEnd(6),
    key.workspaceId.padEnd(16),
    `created ${key.createdAt} by ${key.createdBy ?? '-'}`,
    `last used ${key.lastUsedAt ?? 'never'}`,
  ];
  if (key.revokedAt) columns.push(`REVOKED ${key.revokedAt}`);
  return `${columns.join('  ')}${key.label ? `\n    ${key.label}` : ''}`;
}

runCli(main);
