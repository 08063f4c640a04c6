import { fileURLToPath } from 'node:url';
import { operationsCodegen } from './codegen-shared.js';

export { formatGenerated } from './codegen-shared.js';

/** The client's operations (src/operations.ts) and their generated types (src/generated/graphql.ts). */
export const outputPath = fileURLToPath(new URL('./src/generated/graphql.ts', import.meta.url));

export default operationsCodegen(fileURLToPath(new URL('./src/operations.ts', import.meta.url)), outputPath);
