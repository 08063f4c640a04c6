import { ErrorCode, isRagError } from '../errors/index.js';
import type { Llm } from '../llm/index.js';
import type { QuestionWriter } from './question-writer.js';

const MAX_QUESTION_LENGTH = 200;
const MAX_PASSAGE_CHARS = 6000;

export interface LlmQuestionWriterOptions {
  llm: Llm;
  /** Questions asked for per chunk. */
  questions: number;
  /** Chunks sent to the model at once. */
  concurrency?: number;
}

/** One chat call per chunk, a few at a time; the reply is read as one question per line. */
export class LlmQuestionWriter implements QuestionWriter {
  readonly name: string;

  constructor(private readonly options: LlmQuestionWriterOptions) {
    this.name = `hyde-questions-v1:${options.questions}:${options.llm.modelId}`;
  }

  /**
   * A chunk the model refuses (a content filter, a prompt too long) gets no questions: one odd
   * chunk must not keep a whole document out. Any other failure stops every lane at once, so a
   * dead server is not asked about the remaining chunks, and is thrown for the job to retry.
   */
  async write(texts: readonly string[], signal?: AbortSignal): Promise<string[][]> {
    const results: string[][] = new Array(texts.length);
    const stop = new AbortController();
    const lanesSignal = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
    let next = 0;
    const lanes = Array.from({ length: Math.min(this.options.concurrency ?? 4, texts.length) }, async () => {
      while (next < texts.length && !lanesSignal.aborted) {
        const index = next++;
        try {
          results[index] = await this.questionsFor(texts[index]!, lanesSignal);
        } catch (error) {
          if (isRagError(error) && error.code === ErrorCode.LLM_REQUEST_REJECTED) {
            results[index] = [];
            continue;
          }
          stop.abort();
          throw error;
        }
      }
    });
    await Promise.all(lanes);
    return results;
  }

  private async questionsFor(text: string, signal?: AbortSignal): Promise<string[]> {
    const { questions } = this.options;
    const response = await this.options.llm.complete(
      {
        messages: [
          {
            role: 'system',
            content: `Write ${questions} different questions that the passage answers, as a user of the documented system would ask them. One question per line, no numbering, nothing else.`,
          },
          { role: 'user', content: text.slice(0, MAX_PASSAGE_CHARS) },
        ],
        temperature: 0,
        maxTokens: 60 * questions,
      },
      signal ? { signal } : {},
    );
    return parseQuestions(response.text, questions);
  }
}

/** Lines of a reply as questions: list markers and numbering dropped, blank and overlong lines skipped. */
export function parseQuestions(reply: string, limit: number): string[] {
  return reply
    .split('\n')
    .map((line) => line.replace(/^\s*(?:[-*•]|\d+[.)]|Q\d*[:.])\s*/i, '').trim())
    .filter((line) => line.length > 0 && line.length <= MAX_QUESTION_LENGTH)
    .slice(0, limit);
}
