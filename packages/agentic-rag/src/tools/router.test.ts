import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ErrorCode, RagError } from '../errors/index.js';
import { toolCalls, type LogFields, type Logger } from '../telemetry/index.js';
import { calcTool } from './calc.js';
import { ToolRouter } from './router.js';
import type { Tool, ToolContext } from './tool.js';

const echoInput = z.object({ text: z.string().max(10), times: z.number().int().positive().default(1) });

/** A tool that records what it was given, so tests can tell whether `run` was reached at all. */
function echoTool(overrides: Partial<Tool<typeof echoInput>> = {}) {
  const inputs: Array<z.output<typeof echoInput>> = [];
  const tool: Tool<typeof echoInput> = {
    name: 'echo',
    description: 'repeats text',
    inputSchema: echoInput,
    timeoutMs: 1_000,
    async run(input) {
      inputs.push(input);
      return { output: input.text.repeat(input.times), sources: [{ title: 'echo' }] };
    },
    ...overrides,
  };
  return { tool, inputs };
}

function fakeTool(name: string, run: (context: ToolContext) => Promise<never>, timeoutMs = 1_000): Tool {
  return {
    name,
    description: name,
    inputSchema: z.object({}),
    timeoutMs,
    run: (_input, context) => run(context),
  };
}

function recordingLogger() {
  const entries: Array<{ level: string; message: string; fields: LogFields | undefined }> = [];
  const logger: Logger = {
    debug: (message, fields) => entries.push({ level: 'debug', message, fields }),
    info: (message, fields) => entries.push({ level: 'info', message, fields }),
    warn: (message, fields) => entries.push({ level: 'warn', message, fields }),
    error: (message, fields) => entries.push({ level: 'error', message, fields }),
    child: () => logger,
  };
  return { logger, entries };
}

describe('ToolRouter', () => {
  it('runs an allowed tool with its validated input, defaults applied', async () => {
    const { tool, inputs } = echoTool();
    const router = new ToolRouter({ tools: [tool], allowed: ['echo'] });
    const call = await router.call('echo', { text: 'ab' });
    expect(call).toMatchObject({
      name: 'echo',
      ok: true,
      input: { text: 'ab', times: 1 },
      result: { output: 'ab', sources: [{ title: 'echo' }] },
    });
    expect(call.error).toBeUndefined();
    expect(call.ms).toBeGreaterThanOrEqual(0);
    expect(inputs).toEqual([{ text: 'ab', times: 1 }]);
  });

  it.each([
    ['a registered tool missing from the allowlist', 'echo', []],
    ['a name no tool has', 'shell', ['echo', 'shell']],
  ])('refuses %s with TOOL_NOT_ALLOWED, without running anything', async (_case, name, allowed) => {
    const { tool, inputs } = echoTool();
    const call = await new ToolRouter({ tools: [tool], allowed }).call(name, { text: 'x' });
    expect(call).toMatchObject({
      name,
      ok: false,
      input: { text: 'x' },
      error: { code: ErrorCode.TOOL_NOT_ALLOWED, message: `tool "${name}" is not allowed` },
    });
    expect(call.result).toBeUndefined();
    expect(inputs).toEqual([]);
  });

  it('treats a disabled tool as absent even when allowlisted', async () => {
    const { tool, inputs } = echoTool({ enabled: false });
    const router = new ToolRouter({ tools: [tool], allowed: ['echo'] });
    expect(router.list()).toEqual([]);
    expect((await router.call('echo', { text: 'x' })).error?.code).toBe(ErrorCode.TOOL_NOT_ALLOWED);
    expect(inputs).toEqual([]);
  });

  it.each([
    [{ text: 42 }, 'text: Invalid input: expected string, received number'],
    [{ text: 'x', times: 0 }, 'times: Too small: expected number to be >0'],
    ['just a string', 'input: Invalid input: expected object, received string'],
  ])('rejects input %j with INVALID_INPUT naming the field', async (rawInput, message) => {
    const { tool, inputs } = echoTool();
    const call = await new ToolRouter({ tools: [tool], allowed: ['echo'] }).call('echo', rawInput);
    expect(call).toMatchObject({
      ok: false,
      input: rawInput,
      error: { code: ErrorCode.INVALID_INPUT, message },
    });
    expect(inputs).toEqual([]);
  });

  it('times out a tool that never settles and aborts its signal', async () => {
    let signal: AbortSignal | undefined;
    const hang = fakeTool(
      'hang',
      (context) => {
        signal = context.signal;
        return new Promise<never>(() => {});
      },
      50,
    );
    const call = await new ToolRouter({ tools: [hang], allowed: ['hang'] }).call('hang', {});
    expect(call.error).toEqual({
      code: ErrorCode.TOOL_TIMEOUT,
      message: 'tool "hang" timed out after 50 ms',
    });
    expect(call.ms).toBeGreaterThanOrEqual(45);
    expect(signal?.aborted).toBe(true);
  });

  it('reports a timeout, not the AbortError, when the tool gives up as soon as its signal fires', async () => {
    const polite = fakeTool(
      'polite',
      (context) =>
        new Promise<never>((_resolve, reject) =>
          context.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        ),
      30,
    );
    const call = await new ToolRouter({ tools: [polite], allowed: ['polite'] }).call('polite', {});
    expect(call.error?.code).toBe(ErrorCode.TOOL_TIMEOUT);
  });

  it('stops with ABORTED when the caller aborts', async () => {
    const hang = fakeTool('hang', () => new Promise<never>(() => {}), 5_000);
    const router = new ToolRouter({ tools: [hang], allowed: ['hang'] });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const call = await router.call('hang', {}, { signal: controller.signal });
    expect(call.error).toEqual({ code: ErrorCode.ABORTED, message: 'tool "hang" aborted' });
    expect(call.ms).toBeLessThan(1_000);
    const already = await router.call('hang', {}, { signal: AbortSignal.abort() });
    expect(already.error?.code).toBe(ErrorCode.ABORTED);
  });

  it('masks an unexpected error: fixed message, no stack, but the error is logged', async () => {
    const leaky = fakeTool('leaky', async () => {
      throw new Error('ENOENT: /srv/secret/config.json');
    });
    const { logger, entries } = recordingLogger();
    const call = await new ToolRouter({ tools: [leaky], allowed: ['leaky'], logger }).call('leaky', {});
    expect(call.error).toEqual({ code: ErrorCode.TOOL_FAILED, message: 'tool "leaky" failed' });
    expect(JSON.stringify(call)).not.toContain('secret');
    expect(JSON.stringify(call)).not.toContain('    at ');
    const crash = entries.find((entry) => entry.fields?.event === 'tool-crashed');
    expect((crash?.fields?.error as Error).message).toBe('ENOENT: /srv/secret/config.json');
  });

  it('masks a synchronous throw the same way', async () => {
    const sync: Tool = {
      ...fakeTool('sync', async () => {
        throw new Error('unused');
      }),
      run: () => {
        throw new TypeError('cannot read properties of undefined');
      },
    };
    const call = await new ToolRouter({ tools: [sync], allowed: ['sync'] }).call('sync', {});
    expect(call.error).toEqual({ code: ErrorCode.TOOL_FAILED, message: 'tool "sync" failed' });
  });

  it("keeps a RagError's own code and message", async () => {
    const blocked = fakeTool('blocked', async () => {
      throw new RagError(ErrorCode.FETCH_BLOCKED, '10.0.0.1 is a blocked address');
    });
    const call = await new ToolRouter({ tools: [blocked], allowed: ['blocked'] }).call('blocked', {});
    expect(call.error).toEqual({ code: ErrorCode.FETCH_BLOCKED, message: '10.0.0.1 is a blocked address' });
  });

  it('lists only allowed, enabled tools', () => {
    const { tool } = echoTool();
    const router = new ToolRouter({
      tools: [tool, calcTool, { ...calcTool, name: 'calc_off', enabled: false }],
      allowed: ['calc', 'calc_off', 'http_fetch'],
    });
    expect(router.list()).toEqual([{ name: 'calc', description: calcTool.description }]);
  });

  it('runs the real calc tool end to end', async () => {
    const router = new ToolRouter({ tools: [calcTool], allowed: ['calc'] });
    expect((await router.call('calc', { expression: '(120 - 20) / 4' })).result?.output).toBe(
      '(120 - 20) / 4 = 25',
    );
    expect((await router.call('calc', { expression: '1/0' })).error).toEqual({
      code: ErrorCode.TOOL_FAILED,
      message: 'division by zero',
    });
  });

  it('refuses two tools with one name', () => {
    expect(() => new ToolRouter({ tools: [calcTool, calcTool], allowed: [] })).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_CONFIG }),
    );
  });
});

describe('ToolRouter metrics', () => {
  /** The counter's value for one label pair, read back from the real registry. */
  async function count(tool: string, outcome: string): Promise<number> {
    const metric = await toolCalls.get();
    return (
      metric.values.find((value) => value.labels.tool === tool && value.labels.outcome === outcome)?.value ??
      0
    );
  }

  it('counts every call by tool and outcome; names no tool has count as unknown', async () => {
    const { tool } = echoTool();
    const router = new ToolRouter({ tools: [tool, calcTool], allowed: ['echo'] });
    const before = {
      ok: await count('echo', 'ok'),
      invalid: await count('echo', 'invalid_input'),
      disallowed: await count('calc', 'tool_not_allowed'),
      unknown: await count('unknown', 'tool_not_allowed'),
    };
    await router.call('echo', { text: 'a' });
    await router.call('echo', { text: 'a' });
    await router.call('echo', { text: 'far too long a text' });
    await router.call('calc', { expression: '1+1' });
    await router.call('rm -rf', {});
    expect(await count('echo', 'ok')).toBe(before.ok + 2);
    expect(await count('echo', 'invalid_input')).toBe(before.invalid + 1);
    expect(await count('calc', 'tool_not_allowed')).toBe(before.disallowed + 1);
    expect(await count('unknown', 'tool_not_allowed')).toBe(before.unknown + 1);
    expect(await count('rm -rf', 'tool_not_allowed')).toBe(0);
  });
});
