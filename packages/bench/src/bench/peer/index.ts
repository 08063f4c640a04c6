export { LangchainPgvectorPeer, PEER_BATCH_SIZE } from './langchain-pgvector-peer.js';
export type { PeerIngestOptions, PeerIngestSummary } from './langchain-pgvector-peer.js';
export { RuntimeEmbeddings } from './runtime-embeddings.js';
