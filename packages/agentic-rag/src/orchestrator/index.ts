export { MAX_TOP_K, RagOrchestrator } from './orchestrator.js';
export type { OrchestratorDeps } from './orchestrator.js';
export { answerPieces, type AnswerEvent, type AnswerEventListener } from './events.js';
export { findInjections } from './quarantine/index.js';
export { quarantineSources, quarantineText } from './quarantine/index.js';
export type { QuarantineRecord } from './quarantine/index.js';
export { citationMarkers, selfCheck } from './stages/self-check.js';
export { extractiveAnswer } from './stages/synthesize.js';
export type {
  AnswerDebug,
  Candidate,
  Citation,
  FollowUpRewrite,
  Plan,
  PlanIntent,
  RagAnswer,
  RagAnswerInput,
  SelfCheck,
  StageRecord,
  ToolCallRecord,
  ToolRequest,
} from './types.js';
