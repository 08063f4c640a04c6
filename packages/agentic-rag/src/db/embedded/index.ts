export { openEmbedded } from './open-embedded.js';
export type { OpenEmbeddedOptions } from './open-embedded.js';
export { assertDataDirOpens, dataDirIdentity } from './data-dir-check.js';
export { socketDirFor } from './socket.js';
