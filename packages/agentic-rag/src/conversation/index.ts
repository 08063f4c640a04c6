export { rewriteFollowUp, subjectOf, type ConversationTurn, type FollowUp } from './follow-up.js';
export { followUpMessages, llmFollowUp } from './llm-follow-up.js';
export { ConversationStore, type ConversationLimits, type StoredConversation } from './conversation-store.js';
