import type { z } from 'zod';

export interface ToolSource {
  title: string;
  url?: string;
}

export interface ToolResult {
  /** What the model or the answer sees: plain text, already sanitised. */
  output: string;
  /** Structured form of the output for programmatic callers. */
  data?: unknown;
  sources?: ToolSource[];
  /**
   * False when the tool's answer is that what was asked for does not exist ("Algorithm 12.3 is not
   * in the knowledge base"): a true statement, but no evidence for answering the question.
   */
  found?: boolean;
}

export interface ToolContext {
  /** Aborted when the call times out or its caller gives up; I/O must stop when it fires. */
  signal: AbortSignal;
}

/**
 * A capability the orchestrator may call with model-chosen input. The router validates the input
 * with `inputSchema` before `run` sees it, so `run` can trust its argument's shape.
 */
export interface Tool<Schema extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Schema;
  /** Budget the router enforces on one call, whether or not `run` honours its signal. */
  readonly timeoutMs: number;
  /**
   * `false` makes the router treat the tool as absent, as if it were off the allowlist: for tools
   * that are only available when a deployment switches them on.
   */
  readonly enabled?: boolean;
  run(input: z.output<Schema>, context: ToolContext): Promise<ToolResult>;
}
