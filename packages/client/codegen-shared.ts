import { fileURLToPath } from 'node:url';
import type { CodegenConfig } from '@graphql-codegen/cli';
import { format, resolveConfig } from 'prettier';

/**
 * What every `pnpm codegen` config shares: the server's schema.graphql, the source of truth, and
 * the formatting of what it generates. The API generates its resolver types (its codegen.ts); the
 * client and the console generate their operations' types with `operationsCodegen`. It lives with
 * the client, the lowest of the three, so that each of them imports it downwards.
 */
export const schemaPath = fileURLToPath(
  new URL('../../apps/api/src/graphql/schema.graphql', import.meta.url),
);

/** Formatted like the rest of the code, so `prettier --check .` holds. */
export async function formatGenerated(path: string, content: string): Promise<string> {
  const options = await resolveConfig(path);
  return format(content, { ...options, filepath: path });
}

/**
 * The config for a package that sends GraphQL operations: `pnpm codegen` checks the operations in
 * `documents` against the schema and writes their variables, inputs and results to `output`; the
 * package's generated.test.ts fails when the committed file is not what this makes today.
 */
export function operationsCodegen(documents: string | string[], output: string): CodegenConfig {
  return {
    schema: schemaPath,
    documents,
    generates: {
      [output]: {
        // typescript-operations 6 writes the inputs the operations use itself, without `typescript`.
        plugins: ['typescript-operations'],
        config: {
          useTypeImports: true,
          enumsAsTypes: true,
          skipTypename: true,
          // JSON fields (filters, documentMetadata, a hit's channels and rerank) are objects; a
          // reader narrows the ones it reads.
          scalars: { ID: 'string', JSON: 'Record<string, unknown>' },
          defaultScalarType: 'unknown',
        },
      },
    },
    hooks: { beforeOneFileWrite: formatGenerated },
  };
}
