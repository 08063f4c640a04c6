export { loadConfig, redactConfig } from './load-config.js';
export type { Env } from './load-config.js';
export { configSchema, MCP_TOOL_NAMES } from './schema.js';
export type { Config, McpToolName } from './schema.js';
