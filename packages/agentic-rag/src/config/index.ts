export { loadConfig, redactConfig } from './load-config.js';
export type { Env } from './load-config.js';
export { configSchema, MCP_TOOL_NAMES, WORKSPACE_ID_PATTERN } from './schema.js';
export type { Config, McpToolName } from './schema.js';
export { ingestMode } from './ingest-mode.js';
export { isLoopback } from './load-config.js';
