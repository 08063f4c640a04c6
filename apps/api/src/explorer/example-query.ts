/** The question the explorer's example asks; docs quote it from here. */
export const EXAMPLE_QUESTION = 'What endpoints can I use to create a location?';

/**
 * The operation the explorer opens with: a hybrid search over the API's default workspace, with
 * the fields that show what was found and why (each channel's score and rank).
 */
export function exampleQuery(workspaceId: string): string {
  return [
    '# A hybrid search over the default workspace. Run it with the ▶ button (Ctrl+Enter);',
    '# every hit says which retrieval channels found it, at what rank and score.',
    'query ExampleSearch {',
    `  search(input: { query: ${JSON.stringify(EXAMPLE_QUESTION)}, workspaceId: ${JSON.stringify(workspaceId)}, k: 5 }) {`,
    '    correctedQuery',
    '    hits {',
    '      sourceId',
    '      title',
    '      sectionPath',
    '      score',
    '      channels',
    '      text',
    '    }',
    '    warnings',
    '  }',
    '}',
    '',
  ].join('\n');
}
