import { fileURLToPath } from 'node:url';
import type { CodegenConfig } from '@graphql-codegen/cli';
import { format, resolveConfig } from 'prettier';

/**
 * Resolver types generated from schema.graphql, the source of truth: `pnpm codegen` rewrites
 * src/graphql/generated/resolvers-types.ts, and src/graphql/generated.test.ts fails when the
 * committed file is not what this config makes from the schema.
 */
export const schemaPath = fileURLToPath(new URL('./src/graphql/schema.graphql', import.meta.url));
export const outputPath = fileURLToPath(
  new URL('./src/graphql/generated/resolvers-types.ts', import.meta.url),
);

/** The generated file is formatted like the rest of the code, so `prettier --check .` holds. */
export async function formatGenerated(path: string, content: string): Promise<string> {
  const options = await resolveConfig(path);
  return format(content, { ...options, filepath: path });
}

const config: CodegenConfig = {
  schema: schemaPath,
  generates: {
    [outputPath]: {
      plugins: ['typescript', 'typescript-resolvers'],
      config: {
        useTypeImports: true,
        contextType: '../context.js#ApiContext',
        mappers: { Document: '../context.js#DocumentParent' },
        scalars: { JSON: 'unknown' },
        defaultScalarType: 'unknown',
      },
    },
  },
  hooks: { beforeOneFileWrite: formatGenerated },
};

export default config;
