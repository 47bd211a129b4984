// Type-level test, compiled by `tsc -p tsconfig.types-test.json` (test/express.test.ts runs it).
// Nothing here runs: each line either type-checks or is marked @ts-expect-error.

import {problemResponse, validateRequest} from '../../adapters/web.js';
import {compile} from '../../src/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<T extends true>(): T | void {}

const orderSchema = {
  type: 'object',
  properties: {customer: {type: 'string'}, quantity: {type: 'integer'}},
  required: ['customer'],
  additionalProperties: false,
} as const;

export async function POST(request: Request): Promise<Response> {
  try {
    const order = await validateRequest(request, orderSchema);
    expectType<Equal<typeof order, {customer: string; quantity?: number}>>();
    // @ts-expect-error: not a property of the schema
    void order.note;
    // A validator compiled from the schema types the value as the schema does.
    const compiled = await validateRequest(request, compile(orderSchema));
    expectType<Equal<typeof compiled, {customer: string; quantity?: number}>>();
    const loaded: object = JSON.parse('{"type": "object"}');
    const untyped = await validateRequest(request, compile(loaded));
    expectType<Equal<typeof untyped, unknown>>();
    return Response.json(order);
  } catch (error) {
    return problemResponse(error);
  }
}
