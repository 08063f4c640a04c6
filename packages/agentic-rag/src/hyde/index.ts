export type { QuestionWriter } from './question-writer.js';
export { LlmQuestionWriter, parseQuestions } from './llm-question-writer.js';
export type { LlmQuestionWriterOptions } from './llm-question-writer.js';
export { CachingQuestionWriter } from './caching.js';
