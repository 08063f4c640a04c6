export type {
  ChatMessage,
  ChatRequest,
  ChatResponse,
  ChatRole,
  ChatUsage,
  CompleteOptions,
  Llm,
} from './llm.js';
export { OpenAiChatLlm } from './openai-chat.js';
export type { OpenAiChatLlmOptions } from './openai-chat.js';
export { createLlm } from './create-llm.js';
export type { CreateLlmOptions } from './create-llm.js';
