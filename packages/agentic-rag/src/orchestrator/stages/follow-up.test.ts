import { describe, expect, it } from 'vitest';
import { ErrorCode, RagError } from '../../errors/index.js';
import type { ChatRequest, Llm } from '../../llm/index.js';
import { resolveFollowUp } from './follow-up.js';

const HISTORY = [
  {
    question: 'How do I create a location?',
    standaloneQuery: 'How do I create a location?',
    answer: 'POST /locations [1].',
  },
];

/** A model that records what it was asked and answers with `reply` (or throws it). */
function recordingLlm(reply: string | Error) {
  const requests: ChatRequest[] = [];
  const llm: Llm = {
    modelId: 'test:recording',
    complete: async (request) => {
      requests.push(request);
      if (reply instanceof Error) throw reply;
      return { text: reply, model: 'recording', finishReason: 'stop' };
    },
  };
  return { llm, requests };
}

describe('resolveFollowUp', () => {
  it('uses the rules without a model', async () => {
    const warnings: string[] = [];
    const result = await resolveFollowUp('and how do I delete it?', HISTORY, {
      llm: null,
      signal: undefined,
      warnings,
    });
    expect(result).toEqual({
      standaloneQuery: 'how do I delete a location?',
      rewritten: true,
      rewriter: 'rules',
    });
    expect(warnings).toEqual([]);
  });

  it("asks the model with the earlier turns and takes its question's first line", async () => {
    const { llm, requests } = recordingLlm('"How do I delete a location?"\n(resolved "it")');
    const result = await resolveFollowUp('and how do I delete it?', HISTORY, {
      llm,
      signal: undefined,
      warnings: [],
    });
    expect(result).toEqual({
      standaloneQuery: 'How do I delete a location?',
      rewritten: true,
      rewriter: 'llm',
    });
    expect(requests[0]!.messages.at(-1)!.content).toContain('Question: How do I create a location?');
    expect(requests[0]!.messages.at(-1)!.content).toContain('Last question: and how do I delete it?');
  });

  it.each([
    ['', 'the LLM did not rewrite the follow-up; rewritten by rules'],
    [
      new RagError(ErrorCode.LLM_UNAVAILABLE, 'down'),
      'LLM unavailable for the follow-up (LLM_UNAVAILABLE); rewritten by rules',
    ],
  ])('falls back to the rules when the model answers %j', async (reply, warning) => {
    const warnings: string[] = [];
    const result = await resolveFollowUp('and how do I delete it?', HISTORY, {
      llm: recordingLlm(reply).llm,
      signal: undefined,
      warnings,
    });
    expect(result.rewriter).toBe('rules');
    expect(result.standaloneQuery).toBe('how do I delete a location?');
    expect(warnings).toEqual([warning]);
  });

  it('does not fall back when the run was aborted', async () => {
    const aborted = recordingLlm(new RagError(ErrorCode.ABORTED, 'aborted')).llm;
    await expect(
      resolveFollowUp('and how do I delete it?', HISTORY, { llm: aborted, signal: undefined, warnings: [] }),
    ).rejects.toMatchObject({ code: ErrorCode.ABORTED });
  });
});
