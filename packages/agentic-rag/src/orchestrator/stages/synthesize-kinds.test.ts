import { describe, expect, it } from 'vitest';
import { source } from '../source-fixture.js';
import type { Source } from '../answer-types.js';
import { selfCheck } from './self-check.js';
import { extractiveAnswer } from './synthesize.js';

// A small help centre: each question below has one source that answers it and others that share
// its words without answering, as retrieval returns them.
const rateLimits = source({
  sourceId: 'api/rate-limits.md',
  title: 'Rate limits',
  rank: 1,
  text: [
    '# Rate limits',
    '',
    'Each account may send 120 requests per minute across all of its keys.',
    '',
    'When you exceed the rate limit, the API answers `429 Too Many Requests` with a `Retry-After` header. Wait that many seconds before sending again.',
  ].join('\n'),
});
const abuse = source({
  sourceId: 'support/abuse.md',
  title: 'Abuse reports',
  rank: 0,
  text: [
    '## Abuse reports',
    '',
    'Accounts that send spam are suspended. Support will contact the account owner when this happens.',
  ].join('\n'),
});
const quotas = source({
  sourceId: 'guides/quotas.md',
  title: 'Storage quotas',
  rank: 2,
  text: [
    '## Quotas',
    '',
    'When you exceed the limit.',
    '',
    'Storage quotas are set per workspace and can be raised by support.',
  ].join('\n'),
});
const keyRotation = source({
  sourceId: 'guides/api-keys.md',
  title: 'API keys',
  text: [
    '## Rotating a key',
    '',
    'Rotate a key without downtime:',
    '',
    '1. Create a second key in the console.',
    '2. Deploy the new key to every service that calls the API.',
    '3. Revoke the old key once no traffic uses it.',
    '',
    'Keys never expire on their own.',
  ].join('\n'),
});
const keyScopes = source({
  sourceId: 'api/scopes.md',
  title: 'Key scopes',
  rank: 1,
  text: 'A key carries the scopes of the role it was created for. Keys of the viewer role cannot write.',
});
const webhookRetries = source({
  sourceId: 'api/webhooks.md',
  title: 'Webhooks',
  rank: 1,
  text: 'Webhook deliveries that fail are retried with exponential backoff. Retries continue for up to 24 hours, then the delivery is dropped.',
});
const webhookSigning = source({
  sourceId: 'api/webhook-signatures.md',
  title: 'Webhook signatures',
  rank: 0,
  text: 'Webhook deliveries are signed with HMAC-SHA256. Verify the signature of every delivery before you trust it.',
});
const idempotencyUsage = source({
  sourceId: 'api/requests.md',
  title: 'Requests',
  rank: 0,
  text: 'Send the idempotency key in the `Idempotency-Key` header of every POST request that creates something.',
});
const idempotencyGlossary = source({
  sourceId: 'guides/glossary.md',
  title: 'Glossary',
  rank: 1,
  text: [
    '- **Idempotency key** — An idempotency key is a unique string the client sends so that a retried request is applied only once.',
    '- **Cursor** — An opaque token that marks a position in a paged list.',
  ].join('\n'),
});
const cancelFaq = source({
  sourceId: 'support/faq.md',
  title: 'Shipping FAQ',
  rank: 1,
  text: [
    'Q: Can I cancel a shipment after the driver picked it up?',
    '',
    'No: only shipments that have not been picked up can be cancelled. After pickup, create a return instead.',
  ].join('\n'),
});
const cancelGuide = source({
  sourceId: 'guides/shipments.md',
  title: 'Shipments',
  rank: 0,
  text: 'A shipment is created in draft and moves to picked up when the driver scans it.',
});
const divisors = source({
  sourceId: 'guides/dimensional-weight.md',
  title: 'Dimensional weight',
  text: [
    'Carriers bill the greater of actual and dimensional weight.',
    '',
    '| Service | Units | Divisor |',
    '|---|---|---|',
    '| Domestic ground | inches, pounds | 139 |',
    '| International | centimetres, kilograms | 5000 |',
  ].join('\n'),
});
const parcels = source({
  sourceId: 'guides/parcels.md',
  title: 'Parcels',
  text: 'Parcels up to 30 kg ship by ground. Each parcel needs its weight and dimensions.',
});

const cases: Array<[string, string, Source[], string, string[]]> = [
  [
    'a consequence: the sentence that says it, not a dangling clause or a "this" from elsewhere',
    'What happens when I exceed the rate limit?',
    [abuse, rateLimits, quotas],
    'When you exceed the rate limit, the API answers `429 Too Many Requests` with a `Retry-After` header [1].',
    ['api/rate-limits.md'],
  ],
  [
    'steps: the numbered list whole, with its lead-in',
    'How do I rotate an API key?',
    [keyScopes, keyRotation],
    'Rotate a key without downtime [1]. Create a second key in the console [1]. ' +
      'Deploy the new key to every service that calls the API [1]. Revoke the old key once no traffic uses it [1].',
    ['guides/api-keys.md'],
  ],
  [
    'a number: the sentence with the figure, not the one that only shares the words',
    'How long are failed webhook deliveries retried?',
    [webhookSigning, webhookRetries],
    'Webhook deliveries that fail are retried with exponential backoff [1]. ' +
      'Retries continue for up to 24 hours, then the delivery is dropped [1].',
    ['api/webhooks.md'],
  ],
  [
    'a number in a table: the row that matches, each cell under its header',
    'Which divisor applies to international services?',
    [parcels, divisors],
    'Service: International; Units: centimetres, kilograms; Divisor: 5000 [1].',
    ['guides/dimensional-weight.md'],
  ],
  [
    'two questions in one: a second source joins because it answers the second part on its own',
    'How long are failed webhook deliveries retried, and how do I verify their signature?',
    [webhookSigning, webhookRetries],
    'Verify the signature of every delivery before you trust it [1]. ' +
      'Webhook deliveries that fail are retried with exponential backoff [2]. ' +
      'Retries continue for up to 24 hours, then the delivery is dropped [2].',
    ['api/webhook-signatures.md', 'api/webhooks.md'],
  ],
  [
    'a definition: the "X is" sentence over the one that uses the term',
    'What does idempotency key mean?',
    [idempotencyUsage, idempotencyGlossary],
    '**Idempotency key** — An idempotency key is a unique string the client sends so that a retried request is applied only once [1].',
    ['guides/glossary.md'],
  ],
  [
    "yes/no: the FAQ's answer to its own question, never the question itself",
    'can i cancel a shipment after the driver picked it up?',
    [cancelGuide, cancelFaq],
    'No: only shipments that have not been picked up can be cancelled [1].',
    ['support/faq.md'],
  ],
];

describe('extractiveAnswer by what the question asks', () => {
  it.each(cases)('%s', (_name, query, sources, answer, cited) => {
    const synthesis = extractiveAnswer(query, sources, { intent: 'general' });
    expect(synthesis.answer).toBe(answer);
    expect(synthesis.cited.map((entry) => entry.source.sourceId)).toEqual(cited);
    expect(synthesis.notAddressed).toBeUndefined();
    expect(selfCheck(synthesis.answer, synthesis.cited, sources, { query }).passed).toBe(true);
  });

  it.each([
    [
      'no passage covers the subject',
      'What is the maximum pallet height for air freight?',
      [parcels, keyScopes],
    ],
    [
      'only common words match',
      'Which scopes does a pallet label printer key need for air freight?',
      [parcels],
    ],
  ])('says nothing when %s', (_name, query, sources) => {
    const synthesis = extractiveAnswer(query, sources, { intent: 'general' });
    expect(synthesis).toMatchObject({ answer: '', cited: [] });
    expect(synthesis.notAddressed).toBeTruthy();
  });

  it('answers a question that names something as code from the passages that name it', () => {
    const policy = source({
      sourceId: 'api/versioning.md',
      rank: 0,
      text: 'Adding new values to extensible enums is not a breaking change. Clients must tolerate unknown enum values.',
    });
    const schema = source({
      sourceId: 'api/openapi.yaml#components/schemas/PaymentState',
      rank: 1,
      text: 'Component schema `PaymentState`: string, one of: pending, settled, refunded.',
    });
    const synthesis = extractiveAnswer('PaymentState enum values', [policy, schema], { intent: 'general' });
    // The policy shares more of the words, but says nothing of PaymentState.
    expect(synthesis.answer).toBe(
      'Component schema `PaymentState`: string, one of: pending, settled, refunded [1].',
    );
    expect(synthesis.cited.map((entry) => entry.source.sourceId)).toEqual([
      'api/openapi.yaml#components/schemas/PaymentState',
    ]);
  });

  it('prefers the statement about an error code to an index line or a catalogue that names it', () => {
    const operationErrors = source({
      sourceId: 'api/openapi.yaml#paths/uploads/post/errors',
      rank: 0,
      text: [
        'Codes this operation documents: `QUOTA_EXCEEDED`.',
        '',
        '- `413` Payload Too Large: The request is too big (`QUOTA_EXCEEDED`, `FILE_TOO_LARGE`, `PART_TOO_LARGE`, `TOO_MANY_PARTS`).',
      ].join('\n'),
    });
    const faq = source({
      sourceId: 'support/faq.md',
      rank: 1,
      text: 'Uploads larger than 50 MB in one month are rejected with 413 QUOTA_EXCEEDED.',
    });
    const synthesis = extractiveAnswer('QUOTA_EXCEEDED: what triggers it?', [operationErrors, faq], {
      intent: 'general',
    });
    expect(synthesis.answer).toBe(
      'Uploads larger than 50 MB in one month are rejected with 413 QUOTA_EXCEEDED [1].',
    );
    // Ranked alike and with no condition to favour it, the statement still beats the line that only
    // names the code.
    const plain = source({
      ...faq,
      rank: 0,
      text: 'Uploads of 50 MB or more in one month get 413 QUOTA_EXCEEDED.',
    });
    expect(
      extractiveAnswer('Tell me about QUOTA_EXCEEDED', [operationErrors, plain], { intent: 'general' })
        .answer,
    ).toBe('Uploads of 50 MB or more in one month get 413 QUOTA_EXCEEDED [1].');
  });

  it("reads a table's caption with the table it introduces", () => {
    const trajectory = source({
      sourceId: 'textbook/ch04-beliefs.md',
      text: [
        '**Table 4.1.** Belief that the parcel is lost after each missing scan.',
        '',
        '| Day | Belief lost |',
        '|---|---|',
        '| 1 | 0.31 |',
        '| 2 | 0.52 |',
      ].join('\n'),
    });
    expect(
      extractiveAnswer('What does Table 4.1 show about the belief that the parcel is lost?', [trajectory], {
        intent: 'general',
      }).answer,
    ).toBe(
      '**Table 4.1.** Belief that the parcel is lost after each missing scan [1]. ' +
        'Day: 1; Belief lost: 0.31 [1]. Day: 2; Belief lost: 0.52 [1].',
    );
  });

  it('answers an operation question only from an operation', () => {
    const synthesis = extractiveAnswer('Which endpoint rotates an API key?', [keyRotation, keyScopes], {
      intent: 'endpoint',
    });
    expect(synthesis).toEqual({ answer: '', cited: [], notAddressed: 'no passage covers the question' });
  });
});

describe('a question retrieval found to be about the API (apiSubject)', () => {
  // "Remove" is the note's word, "Delete" the operation's: the note shares more of the question.
  const guide = source({
    sourceId: 'notes/routing.md',
    title: 'Routing table',
    rank: 1,
    text: 'Closed depots are removed from the routing table overnight, so no new parcels are sent there.',
  });
  const operation = source({
    sourceId: 'api/openapi.yaml#paths/depots/{depotId}/delete',
    title: 'DELETE /depots/{depotId} — Delete a depot',
    rank: 0,
    text: '# DELETE /depots/{depotId} — Delete a depot\n\nDeletes a depot that has no open shipments.',
  });
  const query = 'How do I remove a depot we closed?';

  it('leads with the operation when the question asks how to do it', () => {
    const synthesis = extractiveAnswer(query, [operation, guide], { intent: 'endpoint', apiSubject: true });
    expect(synthesis.cited[0]!.source.sourceId).toBe(operation.sourceId);
    expect(synthesis.notAddressed).toBeUndefined();
  });

  it('does not when the question asks whether, not how', () => {
    const synthesis = extractiveAnswer(
      'Can a closed depot be removed from routing before the night run?',
      [operation, guide],
      {
        intent: 'endpoint',
        apiSubject: true,
      },
    );
    expect(synthesis.cited.map((entry) => entry.source.sourceId)).toContain(guide.sourceId);
  });
});
