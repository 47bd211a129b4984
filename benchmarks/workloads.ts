// The engine benchmark's workload, shared by benchmarks/engine.ts and benchmarks/ceiling.ts: an
// event-record schema with properties, required, additionalProperties, patternProperties and an
// if/then at the root, and records of ~470 bytes that all satisfy it.

export const recordSchema = {
  type: 'object',
  required: ['id', 'type', 'timestamp', 'user'],
  properties: {
    id: {type: 'string', pattern: '^evt_[0-9a-f]{12}$'},
    type: {enum: ['click', 'view', 'purchase', 'signup']},
    timestamp: {type: 'integer', minimum: 0},
    user: {
      type: 'object',
      required: ['id', 'email'],
      properties: {id: {type: 'integer'}, email: {type: 'string', maxLength: 120}, name: {type: 'string'}, country: {type: 'string', minLength: 2, maxLength: 2}},
      additionalProperties: false,
    },
    amount: {type: 'number', minimum: 0},
    currency: {type: 'string', minLength: 3, maxLength: 3},
    items: {type: 'array', maxItems: 20, items: {type: 'object', required: ['sku', 'qty'], properties: {sku: {type: 'string'}, qty: {type: 'integer', minimum: 1}, price: {type: 'number'}}}},
    tags: {type: 'array', items: {type: 'string'}},
    session: {type: 'string'},
    agent: {type: 'string', maxLength: 512},
    referrer: {type: ['string', 'null']},
  },
  patternProperties: {'^x-': {type: 'string'}},
  additionalProperties: false,
  if: {properties: {type: {const: 'purchase'}}, required: ['type']},
  then: {required: ['amount', 'currency', 'items']},
};

export function record(i: number): Record<string, unknown> {
  const purchase = i % 4 === 2;
  const base: Record<string, unknown> = {
    id: 'evt_' + (0x100000000000 + i * 7919).toString(16).slice(-12),
    type: ['click', 'view', 'purchase', 'signup'][i % 4],
    timestamp: 1_700_000_000_000 + i * 1000,
    user: {id: i % 5000, email: `user${i % 5000}@example.com`, name: `User Number ${i % 5000} of the Example Organisation`, country: 'NO'},
    agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
    session: 'sess_' + (i * 2654435761).toString(36),
    referrer: i % 3 === 0 ? null : 'https://www.example.com/landing/page?utm_source=newsletter&utm_medium=email',
    tags: ['web', 'mobile', 'beta', 'campaign-2026'].slice(0, 1 + (i % 4)),
    'x-trace': 'trace-' + i.toString(16),
  };
  if (purchase) {
    base.amount = 19.99 + (i % 100);
    base.currency = 'EUR';
    base.items = [
      {sku: 'SKU-' + (i % 997), qty: 1 + (i % 3), price: 9.99},
      {sku: 'SKU-' + (i % 991), qty: 1, price: 10},
    ];
  }
  return base;
}
