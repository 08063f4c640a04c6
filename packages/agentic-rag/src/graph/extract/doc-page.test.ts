import { describe, expect, it } from 'vitest';
import { entityKey } from '../resolve.js';
import { DocPageExtractor } from './doc-page.js';
import type { ExtractionInput } from './offline.js';

const GUIDE: ExtractionInput = {
  sourcePath: 'guides/Rate-Shopping.md',
  title: 'Rate shopping',
  kind: 'markdown',
  text: `# Rate shopping

## Quote rates with \`POST /v2/rates/quote\`

Send \`POST /v2/rates/quote\` with the parcel, then book with \`POST /v2/shipments\`.

\`\`\`bash
curl -X POST https://api.example/v2/shipments -d '{}'
\`\`\`

Track it with \`GET /v2/shipments/{shipmentId}\`.
`,
};

describe('DocPageExtractor', () => {
  const extract = (input: ExtractionInput) => new DocPageExtractor().extract(input);

  it('makes the page a DocPage keyed by its document id, defined by and cited at its opening', async () => {
    const facts = await extract(GUIDE);
    const page = facts.entities.find((entity) => entity.type === 'DocPage')!;
    expect(page).toEqual({
      type: 'DocPage',
      name: 'guides/Rate-Shopping.md',
      mentions: [{ start: 0, end: 1 }],
      definition: { start: 0, end: GUIDE.text.length },
      properties: { url: 'guides/Rate-Shopping.md', title: 'Rate shopping' },
    });
    // Case, dots and plural-looking words of a path are kept.
    expect(entityKey(page.type, page.name)).toBe('DocPage:guides/Rate-Shopping.md');
  });

  it('links every endpoint it names to the page, a heading mention counting 3', async () => {
    const facts = await extract(GUIDE);
    const describes = facts.relations
      .filter((relation) => relation.type === 'DOC_DESCRIBES')
      .map((relation) => [entityKey(relation.from.type, relation.from.name), relation.weight]);
    expect(describes).toEqual([
      ['Endpoint:POST /rates/quote', 4],
      ['Endpoint:POST /shipments', 2],
      ['Endpoint:GET /shipments/{}', 1],
    ]);
    expect(
      facts.relations.every(
        (relation) => relation.type !== 'DOC_DESCRIBES' || relation.to.name === 'guides/Rate-Shopping.md',
      ),
    ).toBe(true);
  });

  it('relates the resources it describes together, once per pair', async () => {
    const facts = await extract(GUIDE);
    expect(facts.relations.filter((relation) => relation.type === 'RELATED_TO')).toEqual([
      {
        from: { type: 'Resource', name: 'rate' },
        to: { type: 'Resource', name: 'shipment' },
        type: 'RELATED_TO',
        weight: 1,
      },
    ]);
  });

  it.each(['openapi', 'text', 'json-record', 'yaml'])('leaves a %s document alone', async (kind) => {
    expect(await extract({ ...GUIDE, kind })).toEqual({ entities: [], relations: [] });
  });

  it('is a page with no edges when it names no endpoint', async () => {
    const facts = await extract({ ...GUIDE, text: '\n\n# Glossary\n\nA manifest lists parcels.\n' });
    expect(facts.relations).toEqual([]);
    expect(facts.entities).toEqual([
      expect.objectContaining({ type: 'DocPage', mentions: [{ start: 2, end: 3 }] }),
    ]);
  });
});
