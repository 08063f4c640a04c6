import { describe, expect, it } from 'vitest';
import { ErrorCode, RagError, toRagError } from './rag-error.js';

describe('toRagError', () => {
  it('keeps a RagError as it is', () => {
    const error = new RagError(ErrorCode.NOT_FOUND, 'no such document');
    expect(toRagError(error)).toBe(error);
  });

  it('makes what an aborted signal throws ABORTED, not INTERNAL', () => {
    const signal = AbortSignal.abort();
    let thrown: unknown;
    try {
      signal.throwIfAborted();
    } catch (error) {
      thrown = error;
    }
    const translated = toRagError(thrown, ErrorCode.EMBEDDER_UNAVAILABLE);
    expect(translated.code).toBe(ErrorCode.ABORTED);
    expect(translated.cause).toBe(thrown);
  });

  it('wraps anything else in the fallback code, keeping it as the cause', () => {
    const cause = new TypeError('x is not a function');
    const translated = toRagError(cause);
    expect(translated).toMatchObject({ code: ErrorCode.INTERNAL, message: 'x is not a function' });
    expect(translated.cause).toBe(cause);
    expect(toRagError('plain', ErrorCode.TOOL_FAILED).code).toBe(ErrorCode.TOOL_FAILED);
  });
});
