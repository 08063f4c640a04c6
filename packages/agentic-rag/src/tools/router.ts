import { ErrorCode, RagError, isRagError } from '../errors/index.js';
import { silentLogger, toolCalls, type Logger } from '../telemetry/index.js';
import type { Tool, ToolResult } from './tool.js';

export interface ToolRouterOptions {
  tools: readonly Tool[];
  /** Names the caller may use; a registered tool missing from this list cannot be called. */
  allowed: readonly string[];
  logger?: Logger;
}

export interface ToolCallError {
  code: ErrorCode;
  message: string;
}

interface ToolCallBase {
  name: string;
  /** The validated input when validation passed, otherwise the raw input as received. */
  input: unknown;
  ms: number;
}

/**
 * A record of one call, successful or not: the router never throws for a failed call. `ok`
 * discriminates; the absent side is typed `undefined` so `call.result?.output` reads naturally.
 */
export type ToolCall =
  | (ToolCallBase & { ok: true; result: ToolResult; error?: undefined })
  | (ToolCallBase & { ok: false; error: ToolCallError; result?: undefined });

export interface ToolCallOptions {
  signal?: AbortSignal;
}

export interface ToolDescription {
  name: string;
  description: string;
}

/**
 * The one way the orchestrator runs a tool: allowlist, input validation, a deadline, and error
 * masking happen here so each tool only implements its own work.
 */
export class ToolRouter {
  private readonly callable = new Map<string, Tool>();
  /** Every registered name, allowed or not: the values the call counter's `tool` label may take. */
  private readonly registered = new Set<string>();
  private readonly logger: Logger;

  constructor(options: ToolRouterOptions) {
    const allowed = new Set(options.allowed);
    const seen = new Set<string>();
    for (const tool of options.tools) {
      if (seen.has(tool.name)) {
        throw new RagError(ErrorCode.INVALID_CONFIG, `two tools are named "${tool.name}"`, {
          details: { name: tool.name },
        });
      }
      seen.add(tool.name);
      this.registered.add(tool.name);
      if (allowed.has(tool.name) && tool.enabled !== false) this.callable.set(tool.name, tool);
    }
    this.logger = options.logger ?? silentLogger;
  }

  list(): ToolDescription[] {
    return [...this.callable.values()].map((tool) => ({ name: tool.name, description: tool.description }));
  }

  async call(name: string, rawInput: unknown, options: ToolCallOptions = {}): Promise<ToolCall> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const tool = this.callable.get(name);
    const label = this.registered.has(name) ? name : 'unknown';
    const failed = (input: unknown, error: ToolCallError): ToolCall => {
      const ms = elapsed();
      toolCalls.inc({ tool: label, outcome: error.code.toLowerCase() });
      this.logger.warn('tool call failed', { event: 'tool-failed', tool: name, code: error.code, ms });
      return { name, input, ok: false, error, ms };
    };

    // Unknown and disallowed names answer alike, so a caller cannot probe what is installed.
    if (!tool)
      return failed(rawInput, { code: ErrorCode.TOOL_NOT_ALLOWED, message: `tool "${name}" is not allowed` });

    const parsed = tool.inputSchema.safeParse(rawInput);
    if (!parsed.success) {
      const problems = parsed.error.issues.map(
        (issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'input'}: ${issue.message}`,
      );
      return failed(rawInput, { code: ErrorCode.INVALID_INPUT, message: problems.join('; ') });
    }

    try {
      const result = await runWithDeadline(tool, parsed.data, options.signal);
      const ms = elapsed();
      toolCalls.inc({ tool: label, outcome: 'ok' });
      this.logger.debug('tool call succeeded', { event: 'tool-succeeded', tool: name, ms });
      return { name, input: parsed.data, ok: true, result, ms };
    } catch (error) {
      // A RagError's message is written for clients, so it passes through with its code.
      if (isRagError(error)) return failed(parsed.data, { code: error.code, message: error.message });
      // Anything that is not a RagError is a bug or a vendor error whose text may carry paths,
      // hosts or stack frames: log it, hand the caller a fixed message.
      this.logger.error('tool threw an unexpected error', { event: 'tool-crashed', tool: name, error });
      return failed(parsed.data, { code: ErrorCode.TOOL_FAILED, message: `tool "${name}" failed` });
    }
  }
}

/** Races the tool against its deadline so one that ignores its signal still cannot hang the call. */
async function runWithDeadline(
  tool: Tool,
  input: unknown,
  outer: AbortSignal | undefined,
): Promise<ToolResult> {
  const aborted = () => new RagError(ErrorCode.ABORTED, `tool "${tool.name}" aborted`);
  if (outer?.aborted) throw aborted();
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onOuterAbort: (() => void) | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    // Reject before aborting: a tool that rejects as soon as its signal fires must not win the
    // race with its own AbortError.
    const stop = (error: RagError) => {
      reject(error);
      controller.abort(error);
    };
    timer = setTimeout(
      () =>
        stop(
          new RagError(ErrorCode.TOOL_TIMEOUT, `tool "${tool.name}" timed out after ${tool.timeoutMs} ms`, {
            details: { timeoutMs: tool.timeoutMs },
          }),
        ),
      tool.timeoutMs,
    );
    onOuterAbort = () => stop(aborted());
    outer?.addEventListener('abort', onOuterAbort, { once: true });
  });
  try {
    return await Promise.race([tool.run(input, { signal: controller.signal }), deadline]);
  } finally {
    clearTimeout(timer);
    if (onOuterAbort) outer?.removeEventListener('abort', onOuterAbort);
  }
}
