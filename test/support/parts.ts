// validate({query, params, headers})'s coercion, one set of cases for every door that has it
// (Express, Koa): each test file routes `searchParts` at `/search/:page`, answering `{page, query,
// count}` as the handler sees them, and the query's schema alone with `coerceTypes: false` at
// `/search-as-sent`, answering `{query}`; then hands its agent here.

import assert from 'node:assert/strict';
import {it} from 'node:test';

import type supertest from 'supertest';

type Agent = ReturnType<typeof supertest>;

/** Strings on the wire, other types in the schemas. */
export const searchParts = {
  params: {type: 'object', properties: {page: {type: 'integer', minimum: 1}}, required: ['page']},
  query: {
    type: 'object',
    properties: {n: {type: 'integer'}, tags: {type: 'array', items: {type: 'string'}}, flag: {type: 'boolean'}},
  },
  headers: {type: 'object', properties: {'x-count': {type: 'integer'}}},
} as const;

export function coercionCases(agent: Agent): void {
  it('coerces query values to the declared types, and the handler sees them', async () => {
    const response = await agent.get('/search/1?n=5&flag=true').expect(200);
    assert.deepEqual(response.body.query, {n: 5, flag: true});
  });

  it("wraps a single value in an array where the schema says array (coerceTypes 'array')", async () => {
    assert.deepEqual((await agent.get('/search/1?tags=a').expect(200)).body.query, {tags: ['a']});
    assert.deepEqual((await agent.get('/search/1?tags=a&tags=b').expect(200)).body.query, {tags: ['a', 'b']});
  });

  it('coerces path parameters and headers (names lower-cased by Node)', async () => {
    const response = await agent.get('/search/2').set('X-Count', '3').expect(200);
    assert.deepEqual(response.body, {page: 2, query: {}, count: 3});
  });

  it('a value that does not coerce: 400 request.validation.failed at its pointer', async () => {
    const query = await agent.get('/search/1?n=x').expect(400);
    assert.equal(query.body.code, 'request.validation.failed');
    assert.equal(query.body.errors[0].pointer, '#/query/n');
    assert.equal((await agent.get('/search/0').expect(400)).body.errors[0].pointer, '#/params/page');
    assert.equal((await agent.get('/search/1?flag=yes').expect(400)).body.errors[0].pointer, '#/query/flag');
  });

  it('coerceTypes: false judges the strings as sent', async () => {
    const response = await agent.get('/search-as-sent?n=5').expect(400);
    assert.equal(response.body.code, 'request.validation.failed');
    assert.equal(response.body.errors[0].pointer, '#/query/n');
    assert.deepEqual((await agent.get('/search-as-sent?tags=a&tags=b').expect(200)).body.query, {tags: ['a', 'b']});
  });
}

/**
 * What `validate` refuses where the door is set up: a part it does not know (which nothing would
 * apply, so the middleware would check nothing), no part at all, and a status that is not a
 * refusal's. An outside attack mounted Fastify's `querystring` and every request passed.
 */
export function partsMountErrorCases(validate: (schemas: never, options?: never) => unknown): void {
  const refused = (says: RegExp) => (thrown: unknown) =>
    thrown instanceof TypeError && (thrown as {code?: unknown}).code === 'argument.invalid' && says.test(thrown.message);

  it('a part it does not know, or no part at all, is an ArgumentError where the door is set up', () => {
    const cases: Array<[unknown, RegExp]> = [
      [{querystring: {type: 'object', required: ['n']}}, /"querystring".*`query`/],
      [{body: {type: 'object', required: ['x']}}, /"body".*validateBody/],
      [{query: {type: 'object'}, Query: {}}, /"Query"/],
      [{}, /no schema is given for any part/],
      [{query: undefined}, /no schema is given for any part/],
      [null, /not null/],
      [[{type: 'object'}], /not an array/],
      ['query', /not the string "query"/],
    ];
    for (const [schemas, says] of cases) assert.throws(() => validate(schemas as never), refused(says), JSON.stringify(schemas));
  });

  it('an invalidStatus other than 400 or 422 is an ArgumentError where the door is set up', () => {
    for (const invalidStatus of [200, 302, 500, '400']) {
      assert.throws(() => validate({query: {type: 'object'}} as never, {invalidStatus} as never), refused(/option invalidStatus: .* is neither 400 nor 422/), String(invalidStatus));
    }
    assert.doesNotThrow(() => validate({query: {type: 'object'}} as never, {invalidStatus: 422} as never));
  });
}
