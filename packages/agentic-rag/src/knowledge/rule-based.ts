import { createHash } from 'node:crypto';
import type { KnowledgePack, KnowledgeType } from '../ingest/index.js';

/** Dates, times and reports in the past: something that happened. */
const PAST =
  /\b(yesterday|last (week|month|year|night|monday|tuesday|wednesday|thursday|friday)|(\d{4}-\d\d-\d\d)|on (monday|tuesday|wednesday|thursday|friday|saturday|sunday)|(in|on) (jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|on case\b|we (tried|saw|used|ran))/i;

/** Cue words of each kind of statement, strongest first; a statement takes the first that matches. */
const CUES: ReadonlyArray<[KnowledgeType, RegExp]> = [
  // "First ..., then ...", "Step 2:", numbered or bulleted lists, or a paragraph that opens with a
  // step of a workflow ("Initialize LES from converged RANS"): how something is done.
  [
    'procedure',
    /(^|\n)\s*(\d+[.)]|step \d+\b)|\bfirst\b.*\bthen\b|\bto (deploy|release|set up|configure|install|restart|roll back)\b|^(initiali[sz]e|switch|ramp|start|run|set up|configure|install|deploy|restart|refine|roll back)\b/i,
  ],
  ['episodic', PAST],
  [
    'instruction',
    /\b(always|never|must|must not|should|shouldn't|do not|don't|make sure|remember to|please)\b/i,
  ],
  [
    'preference',
    /\b(prefers?|preferred|likes?|loves?|hates?|dislikes?|favou?rite|rather than|instead of)\b/i,
  ],
  // An observation rather than a settled fact ("Residuals showed unexpected oscillation").
  ['note', /\b(observed|noticed|showed|seems?|seemed|unexpected(ly)?|interesting(ly)?|note that)\b/i],
];

/**
 * Where each kind of statement is filed. A procedure the agent should follow is `instructions`; a
 * procedure describing how a past experiment was done is `context` (docs/knowledge-packs.md).
 */
const INFO_TYPE: Record<KnowledgeType, string> = {
  procedure: 'instructions',
  episodic: 'context',
  instruction: 'instructions',
  preference: 'user_profile',
  fact: 'context',
  note: 'context',
};

/** Statements about the entity itself ("I am ...", "Alice works ...") describe who it is. */
const SELF = /^(i|i'm|i am|my|she|he|they|we)\b/i;

/**
 * Free text to a knowledge pack without a model: one piece per paragraph (a list stays with its
 * lead-in, since it is one procedure), typed by cue words. Deterministic, so the same notes give
 * the same pieces (ids are content hashes) and a re-run changes nothing.
 */
export function structureByRules(
  text: string,
  options: { entityId?: string; source: string },
): KnowledgePack {
  const paragraphs = text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
  const pieces = paragraphs.map((content) => {
    const type = CUES.find(([, cue]) => cue.test(content))?.[0] ?? 'fact';
    const infoType =
      type === 'fact' && SELF.test(content)
        ? 'user_profile'
        : type === 'procedure' && PAST.test(content)
          ? 'context'
          : INFO_TYPE[type];
    return {
      piece_id: `p-${createHash('sha256').update(content).digest('hex').slice(0, 12)}`,
      content,
      knowledge_type: type,
      info_type: infoType,
      tags: tagsOf(content),
      ...(options.entityId ? { entity_id: options.entityId } : {}),
    };
  });
  // No profile entry: rules cannot tell what the entity is, and an empty profile would only
  // shadow the one its pack gives.
  return {
    metadata: { pack_id: options.source, description: `structured by rules from ${options.source}` },
    pieces: dedupe(pieces),
    graph: { nodes: [], edges: [] },
  };
}

/** Acronyms and code-like names (LES, RANS, CFL): what a search for the piece is likely to name. */
function tagsOf(content: string): string[] {
  const found = content.match(/\b[A-Z][A-Z0-9]{1,9}s?\b/g) ?? [];
  return [...new Set(found.map((word) => word.replace(/(?<=[A-Z0-9])s$/, '').toLowerCase()))].slice(0, 32);
}

/** The same paragraph twice is one piece (same content, same id). */
function dedupe<T extends { piece_id: string }>(pieces: readonly T[]): T[] {
  const seen = new Set<string>();
  return pieces.filter((piece) => !seen.has(piece.piece_id) && seen.add(piece.piece_id));
}
