import { z } from 'zod';
import type { ChatMessage } from '../../llm/index.js';
import type { ExtractionInput } from './offline.js';

/**
 * What the model is asked for and what its reply must look like. The prompt is a plain function
 * of its input so it can be logged and tested; the schema is the only door the reply comes
 * through.
 */

/** Types the model may assign. Numbered entities (Algorithm 3.2) are the numbered extractor's. */
export const LLM_ENTITY_TYPES = [
  'Concept',
  'Acronym',
  'Identifier',
  'ErrorCode',
  'Resource',
  'Endpoint',
  'Schema',
  'Field',
  'Organization',
  'Product',
  'Person',
] as const;

/** Relation types the model may assert; the typed API relations come from the spec. */
export const LLM_RELATION_TYPES = ['RELATED', 'PART_OF', 'USES_IN', 'REFERENCES'] as const;

const MAX_NAME = 160;

export const ExtractionReply = z.object({
  entities: z
    .array(
      z.object({
        name: z.string().trim().min(1).max(MAX_NAME),
        type: z.enum(LLM_ENTITY_TYPES),
        aliases: z.array(z.string().trim().min(1).max(MAX_NAME)).max(10).default([]),
      }),
    )
    .max(200),
  relations: z
    .array(
      z.object({
        from: z.string().trim().min(1).max(MAX_NAME),
        to: z.string().trim().min(1).max(MAX_NAME),
        type: z.enum(LLM_RELATION_TYPES),
      }),
    )
    .max(400)
    .default([]),
});

export type ExtractionReply = z.output<typeof ExtractionReply>;

/** The chat messages that ask for one window of a document's entities. */
export function entityExtractionPrompt(input: ExtractionInput, window: string): ChatMessage[] {
  return [
    {
      role: 'system',
      content: [
        'You extract a knowledge graph from technical documentation.',
        'Reply with one JSON object and nothing else, of the form',
        '{"entities":[{"name":"...","type":"...","aliases":["..."]}],"relations":[{"from":"...","to":"...","type":"..."}]}.',
        `Entity types: ${LLM_ENTITY_TYPES.join(', ')}.`,
        'An Endpoint is an HTTP method and a path, written "POST /locations". A Resource is an API collection in the singular ("location").',
        'Name every entity exactly as the text writes it; list other spellings the text uses as aliases.',
        'Leave out numbered items ("Algorithm 3.2", "Table 4.1"), generic words, people\'s roles and anything the text does not name.',
        `Relation types: ${LLM_RELATION_TYPES.join(', ')}; "from" and "to" are names from your entity list.`,
      ].join('\n'),
    },
    {
      role: 'user',
      content: [`Document: ${input.title ?? input.sourcePath} (${input.kind})`, '---', window].join('\n'),
    },
  ];
}

/** The follow-up after a reply that was not the JSON asked for. */
export function correctionPrompt(problem: string): ChatMessage {
  return {
    role: 'user',
    content: `That reply was not valid: ${problem}. Reply again with only the JSON object in the format asked for.`,
  };
}

/** The reply as JSON, with a Markdown fence around it tolerated; a string says what is wrong. */
export function parseExtractionReply(reply: string): ExtractionReply | string {
  const unfenced = reply
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  let json: unknown;
  try {
    json = JSON.parse(unfenced);
  } catch (error) {
    return `not JSON (${(error as Error).message})`;
  }
  const parsed = ExtractionReply.safeParse(json);
  if (parsed.success) return parsed.data;
  return parsed.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || 'reply'}: ${issue.message}`)
    .join('; ');
}
