import type { Role } from '../auth/index.js';

/**
 * Every operation the service runs, the weakest role that may run it, whether it writes
 * (writes are audited), whether it serves the knowledge itself (switched off with
 * AGENTIC_RAG_ENABLED=false, the pipeline's feature flag, docs/design-conformance.md; ingestion
 * and upkeep stay available, so a corpus can be loaded before answering is switched on), and whether
 * it needs a key for every workspace (`*`). Transports name operations from this table; the access matrix test
 * walks it, so an operation added here without a transport, or to a transport without being
 * here, fails that test.
 */
export const OPERATIONS = {
  // Reading a workspace's knowledge: what AGENTIC_RAG_ENABLED=false switches off (`serves`).
  search: { role: 'reader', writes: false, serves: true },
  answer: { role: 'reader', writes: false, serves: true },
  getDocument: { role: 'reader', writes: false, serves: true },
  documentChunks: { role: 'reader', writes: false, serves: true },
  entity: { role: 'reader', writes: false, serves: true },
  expandGraph: { role: 'reader', writes: false, serves: true },
  findEndpoints: { role: 'reader', writes: false, serves: true },
  // What a workspace holds and how its ingests are going, without its content.
  listDocuments: { role: 'reader', writes: false },
  corpus: { role: 'reader', writes: false },
  job: { role: 'reader', writes: false },
  listJobs: { role: 'reader', writes: false },
  // The workspaces a key may see (all for a key of every workspace, else its own).
  listWorkspaces: { role: 'reader', writes: false },
  // Changing it.
  ingest: { role: 'writer', writes: true },
  deleteDocument: { role: 'writer', writes: true },
  refreshDocument: { role: 'writer', writes: true },
  resumeIngest: { role: 'writer', writes: true },
  // Running the deployment.
  createApiKey: { role: 'admin', writes: true },
  revokeApiKey: { role: 'admin', writes: true },
  listApiKeys: { role: 'admin', writes: false },
  deadLetters: { role: 'admin', writes: false },
  retryDeadLetters: { role: 'admin', writes: true },
  purgeDeadLetters: { role: 'admin', writes: true },
  auditLog: { role: 'admin', writes: false },
  // The process's figures cover every workspace: a workspace's own admin may not read them.
  metrics: { role: 'admin', writes: false, everyWorkspace: true },
  // The golden eval reports on disk (AGENTIC_RAG_EVAL_RESULTS_DIR).
  evalRuns: { role: 'admin', writes: false },
  evalRun: { role: 'admin', writes: false },
  // Admin and not writer: it makes the server fetch a URL now (docs/web-sources.md).
  refreshUrl: { role: 'admin', writes: true },
} as const satisfies Record<string, { role: Role; writes: boolean; serves?: true; everyWorkspace?: true }>;

export type Operation = keyof typeof OPERATIONS;
export const OPERATION_NAMES = Object.keys(OPERATIONS) as Operation[];
