import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../errors/index.js';
import { parseCrawlRequest, parseEvery } from './crawl-request.js';
import { pageLinks } from './links.js';
import { parseSitemap } from './sitemap.js';

const PAGE = new URL('https://docs.example.test/guide/intro.html');

describe('pageLinks', () => {
  it.each([
    ['<a href="setup.html">x</a>', ['https://docs.example.test/guide/setup.html']],
    ['<a href="/api#post">x</a><a href="/api">y</a>', ['https://docs.example.test/api']],
    ['<a href="https://other.test/">x</a>', ['https://other.test/']],
    ['<a href="mailto:a@b.test">x</a><a href="javascript:void(0)">y</a><a href="ftp://f/">z</a>', []],
    ['<a href="/login" rel="nofollow">x</a><a href="/ok">y</a>', ['https://docs.example.test/ok']],
    ['<meta name="robots" content="noindex, nofollow"><a href="/ok">y</a>', []],
    [
      '<base href="https://docs.example.test/v2/"><a href="start.html">x</a>',
      ['https://docs.example.test/v2/start.html'],
    ],
    ['<a href="http://[bad">x</a>', []],
  ])('%s', (html, expected) => {
    expect(pageLinks(html, PAGE)).toEqual(expected);
  });
});

describe('parseSitemap', () => {
  it.each([
    [
      '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc> https://d.test/a </loc><lastmod>2026-01-01</lastmod></url><url><loc>https://d.test/b</loc></url></urlset>',
      { kind: 'urlset', locations: ['https://d.test/a', 'https://d.test/b'] },
    ],
    [
      '<sitemapindex><sitemap><loc><![CDATA[https://d.test/s1.xml]]></loc></sitemap></sitemapindex>',
      { kind: 'sitemapindex', locations: ['https://d.test/s1.xml'] },
    ],
    [
      '<sm:urlset xmlns:sm="x"><sm:url><sm:loc>https://d.test/c</sm:loc></sm:url></sm:urlset>',
      { kind: 'urlset', locations: ['https://d.test/c'] },
    ],
    ['<html><body>not a sitemap</body></html>', null],
    ['', null],
  ])('%s', (xml, expected) => {
    expect(parseSitemap(xml)).toEqual(expected);
  });
});

describe('parseEvery', () => {
  it.each([
    ['24h', 86_400_000],
    ['30m', 1_800_000],
    ['1d', 86_400_000],
    ['90s', 90_000],
  ])('%s is %d ms', (text, ms) => {
    expect(parseEvery(text)).toBe(ms);
  });
  it.each(['5s', '0h', 'daily', '1.5h', '-1h', ''])('refuses %j', (text) => {
    expect(() => parseEvery(text)).toThrow(expect.objectContaining({ code: ErrorCode.INVALID_INPUT }));
  });
});

describe('parseCrawlRequest', () => {
  it('fills the defaults', () => {
    expect(parseCrawlRequest({ url: 'https://docs.example.test/' })).toEqual({
      url: 'https://docs.example.test/',
      maxPages: 1000,
      maxDepth: 10,
      maxBytes: 500 * 1024 * 1024,
      maxPageBytes: 5 * 1024 * 1024,
      rate: 2,
      concurrency: 2,
      full: false,
    });
  });
  it.each([
    [{ url: 'docs.example.test' }, 'url'],
    [{ url: 'file:///etc/passwd' }, 'url'],
    [{ url: 'https://d.test/', maxPages: 0 }, 'maxPages'],
    [{ url: 'https://d.test/', rate: 0 }, 'rate'],
    [{ url: 'https://d.test/', concurrency: 1.5 }, 'concurrency'],
    [{}, 'url'],
  ])('refuses %j naming %s', (input, field) => {
    expect(() => parseCrawlRequest(input)).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_INPUT, details: { field } }),
    );
  });
});
