import { describe, expect, it } from 'vitest';
import { questionShape } from './shape.js';

describe('questionShape', () => {
  it.each([
    ['How many retries does a webhook get?', ['number']],
    ['How long is an access token valid, and can it be refreshed?', ['number', 'yes-no']],
    // A set, not one label: "what is the limit" reads as a definition and as a number.
    ['What is the upload limit per file?', ['definition', 'number']],
    ['What is an idempotency key?', ['definition']],
    ['What does pickup_cutoff mean?', ['definition']],
    ['How do I rotate an API key?', ['steps']],
    ['Which fields are required when creating a shipment?', ['list']],
    ['What are the statuses of a shipment?', ['definition', 'list']],
    ['Can I cancel a shipment after pickup?', ['yes-no']],
    ['Why is the amount a string?', ['reason']],
    ['Which endpoint deletes a webhook?', ['operation']],
    // One property, and "endpoint" names the subject, not an operation asked for.
    ['Which property of a webhook endpoint object holds the secret?', []],
    ['Tell me about carriers', []],
  ])('%j asks for %j', (query, asks) => {
    expect([...questionShape(query).asks].sort()).toEqual([...asks].sort());
  });

  it('adds a numbered entity from the plan, but not an endpoint intent', () => {
    expect([...questionShape('Explain Algorithm 3.2', 'entity').asks]).toEqual(['entity']);
    expect([...questionShape('Fetch one location by id', 'endpoint').asks]).toEqual([]);
  });

  it.each([
    ['What happens when I exceed the rate limit?', ['exce', 'rate', 'limit']],
    ['Which endpoint do I call to delete a webhook?', ['delet', 'webhook']],
    ['What does dim_divisor mean, for example on ground services?', ['dim', 'divisor', 'ground', 'servic']],
  ])('the focus of %j is %j', (query, focus) => {
    expect(questionShape(query).focus).toEqual(focus);
  });

  it.each([
    ['How long is a token valid, and can it be refreshed?', true],
    ['Who owns the runbook and at what lag does it page?', true],
    ['Who owns the runbook, and at what lag does it page?', true],
    ['How do retries and timeouts interact?', false],
    ['What failed? Why did it fail?', true],
    ['Which fields, values and types does a location have?', false],
  ])('%j has several parts: %s', (query, multiPart) => {
    expect(questionShape(query).multiPart).toBe(multiPart);
  });
});
