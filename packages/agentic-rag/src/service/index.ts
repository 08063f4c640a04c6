export type { AnswerCallOptions, AnswerConversation, AnswerResult, AnswerStreamEvent } from './answers.js';
export { AuditLog, type AuditEntry, type AuditRecord } from './audit.js';
export type { EvalCategory, EvalRun } from './eval-runs.js';
export { ANONYMOUS, inScope, localOperator, missingWorkspace, type Caller } from './caller.js';
export {
  describeIssue,
  firstDirtyString,
  isCleanText,
  parseInput,
  WorkspaceIdSchema,
  type WorkspaceId,
} from './inputs.js';
export { OPERATION_NAMES, OPERATIONS, type Operation } from './permissions.js';
export { RagService, type CallOptions, type GuardOptions, type OperationContext } from './rag-service.js';
export { corpusPath, type IngestCallOptions, type IngestOutcome } from './writes.js';
export type { CrawlCallOptions } from './crawls.js';
export type { CachedRead, CachedReadOptions } from './textbook.js';
export { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';
