import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyFormatter, formatKnowledge } from './format.js';
import { DOCUMENT_BUNDLE, fact, piece } from './test-fixtures.js';

/** The knowledge design's formatter output, verbatim (its code block ends the last line with a newline). */
const DOCUMENT_OUTPUT = readFileSync(
  new URL('../../agentic-rag/src/knowledge/fixtures/004-formatter-output.txt', import.meta.url),
  'utf8',
).replace(/\n$/, '');

describe('formatKnowledge (004 KnowledgeFormatter)', () => {
  it('writes the document’s output structure byte for byte', () => {
    expect(formatKnowledge(DOCUMENT_BUNDLE)).toBe(DOCUMENT_OUTPUT);
  });

  it('gives the same bytes for the same input, in whatever order it arrives', () => {
    const shuffled = {
      ...DOCUMENT_BUNDLE,
      metadata: { specialization: 'turbomachinery', team: 'aero' },
      pieces: [...DOCUMENT_BUNDLE.pieces].reverse(),
      graph: [...DOCUMENT_BUNDLE.graph].reverse(),
    };
    expect(formatKnowledge(shuffled)).toBe(formatKnowledge(DOCUMENT_BUNDLE));
  });

  it('breaks score ties by piece id', () => {
    const tied = {
      ...DOCUMENT_BUNDLE,
      metadata: null,
      globalMetadata: {},
      graph: [],
      pieces: [piece({ id: 'b', content: 'B', score: 0.5 }), piece({ id: 'a', content: 'A', score: 0.5 })],
    };
    expect(formatKnowledge(tied)).toBe('[Knowledge]\n[fact] A\n---\n[fact] B');
  });

  it('takes 004’s settings: delimiters, tags off, scores on', () => {
    const text = formatKnowledge(DOCUMENT_BUNDLE, {
      sectionDelimiter: '\n\n====\n\n',
      itemDelimiter: '\n',
      includeTags: false,
      includeScores: true,
    });
    expect(text).toContain(
      '[Knowledge]\n[procedure] Initialize transient LES from converged RANS -- cuts spin-up by ~40%\n  Score: 0.85\n' +
        '[fact] Smagorinsky constant of 0.1 works better than default 0.17\n  Score: 0.60\n\n====\n\n[Relationships]',
    );
    expect(text).toContain('SPECIALIZES_IN → Technique:les (LES simulation expert) [score: 1.00]');
  });

  it('keeps the older option names as aliases', () => {
    const text = formatKnowledge(DOCUMENT_BUNDLE, { delimiters: ['## ', ''], tags: false, scores: true });
    expect(text).toMatch(/^## Metadata\nspecialization: turbomachinery\nteam: aero\n\n## Global Metadata/);
    expect(text).toContain('\n  Score: 0.85\n---\n');
    expect(text).not.toContain('Tags:');
  });

  it('leaves out empty sections, and names the source of an edge that is not the entity’s', () => {
    const bare = {
      ...DOCUMENT_BUNDLE,
      metadata: null,
      globalMetadata: {},
      pieces: [],
      graph: [
        fact({ source: 'Technique:les', relation: 'PART_OF', target: 'Topic:turbulence', fromEntity: false }),
      ],
    };
    expect(formatKnowledge(bare)).toBe('[Relationships]\nTechnique:les PART_OF → Topic:turbulence');
  });
});

describe('applyFormatter', () => {
  const pieces = [
    piece({ id: 'p-1', content: 'Always page the carrier team first.' }),
    piece({ id: 'p-2', content: 'Alice maintains the dispatcher.' }),
  ];

  it('fills a template per piece', () => {
    expect(applyFormatter('* ({knowledge_type}) {content} #{id}', pieces, DOCUMENT_BUNDLE)).toBe(
      '* (fact) Always page the carrier team first. #p-1\n* (fact) Alice maintains the dispatcher. #p-2',
    );
  });

  it('calls a function with the pieces and the bundle', () => {
    expect(
      applyFormatter(
        (given, all) => `${given.length} for ${all.namespace.entityId}`,
        pieces,
        DOCUMENT_BUNDLE,
      ),
    ).toBe('2 for user:alice');
  });
});
