export { structureKnowledge } from './structure.js';
export type { StructureOptions } from './structure.js';
export { structureByRules } from './rule-based.js';
export { structureWithLlm } from './llm-structurer.js';
export type { LlmStructuring } from './llm-structurer.js';
export { recordCheckIn } from './checkins.js';
export type { CheckIn } from './checkins.js';
