import { fileURLToPath } from 'node:url';
import { operationsCodegen } from '../api/codegen-shared.js';

export { formatGenerated } from '../api/codegen-shared.js';

/** The console's operations (src/api/operations.ts) and their generated types (src/api/generated/graphql.ts). */
export const outputPath = fileURLToPath(new URL('./src/api/generated/graphql.ts', import.meta.url));

export default operationsCodegen(
  fileURLToPath(new URL('./src/api/operations.ts', import.meta.url)),
  outputPath,
);
