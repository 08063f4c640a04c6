import { fileURLToPath } from 'node:url';
import { operationsCodegen } from '../../packages/client/codegen-shared.js';

export { formatGenerated } from '../../packages/client/codegen-shared.js';

/** The console's operations (src/api/operations.ts) and their generated types (src/api/generated/graphql.ts). */
export const outputPath = fileURLToPath(new URL('./src/api/generated/graphql.ts', import.meta.url));

// The SDK's operations are read too, for the fragments the console's own operations spread.
export default operationsCodegen(
  [
    fileURLToPath(new URL('./src/api/operations.ts', import.meta.url)),
    fileURLToPath(new URL('../../packages/client/src/operations.ts', import.meta.url)),
  ],
  outputPath,
);
