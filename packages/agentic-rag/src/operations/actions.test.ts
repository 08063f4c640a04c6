import { describe, expect, it } from 'vitest';
import { askedAction } from './actions.js';
import { verbClass } from './verbs.js';

const words = (question: string) => question.toLowerCase().match(/[a-z]+(?:-[a-z]+)*/g) ?? [];
const asked = (question: string) => askedAction(question, words(question));

describe('askedAction', () => {
  it.each([
    ['How do I add a warehouse?', 'create', 'strong'],
    ['How do I set up a new store?', 'create', 'strong'],
    ['Can I import 300 stores?', 'create', 'strong'],
    ['How do I get rid of a returns centre?', 'delete', 'strong'],
    ['Void the label of this order', 'delete', 'strong'],
    ['I want to rename a drop-off point', 'update', 'strong'],
    ['Upload a new rate card, replacing the old one', 'update', 'strong'],
    ['Show me every location', 'list', 'weak'],
    ['Which carriers are connected to my account?', 'list', 'weak'],
    ['How do I see which webhooks we have set up?', 'list', 'weak'],
    ['Find all parcels sent this week', 'list', 'weak'],
    ['Look up the details of a specific warehouse', 'read', 'weak'],
    ['Download the label of a shipment', 'read', 'weak'],
    ['unstar a repo', 'delete', 'strong'],
    // Nouns and adjectives that are verbs elsewhere are not the asked action.
    ['list all open issues of a project', 'list', 'weak'],
    ['How do I transfer an issue to another project?', 'update', 'strong'],
    // What the question rules out is not what it asks for.
    ['detach a runner without removing it', 'delete', 'strong'],
    ['What print darkness does the label supplier recommend?', undefined, 'none'],
  ])('%s → %s (%s)', (question, kind, strength) => {
    const action = asked(question);
    expect(action.class).toBe(kind);
    expect(action.strength).toBe(strength);
  });

  it('reads an un- verb as undoing its stem', () => {
    expect(asked('unstar a repo').undoes).toBe('star');
    expect(asked('understand the limits').undoes).toBeNull();
  });

  it.each([
    ['How can I create many locations in one request?', true],
    ['Register several warehouses at once', true],
    ['How many levels deep can a hierarchy be?', false],
    ['Create a location', false],
  ])('%s: many at once is %s', (question, bulk) => {
    expect(asked(question).bulk).toBe(bulk);
  });
});

describe('verbClass', () => {
  it('knows inflections', () => {
    expect(verbClass('removing')?.[0]).toBe('delete');
    expect(verbClass('stopped')?.[0]).toBe('delete');
    expect(verbClass('merged')).toBeUndefined();
    expect(verbClass('edited')?.[0]).toBe('update');
  });
});
