export type { Tool, ToolContext, ToolResult, ToolSource } from './tool.js';
export { ToolRouter } from './router.js';
export type {
  ToolCall,
  ToolCallError,
  ToolCallOptions,
  ToolDescription,
  ToolRouterOptions,
} from './router.js';
export {
  calcTool,
  evaluateArithmetic,
  extractArithmetic,
  MAX_EXPRESSION_LENGTH,
  MAX_NESTING_DEPTH,
} from './calc.js';
export { HttpFetchTool } from './http-fetch.js';
export type { HttpFetchToolOptions, ResolvedAddress } from './http-fetch.js';
export { blockingLookup, isBlockedAddress } from './address-policy.js';
export { blockedUrl, GuardedGet, readBodyWithin, requestFailed } from './guarded-get.js';
export type { FollowedResponse, FollowOptions, GuardedGetOptions } from './guarded-get.js';
export type { ResolvedIp } from './address-policy.js';
export { htmlToText } from './html-text.js';
export type { HtmlText } from './html-text.js';
export { lookupTool } from './lookup.js';
export type { LookupResult } from './lookup.js';
