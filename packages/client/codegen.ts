import { fileURLToPath } from 'node:url';
import type { CodegenConfig } from '@graphql-codegen/cli';
import { format, resolveConfig } from 'prettier';

/**
 * The client's types generated from the server's schema.graphql, the source of truth: `pnpm codegen`
 * checks the operations in src/operations.ts against it and rewrites src/generated/graphql.ts (their
 * variables, inputs and results); src/generated.test.ts fails when the committed file is not what
 * this config makes from the schema today.
 */
export const schemaPath = fileURLToPath(
  new URL('../../apps/api/src/graphql/schema.graphql', import.meta.url),
);
export const documentsPath = fileURLToPath(new URL('./src/operations.ts', import.meta.url));
export const outputPath = fileURLToPath(new URL('./src/generated/graphql.ts', import.meta.url));

/** Formatted like the rest of the code, so `prettier --check .` holds. */
export async function formatGenerated(path: string, content: string): Promise<string> {
  const options = await resolveConfig(path);
  return format(content, { ...options, filepath: path });
}

const config: CodegenConfig = {
  schema: schemaPath,
  documents: documentsPath,
  generates: {
    [outputPath]: {
      // typescript-operations 6 writes the inputs the operations use itself, without `typescript`.
      plugins: ['typescript-operations'],
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        skipTypename: true,
        // The JSON fields the client sends or reads (filters, documentMetadata, a hit's channels and
        // rerank) are objects.
        scalars: { ID: 'string', JSON: 'Record<string, unknown>' },
        defaultScalarType: 'unknown',
      },
    },
  },
  hooks: { beforeOneFileWrite: formatGenerated },
};

export default config;
