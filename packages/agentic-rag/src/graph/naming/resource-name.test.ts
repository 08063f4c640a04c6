import { describe, expect, it } from 'vitest';
import {
  isPluralName,
  nameWords,
  pluralWord,
  resourceForms,
  resourceName,
  resourceOfPath,
  resourceOfSchema,
} from './resource-name.js';

describe('nameWords', () => {
  it.each([
    ['rateCards', ['rate', 'cards']],
    ['RateCards', ['rate', 'cards']],
    ['rate_cards', ['rate', 'cards']],
    ['rate-cards', ['rate', 'cards']],
    ['Rate cards', ['rate', 'cards']],
    ['HTTPServer', ['http', 'server']],
    ['listLocations', ['list', 'locations']],
    ['oauth2Tokens', ['oauth2', 'tokens']],
    ['', []],
  ])('%s → %j', (name, words) => {
    expect(nameWords(name)).toEqual(words);
  });
});

describe('resourceName', () => {
  it.each([
    ['shipments', 'shipment'],
    ['addresses', 'address'],
    ['categories', 'category'],
    ['boxes', 'box'],
    ['status', 'status'],
    ['statuses', 'status'],
    ['rateCards', 'rate-card'],
    ['rate-cards', 'rate-card'],
    ['rate_cards', 'rate-card'],
    ['RateCard', 'rate-card'],
    ['Rate cards', 'rate-card'],
    ['quote', 'quote'],
    ['webhook-subscriptions', 'webhook-subscription'],
    ['', ''],
  ])('%s → %s', (name, expected) => {
    expect(resourceName(name)).toBe(expected);
  });
});

describe('isPluralName', () => {
  it.each([
    ['locations', true],
    ['rate-cards', true],
    ['rateCards', true],
    ['location', false],
    ['status', false],
    ['token', false],
    ['', false],
  ])('%s → %s', (name, plural) => {
    expect(isPluralName(name)).toBe(plural);
  });
});

describe('pluralWord', () => {
  it.each([
    ['location', 'locations'],
    ['address', 'addresses'],
    ['category', 'categories'],
    ['day', 'days'],
    ['box', 'boxes'],
    ['branch', 'branches'],
  ])('%s → %s', (word, plural) => {
    expect(pluralWord(word)).toBe(plural);
  });
});

describe('resourceOfPath', () => {
  it.each([
    ['/locations', 'location'],
    ['/v2/rate-cards/{rateCardId}', 'rate-card'],
    ['/api/v1.1/shipments/{id}/events', 'shipment'],
    ['/{tenant}/books', 'book'],
    ['/', undefined],
    ['/{id}', undefined],
  ])('%s → %s', (path, resource) => {
    expect(resourceOfPath(path)).toBe(resource);
  });
});

describe('resourceOfSchema', () => {
  it.each([
    ['Location', 'location'],
    ['LocationList', 'location'],
    ['CreateRateCardRequest', 'rate-card'],
    ['ShipmentEvent', 'shipment-event'],
    ['BookingsPage', 'booking'],
    ['Error', 'error'],
    ['Page', 'page'],
  ])('%s → %s', (name, resource) => {
    expect(resourceOfSchema(name)).toBe(resource);
  });
});

describe('resourceForms', () => {
  it('writes a resource every way a text may', () => {
    expect(resourceForms('rate-card')).toEqual([
      'rate card',
      'rate-card',
      'rate_card',
      'ratecard',
      'rate cards',
      'rate-cards',
      'rate_cards',
      'ratecards',
    ]);
  });

  it.each([
    ['address', 'addresses'],
    ['category', 'categories'],
  ])('includes the plural of %s', (resource, plural) => {
    expect(resourceForms(resource)).toContain(plural);
  });
});
