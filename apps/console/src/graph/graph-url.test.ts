import { describe, expect, it } from 'vitest';
import { graphHref, readGraphPlace } from './graph-url.js';

const read = (search: string) => readGraphPlace(new URLSearchParams(search));

describe('the Graph page URL', () => {
  it.each([
    ['', { query: '', ids: [], depth: 1 }],
    ['q=%20warranty%20', { query: 'warranty', ids: [], depth: 1 }],
    // As the Ask page links a mention: one id, whole, even with a comma in its name.
    ['ids=Person%3ASmith%2C+J.', { query: '', ids: ['Person:Smith, J.'], depth: 1 }],
    ['ids=A%3Aa&ids=B%3Ab&depth=3', { query: '', ids: ['A:a', 'B:b'], depth: 3 }],
    ['ids=A%3Aa&depth=9', { query: '', ids: ['A:a'], depth: 1 }],
    ['ids=&depth=x', { query: '', ids: [], depth: 1 }],
  ])('reads ?%s', (search, place) => {
    expect(read(search)).toEqual(place);
  });

  it('writes what it reads back, leaving out what is empty or the default', () => {
    expect(graphHref({})).toBe('/graph');
    expect(graphHref({ query: 'warranty claims' })).toBe('/graph?q=warranty+claims');
    expect(graphHref({ ids: ['Endpoint:POST /claims'], depth: 1 })).toBe(
      '/graph?ids=Endpoint%3APOST+%2Fclaims',
    );
    const href = graphHref({ ids: ['Person:Smith, J.', 'A:a'], depth: 2 });
    expect(read(href.split('?')[1] ?? '')).toEqual({ query: '', ids: ['Person:Smith, J.', 'A:a'], depth: 2 });
  });
});
