import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../errors/index.js';
import type { DocumentFacts, EntityFact, RelationType } from '../facts.js';
import { extractNumberedEntities, parseEntityReference } from './numbered.js';

const TEXTBOOK = fileURLToPath(
  new URL('../../../../../simulated_ingestion/textbook/decision-making-under-uncertainty/', import.meta.url),
);

const entity = (facts: DocumentFacts, name: string) => facts.entities.find((fact) => fact.name === name);
const slice = (text: string, span: { start: number; end: number }) => text.slice(span.start, span.end);
const mentionTexts = (text: string, fact: EntityFact | undefined) =>
  (fact?.mentions ?? []).map((span) => slice(text, span));
/** Relations of one type as `from -> to (weight)`, in emitted order. */
const edges = (facts: DocumentFacts, type: RelationType) =>
  facts.relations
    .filter((relation) => relation.type === type)
    .map((relation) => `${relation.from.name} -> ${relation.to.name} (${relation.weight})`);

const CODE = '```julia\nfunction f(x)\n    return x\nend\n```';

describe('extractNumberedEntities: definitions', () => {
  it.each([
    {
      form: 'an algorithm caption and its code block',
      text: `## 3.3 Variable Elimination\n\n**Algorithm 3.2.** Variable elimination. Evidence first.\n\n${CODE}\n\nAfter.`,
      name: 'Algorithm 3.2',
      starts: '**Algorithm 3.2.**',
      ends: 'end\n```',
      properties: { number: '3.2', title: 'Variable elimination', chapter: '3', section: '3.3' },
    },
    {
      form: 'a table caption and its table',
      text: '**Table 3.1.** The factor $\\tau_1(p, j)$ from Example 3.1.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nNext.',
      name: 'Table 3.1',
      starts: '**Table 3.1.**',
      ends: '| 1 | 2 |',
      properties: { number: '3.1', title: 'The factor $\\tau_1(p, j)$ from Example 3.1', chapter: '3' },
    },
    {
      form: 'a figure caption',
      text: '**Figure 9.3.** The four phases of MCTS. Selection comes first.\n\nProse.',
      name: 'Figure 9.3',
      starts: '**Figure 9.3.**',
      ends: 'Selection comes first.',
      properties: { number: '9.3', title: 'The four phases of MCTS', chapter: '9' },
    },
    {
      form: 'an example that runs through an unnumbered display',
      text: '**Example 3.1.** *Variable elimination on the network.* Summing out gives\n\n$$ \\tau = 1 $$\n\nso $D$ disappears.\n\nUnrelated prose.',
      name: 'Example 3.1',
      starts: '**Example 3.1.**',
      ends: 'so $D$ disappears.',
      properties: { number: '3.1', title: 'Variable elimination on the network', chapter: '3' },
    },
    {
      form: 'an exercise',
      text: '## Exercises\n\n**Exercise 7.1.** Verify the value. Use Equation 7.4.\n\n**Exercise 7.2.** More.',
      name: 'Exercise 7.1',
      starts: '**Exercise 7.1.**',
      ends: 'Use Equation 7.4.',
      properties: { number: '7.1', title: 'Verify the value', chapter: '7' },
    },
    {
      form: 'a display equation introduced in bold before it',
      text: "Some prose. Bayes' rule follows, **Equation 2.4**:\n\n$$ P(x \\mid y) = \\frac{P(y \\mid x) P(x)}{P(y)} $$ (2.4)\n\nAfter.",
      name: 'Formula 2.4',
      starts: "Bayes' rule follows",
      ends: '$$ (2.4)',
      properties: { number: '2.4', chapter: '2', latex: 'P(x \\mid y) = \\frac{P(y \\mid x) P(x)}{P(y)}' },
    },
    {
      form: 'a named display equation introduced after it',
      text: '$$ \\sum_{x} P(x) = 1 $$ (2.1)\n\n**Equation 2.1** is the **normalization constraint**. It has more.',
      name: 'Formula 2.1',
      starts: '$$ \\sum_{x}',
      ends: 'is the **normalization constraint**.',
      properties: { number: '2.1', chapter: '2', latex: '\\sum_{x} P(x) = 1' },
    },
    {
      form: 'a multi-line display equation',
      text: 'The **Kalman gain**, **Equation 19.8**, weighs:\n\n$$\nK = \\Sigma_p O^\\top\n$$ (19.8)',
      name: 'Formula 19.8',
      starts: 'The **Kalman gain**',
      ends: '$$ (19.8)',
      properties: { number: '19.8', chapter: '19', title: 'Kalman gain', latex: 'K = \\Sigma_p O^\\top' },
    },
    {
      form: 'a section heading',
      text: '# Chapter 3: Inference\n\n## 3.1 Inference in *Bayesian* Networks\n\nText.',
      name: 'Section 3.1',
      starts: '## 3.1',
      ends: 'Networks',
      properties: { number: '3.1', title: 'Inference in Bayesian Networks', chapter: '3' },
    },
    {
      form: 'a chapter heading',
      text: '# Chapter 3: Inference\n\nText.',
      name: 'Chapter 3',
      starts: '# Chapter 3',
      ends: 'Inference',
      properties: { number: '3', title: 'Inference', chapter: '3' },
    },
    {
      form: 'an appendix heading',
      text: '# Appendix A: Mathematical Concepts\n\n## A.1 Norms\n\nText.',
      name: 'Appendix A',
      starts: '# Appendix A',
      ends: 'Concepts',
      properties: { number: 'A', title: 'Mathematical Concepts', chapter: 'A' },
    },
    {
      form: 'an appendix algorithm',
      text: `# Appendix A: Mathematical Concepts\n\n## A.7 Monte Carlo\n\n**Algorithm A.1.** Sampling from a categorical distribution. \`p\` sums to one.\n\n${CODE}`,
      name: 'Algorithm A.1',
      starts: '**Algorithm A.1.**',
      ends: 'end\n```',
      properties: {
        number: 'A.1',
        title: 'Sampling from a categorical distribution',
        chapter: 'A',
        section: 'A.7',
      },
    },
    {
      form: 'an algorithm defined by a heading',
      text: `## 3.3 Elimination\n\n### Algorithm 3.2: Variable elimination\n\n${CODE}\n\nAfter.`,
      name: 'Algorithm 3.2',
      starts: '### Algorithm 3.2',
      ends: 'end\n```',
      properties: { number: '3.2', title: 'Variable elimination', chapter: '3', section: '3.3' },
    },
  ])('defines $form', ({ text, name, starts, ends, properties }) => {
    const fact = entity(extractNumberedEntities(text), name);
    expect(fact?.definition).toBeDefined();
    const definition = slice(text, fact!.definition!);
    expect(definition.startsWith(starts)).toBe(true);
    expect(definition.endsWith(ends)).toBe(true);
    expect(fact!.properties).toEqual(properties);
    // The defining label is itself a mention.
    expect(fact!.mentions.some((span) => span.start >= fact!.definition!.start)).toBe(true);
  });

  it('gives formulas their Equation and Eq. aliases', () => {
    const facts = extractNumberedEntities('**Equation 3.1** gives\n\n$$ a = b $$ (3.1)\n\nSee Eq. 3.2.');
    expect(entity(facts, 'Formula 3.1')?.aliases).toEqual(['Equation 3.1', 'Eq. 3.1']);
    expect(entity(facts, 'Formula 3.2')?.aliases).toEqual(['Equation 3.2', 'Eq. 3.2']);
  });

  it('keeps the first definition of a number and merges every mention into one entity', () => {
    const text = `**Algorithm 3.2.** First.\n\n${CODE}\n\nAlgorithm 3.2 again.\n\n**Algorithm 3.2.** Second.\n\n${CODE}`;
    const facts = extractNumberedEntities(text);
    const algorithms = facts.entities.filter((fact) => fact.name === 'Algorithm 3.2');
    expect(algorithms).toHaveLength(1);
    expect(algorithms[0]!.properties?.title).toBe('First');
    expect(slice(text, algorithms[0]!.definition!)).toContain('First.');
    expect(mentionTexts(text, algorithms[0])).toEqual(['Algorithm 3.2', 'Algorithm 3.2', 'Algorithm 3.2']);
  });

  it('sets page from options.page and from <!-- page N --> markers, and omits it otherwise', () => {
    const text = '**Figure 1.1.** One.\n\n<!-- page 8 -->\n\n**Figure 1.2.** Two.';
    const paged = extractNumberedEntities(text, { page: 7 });
    expect(entity(paged, 'Figure 1.1')?.properties?.page).toBe(7);
    expect(entity(paged, 'Figure 1.2')?.properties?.page).toBe(8);
    const unpaged = extractNumberedEntities('**Figure 1.1.** One.');
    expect(entity(unpaged, 'Figure 1.1')?.properties).not.toHaveProperty('page');
  });

  it.each([1.5, -1, Number.NaN])('rejects page %s with INVALID_INPUT', (page) => {
    expect(() => extractNumberedEntities('text', { page })).toThrow(
      expect.objectContaining({ name: 'RagError', code: ErrorCode.INVALID_INPUT }),
    );
  });
});

describe('extractNumberedEntities: references', () => {
  it.each([
    {
      form: 'prose',
      text: 'We condition (Algorithm 2.4) first.',
      mentions: { 'Algorithm 2.4': ['Algorithm 2.4'] },
    },
    {
      form: 'a code comment',
      text: '```julia\nφ = condition(φ, e)   # Algorithm 2.4, Equation 3.2\n```',
      mentions: { 'Algorithm 2.4': ['Algorithm 2.4'], 'Formula 3.2': ['Equation 3.2'] },
    },
    {
      form: 'a range',
      text: 'the measurement update (Equations 19.8 to 19.10).',
      mentions: {
        'Formula 19.8': ['Equations 19.8'],
        'Formula 19.9': ['19.8 to 19.10'],
        'Formula 19.10': ['19.10'],
      },
    },
    {
      form: 'a list',
      text: 'for Algorithms 3.3, 3.4 and 3.5 on the network',
      mentions: { 'Algorithm 3.3': ['Algorithms 3.3'], 'Algorithm 3.4': ['3.4'], 'Algorithm 3.5': ['3.5'] },
    },
    {
      form: 'an en-dash range of chapters',
      text: '| Categorical | Chapters 2–4, Algorithm A.1 |',
      mentions: {
        'Chapter 2': ['Chapters 2'],
        'Chapter 3': ['2–4'],
        'Chapter 4': ['4'],
        'Algorithm A.1': ['Algorithm A.1'],
      },
    },
    {
      form: 'Eq. and Equation with parentheses',
      text: 'By Eq. (3.1) and equation (3.2), and Eqs. 3.3 and 3.4.',
      mentions: {
        'Formula 3.1': ['Eq. (3.1)'],
        'Formula 3.2': ['equation (3.2)'],
        'Formula 3.3': ['Eqs. 3.3'],
        'Formula 3.4': ['3.4'],
      },
    },
    {
      form: 'every other type',
      text: 'See Table 2.1, Fig. 9.3, Section 2.6, Chapter 19, Example 3.1, Exercise 2.1, Appendix A and Table A.1.',
      mentions: {
        'Table 2.1': ['Table 2.1'],
        'Figure 9.3': ['Fig. 9.3'],
        'Section 2.6': ['Section 2.6'],
        'Chapter 19': ['Chapter 19'],
        'Example 3.1': ['Example 3.1'],
        'Exercise 2.1': ['Exercise 2.1'],
        'Appendix A': ['Appendix A'],
        'Table A.1': ['Table A.1'],
      },
    },
    { form: 'a bare parenthesised number', text: 'as shown (3.1) above, or in 3.2 apples', mentions: {} },
    {
      form: 'a longer number',
      text: 'Algorithm 3.21 and Section 3.2.1',
      mentions: { 'Algorithm 3.21': ['Algorithm 3.21'], 'Section 3.2.1': ['Section 3.2.1'] },
    },
    {
      form: 'a list that changes shape',
      text: 'Table 3.1, 42 rows',
      mentions: { 'Table 3.1': ['Table 3.1'] },
    },
  ])('finds mentions in $form', ({ text, mentions }) => {
    const facts = extractNumberedEntities(text);
    expect(Object.fromEntries(facts.entities.map((fact) => [fact.name, mentionTexts(text, fact)]))).toEqual(
      mentions,
    );
    for (const fact of facts.entities) {
      expect(fact.definition).toBeUndefined();
      expect(fact.properties).not.toHaveProperty('title');
    }
  });

  it('gives a referenced-only entity its number and chapter', () => {
    const facts = extractNumberedEntities('as in Algorithm 19.4.');
    expect(entity(facts, 'Algorithm 19.4')?.properties).toEqual({ number: '19.4', chapter: '19' });
  });
});

/** A small chapter with every relation the extractor emits. */
const CHAPTER = `# Chapter 3: Inference

Exact methods come first (Algorithm 3.2), as in Chapter 2.

## 3.1 Inference in Bayesian Networks

By Equation 2.3, **Equation 3.1** gives

$$ P(q \\mid e) \\propto \\sum_h P(q, e, h) $$ (3.1)

Every term uses the chain rule of Equation 2.6 and of Equation 2.6 again.

## 3.2 Variable Elimination

**Equation 3.2** defines the elimination step:

$$ \\tau(y) = \\sum_x \\prod \\phi $$ (3.2)

**Algorithm 3.2.** Variable elimination, using Equation 3.2. Algorithm 3.2 multiplies factors.

\`\`\`julia
function eliminate(φs)
    φ = prod(φs)          # Algorithm 2.2
    return marginalize(φ)  # Algorithm 2.3, Equation 3.2
end
\`\`\`

### 3.2.1 Orderings

**Table 3.1.** Orderings compared with Algorithm 3.2.

| Ordering | Cost |
|---|---|
| min-fill | low |

### 3.2.2 Costs

**Example 3.1.** *Elimination.* Using Equation 3.2 and Table 3.1, see Section 3.2.

## 3.3 Sampling

Sampling uses Algorithm A.1.

## Exercises

**Exercise 3.1.** Repeat Example 3.1 with Algorithm 3.2.

# Chapter 4: Parameter Learning

## 4.1 Maximum Likelihood

Counting again.
`;

describe('extractNumberedEntities: relations', () => {
  const facts = extractNumberedEntities(CHAPTER);

  it('emits PART_OF from each defined entity to its section and from sections to their container', () => {
    expect(edges(facts, 'PART_OF').sort()).toEqual(
      [
        'Section 3.1 -> Chapter 3 (1)',
        'Section 3.2 -> Chapter 3 (1)',
        'Section 3.2.1 -> Section 3.2 (1)',
        'Section 3.2.2 -> Section 3.2 (1)',
        'Section 3.3 -> Chapter 3 (1)',
        'Section 4.1 -> Chapter 4 (1)',
        'Formula 3.1 -> Section 3.1 (1)',
        'Formula 3.2 -> Section 3.2 (1)',
        'Algorithm 3.2 -> Section 3.2 (1)',
        'Table 3.1 -> Section 3.2.1 (1)',
        'Example 3.1 -> Section 3.2.2 (1)',
        // Under the unnumbered "Exercises" heading: part of the chapter, not of Section 3.3.
        'Exercise 3.1 -> Chapter 3 (1)',
      ].sort(),
    );
  });

  it('emits FOLLOWS between sibling sections and between chapters, latest first', () => {
    expect(edges(facts, 'FOLLOWS')).toEqual([
      'Section 3.2 -> Section 3.1 (1)',
      'Section 3.2.2 -> Section 3.2.1 (1)',
      'Section 3.3 -> Section 3.2 (1)',
      'Chapter 4 -> Chapter 3 (1)',
    ]);
  });

  it('emits USES_IN from a formula to the algorithm whose caption or code mentions it', () => {
    expect(edges(facts, 'USES_IN')).toEqual(['Formula 3.2 -> Algorithm 3.2 (2)']);
  });

  it('emits REFERENCES from the definition or section around a mention, weighted by mentions', () => {
    expect(edges(facts, 'REFERENCES').sort()).toEqual(
      [
        'Chapter 3 -> Algorithm 3.2 (1)',
        'Chapter 3 -> Chapter 2 (1)',
        'Formula 3.1 -> Formula 2.3 (1)',
        'Section 3.1 -> Formula 2.6 (2)',
        'Algorithm 3.2 -> Formula 3.2 (2)',
        'Algorithm 3.2 -> Algorithm 2.2 (1)',
        'Algorithm 3.2 -> Algorithm 2.3 (1)',
        'Table 3.1 -> Algorithm 3.2 (1)',
        'Section 3.3 -> Algorithm A.1 (1)',
      ].sort(),
    );
  });

  it('emits CITES, not REFERENCES, from examples and exercises', () => {
    expect(edges(facts, 'CITES').sort()).toEqual(
      [
        'Example 3.1 -> Formula 3.2 (1)',
        'Example 3.1 -> Table 3.1 (1)',
        'Example 3.1 -> Section 3.2 (1)',
        'Exercise 3.1 -> Example 3.1 (1)',
        'Exercise 3.1 -> Algorithm 3.2 (1)',
      ].sort(),
    );
  });

  it('emits no self-relations, no REFERENCED_BY, and only relations between listed entities', () => {
    const names = new Set(facts.entities.map((fact) => fact.name));
    for (const relation of facts.relations) {
      expect(relation.from.name).not.toBe(relation.to.name);
      expect(relation.type).not.toBe('REFERENCED_BY');
      expect(names.has(relation.from.name) && names.has(relation.to.name)).toBe(true);
    }
  });

  it('lists each entity once, with spans that show its number', () => {
    const names = facts.entities.map((fact) => fact.name);
    expect(new Set(names).size).toBe(names.length);
    for (const fact of facts.entities) {
      const number = String(fact.properties?.number);
      for (const span of fact.mentions) expect(slice(CHAPTER, span)).toContain(number);
      if (fact.definition) expect(slice(CHAPTER, fact.definition)).toContain(number);
    }
  });
});

describe('extractNumberedEntities over the sample textbook', () => {
  const files = readdirSync(TEXTBOOK).filter((file) => file.endsWith('.md'));
  if (!files.includes('ch03-inference.md')) throw new Error(`sample textbook not found in ${TEXTBOOK}`);
  const read = (file: string) => readFileSync(path.join(TEXTBOOK, file), 'utf8');

  describe('ch03-inference.md', () => {
    const facts = extractNumberedEntities(read('ch03-inference.md'));
    const has = (type: RelationType, from: string, to: string) =>
      facts.relations.some(
        (relation) => relation.type === type && relation.from.name === from && relation.to.name === to,
      );

    it('defines Algorithm 3.2 "Variable elimination" in Section 3.3', () => {
      const algorithm = entity(facts, 'Algorithm 3.2');
      expect(algorithm?.definition).toBeDefined();
      expect(algorithm?.properties).toMatchObject({
        title: 'Variable elimination',
        chapter: '3',
        section: '3.3',
      });
    });

    it('relates the chapter as the text states it', () => {
      expect(has('USES_IN', 'Formula 3.2', 'Algorithm 3.2')).toBe(true);
      for (const target of ['Algorithm 2.2', 'Algorithm 2.3', 'Algorithm 2.4']) {
        expect(has('REFERENCES', 'Algorithm 3.1', target)).toBe(true);
      }
      expect(has('PART_OF', 'Table 3.1', 'Section 3.3')).toBe(true);
      expect(has('PART_OF', 'Section 3.3', 'Chapter 3')).toBe(true);
      expect(has('FOLLOWS', 'Section 3.4', 'Section 3.3')).toBe(true);
      expect(has('CITES', 'Exercise 3.3', 'Formula A.9')).toBe(true);
    });

    it('expands the range to the Kalman filter equations', () => {
      for (const name of ['Formula 19.8', 'Formula 19.9', 'Formula 19.10']) {
        expect(has('REFERENCES', 'Section 3.8', name)).toBe(true);
        expect(entity(facts, name)?.definition).toBeUndefined();
      }
    });

    it('keeps the LaTeX of Equation 3.2 as written', () => {
      expect(entity(facts, 'Formula 3.2')?.properties?.latex).toBe(
        '\\tau(\\mathbf{y}) = \\sum_{x} \\prod_{\\phi \\in \\Phi_X} \\phi(x, \\mathbf{y})',
      );
    });
  });

  it.each(files)('%s: one entity per number, definitions inside the text, spans on their numbers', (file) => {
    const text = read(file);
    const facts = extractNumberedEntities(text);
    const names = facts.entities.map((fact) => fact.name);
    expect(new Set(names).size).toBe(names.length);
    expect(facts.entities.filter((fact) => fact.definition).length).toBeGreaterThan(10);
    for (const fact of facts.entities) {
      expect(fact.mentions.length).toBeGreaterThan(0);
      if (fact.definition) {
        expect(fact.definition.start).toBeGreaterThanOrEqual(0);
        expect(fact.definition.end).toBeLessThanOrEqual(text.length);
        expect(fact.definition.start).toBeLessThan(fact.definition.end);
      }
      const number = String(fact.properties?.number);
      for (const span of fact.mentions) {
        const written = slice(text, span);
        // A number inside a range ("19.8 to 19.10") is named by the range it falls in.
        if (!/ to |–/.test(written)) expect(written).toContain(number);
      }
    }
    for (const relation of facts.relations) expect(relation.from.name).not.toBe(relation.to.name);
  });
});

describe('parseEntityReference', () => {
  it.each([
    ['Algorithm 3.2', { type: 'Algorithm', number: '3.2' }],
    ['what does algorithm 3.2 compute?', { type: 'Algorithm', number: '3.2' }],
    ['Eq. 3.1', { type: 'Formula', number: '3.1' }],
    ['equation (3.1)', { type: 'Formula', number: '3.1' }],
    ['Equation 19.10', { type: 'Formula', number: '19.10' }],
    ['Table A.1', { type: 'Table', number: 'A.1' }],
    ['table a.1', { type: 'Table', number: 'A.1' }],
    ['fig 9.3', { type: 'Figure', number: '9.3' }],
    ['Figure 9.3', { type: 'Figure', number: '9.3' }],
    ['example 19.2', { type: 'Example', number: '19.2' }],
    ['Exercise 7.1', { type: 'Exercise', number: '7.1' }],
    ['section 3.1', { type: 'Section', number: '3.1' }],
    ['§3.1', { type: 'Section', number: '3.1' }],
    ['chapter 19', { type: 'Chapter', number: '19' }],
    ['appendix a', { type: 'Appendix', number: 'A' }],
  ])('reads %j', (query, expected) => {
    expect(parseEntityReference(query)).toEqual(expected);
  });

  it.each(['3.2 apples', 'Algorithm', 'the algorithm', 'Chapter A', 'Example A', 'equal 3.1', ''])(
    'finds nothing in %j',
    (query) => {
      expect(parseEntityReference(query)).toBeNull();
    },
  );
});
