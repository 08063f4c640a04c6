import { fileURLToPath } from 'node:url';
import type { CodegenConfig } from '@graphql-codegen/cli';
import { formatGenerated, schemaPath } from '../../packages/client/codegen-shared.js';

export { formatGenerated };

/**
 * Resolver types generated from schema.graphql, the source of truth: `pnpm codegen` rewrites
 * src/graphql/generated/resolvers-types.ts, and src/graphql/generated.test.ts fails when the
 * committed file is not what this config makes from the schema.
 */
export const outputPath = fileURLToPath(
  new URL('./src/graphql/generated/resolvers-types.ts', import.meta.url),
);

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
