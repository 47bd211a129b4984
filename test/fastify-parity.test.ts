// adapters/fastify.ts against plain Fastify 5: the same routes and the same requests on two real
// servers on 127.0.0.1, one with the plugin and one without, must get the same status, and for a
// 2xx the handler must have got the same body (each route echoes it). Each case also states the
// status plain Fastify gives, and where it matters the body its handler gets, so that a mistake
// both make cannot pass.
//
// Fastify's ajv changes what it judges (coerceTypes 'array', useDefaults, removeAdditional) and
// asserts ajv-formats' formats; the plugin does the same by default, and reads the server's
// `ajv.customOptions`. Querystring, params and headers stay with Fastify's ajv.

import assert from 'node:assert/strict';
import type {AddressInfo} from 'node:net';
import {after, before, describe, it} from 'node:test';

import ajvErrors from 'ajv-errors';
import ajvFormats from 'ajv-formats';
import Fastify, {type FastifyError, type FastifyInstance, type FastifyRequest, type FastifyServerOptions} from 'fastify';

import streamSchema, {type FastifyBodyOptions} from '../adapters/fastify.js';
import {compile} from '../src/index.js';
import type {CompileOptions} from '../src/types.js';
import {SUITE_TIMEOUT} from './support/http.js';

const roleSchema = {
  type: 'object',
  properties: {name: {type: 'string', minLength: 1}, role: {enum: ['user']}},
  required: ['name'],
} as const;

/** The same, with `role` required: a preValidation hook can complete a body that lacks it. */
const roleRequiredSchema = {...roleSchema, required: ['name', 'role']} as const;

const shortTextSchema = {type: 'string', maxLength: 5} as const;

const emailSchema = {type: 'string', format: 'email'} as const;

const twoPropertiesSchema = {type: 'object', minProperties: 2} as const;

const onePropertySchema = {type: 'object', maxProperties: 1} as const;

/** The route: Fastify coerces `n`, fills in `role` and drops `extra`. */
const memberSchema = {
  type: 'object',
  properties: {name: {type: 'string'}, n: {type: 'integer'}, role: {enum: ['user', 'admin'], default: 'user'}},
  required: ['name'],
  additionalProperties: false,
} as const;

/** One property per row of ajv's coercion table. */
const coercedSchema = {
  type: 'object',
  properties: {
    n: {type: 'integer'},
    x: {type: 'number'},
    ok: {type: 'boolean'},
    s: {type: 'string'},
    none: {type: 'null'},
    tags: {type: 'array', items: {type: 'string'}},
    counts: {type: 'array', items: {type: 'integer'}},
    one: {type: 'integer'},
  },
} as const;

/** OpenAPI's `nullable`, which Fastify's ajv always knows: beside coercion, `enum` and a default. */
/** Draft-07's own keywords, and a `$ref` whose siblings ajv applies: Fastify's ajv reads schemas so. */
const draft7Schema = {
  type: 'object',
  definitions: {code: {type: 'string', pattern: '^[A-Z]+$'}},
  properties: {
    code: {$ref: '#/definitions/code', maxLength: 3},
    pair: {type: 'array', items: [{type: 'string'}, {type: 'integer'}], additionalItems: false},
    card: {type: 'string'},
    cvc: {type: 'string'},
  },
  dependencies: {card: ['cvc']},
} as const;

const nullableSchema = {
  type: 'object',
  properties: {
    note: {type: 'string', nullable: true},
    n: {type: 'integer', nullable: true},
    tag: {type: 'string', nullable: true, enum: ['a', 'b']},
    items: {type: 'array', nullable: true, items: {type: 'integer', nullable: true}},
    level: {type: 'integer', nullable: true, default: null},
  },
  additionalProperties: false,
} as const;

/** Defaults at every depth the options reach: a property, an object that is itself a default, array items. */
const settingsSchema = {
  type: 'object',
  properties: {
    name: {type: 'string', default: 'anonymous'},
    settings: {
      type: 'object',
      default: {},
      properties: {theme: {type: 'string', default: 'light'}, size: {type: 'integer', default: 10}},
    },
    lines: {type: 'array', items: {type: 'object', properties: {quantity: {type: 'integer', default: 1}}}},
  },
} as const;

/** `additionalProperties: false` at one level only: removeAdditional true removes there alone. */
const partlyClosedSchema = {
  type: 'object',
  properties: {
    name: {type: 'string'},
    closed: {type: 'object', properties: {a: {type: 'string'}}, additionalProperties: false},
    typed: {type: 'object', properties: {a: {type: 'string'}}, additionalProperties: {type: 'integer'}},
  },
} as const;

/** ajv-formats' formats, those the drafts define and the OpenAPI ones. */
const formatsSchema = {
  type: 'object',
  properties: {
    at: {type: 'string', format: 'date-time'},
    day: {type: 'string', format: 'date'},
    time: {type: 'string', format: 'time'},
    email: {type: 'string', format: 'email'},
    host: {type: 'string', format: 'hostname'},
    ip: {type: 'string', format: 'ipv4'},
    id: {type: 'string', format: 'uuid'},
    site: {type: 'string', format: 'uri'},
    link: {type: 'string', format: 'url'},
    count: {type: 'integer', format: 'int32'},
    big: {type: 'integer', format: 'int64'},
    ratio: {type: 'number', format: 'float'},
    exact: {type: 'number', format: 'double'},
    data: {type: 'string', format: 'byte'},
    file: {type: 'string', format: 'binary'},
    secret: {type: 'string', format: 'password'},
    local: {type: 'string', format: 'iso-date-time'},
  },
} as const;

/** Querystring, params and headers, each with something Fastify's ajv changes. */
const partsSchemas = {
  params: {type: 'object', properties: {id: {type: 'integer'}}, required: ['id']},
  querystring: {
    type: 'object',
    properties: {limit: {type: 'integer', maximum: 50}, tags: {type: 'array', items: {type: 'string'}}, flag: {type: 'boolean'}, page: {type: 'integer', default: 1}},
    additionalProperties: false,
  },
  headers: {type: 'object', properties: {'x-count': {type: 'integer'}}, required: ['x-count']},
} as const;

/** An ajv plugin as Fastify's `ajv.plugins` types it. */
type AjvPlugin = Extract<NonNullable<NonNullable<FastifyServerOptions['ajv']>['plugins']>[number], (...args: never[]) => unknown>;

/** The plugin Fastify adds to its ajv itself, named `formatsPlugin` (its options' type is narrower than Fastify's). */
const addFormats = ajvFormats.default as unknown as AjvPlugin;
/** ajv-errors, named `ajvErrors` (its declared type is its module's, not a plugin's). */
const addErrors = ajvErrors.default as unknown as AjvPlugin;

/** How a route's body schema is given: as it is, or (the plugin only) as a validator compiled with `options`. */
type BodySchemaOf = (schema: object, options?: CompileOptions) => unknown;

const asSchema: BodySchemaOf = (schema) => schema;
const asValidator: BodySchemaOf = (schema, options) => compile(schema, options);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The routes both servers have. `validatorRoutes` gives the /validator routes their schema. */
function declareRoutes(app: FastifyInstance, validatorRoutes: BodySchemaOf): void {
  const echo = async (request: FastifyRequest) => ({received: request.body});
  app.post('/roles', {schema: {body: roleSchema}}, echo);
  app.post('/members', {schema: {body: memberSchema}}, echo);
  app.post('/coerced', {schema: {body: coercedSchema}}, echo);
  app.post('/nullable', {schema: {body: nullableSchema}}, echo);
  app.post('/draft7', {schema: {body: draft7Schema}}, echo);
  app.post('/count', {schema: {body: {type: 'integer'}}}, echo);
  app.post('/counts', {schema: {body: {type: 'array', items: {type: 'integer'}}}}, echo);
  app.post('/settings', {schema: {body: settingsSchema}}, echo);
  app.post('/partly-closed', {schema: {body: partlyClosedSchema}}, echo);
  app.post('/formats', {schema: {body: formatsSchema}}, echo);
  app.get('/parts/:id', {schema: partsSchemas}, async (request: FastifyRequest) => ({params: request.params, query: request.query, count: (request.headers as Record<string, unknown>)['x-count']}));
  app.post('/plain', echo);
  app.post('/two', {schema: {body: twoPropertiesSchema}}, echo);
  app.post('/one', {schema: {body: onePropertySchema}}, echo);
  const echoWithVerdict = async (request: FastifyRequest) => ({received: request.body, invalid: request.validationError !== undefined});
  app.post('/two/attached', {schema: {body: twoPropertiesSchema}, attachValidation: true}, echoWithVerdict);
  app.post('/content', {schema: {body: {content: {'application/json': {schema: roleSchema}}}}}, echo);
  app.post('/content-mixed', {schema: {body: {content: {'application/json': {schema: roleSchema}, 'text/plain': {schema: shortTextSchema}}}}}, echo);
  app.post('/content-text', {schema: {body: {content: {'text/plain': {schema: shortTextSchema}}}}}, echo);
  // preValidation hooks, as route options: a callback one, which runs in the same tick as the
  // parser's hand-over, and async ones.
  app.post(
    '/hook/promote',
    {
      schema: {body: roleSchema},
      preValidation: (request, _reply, done) => {
        if (isObject(request.body)) request.body['role'] = 'admin';
        done();
      },
    },
    echo,
  );
  app.post(
    '/hook/replace',
    {
      schema: {body: roleSchema},
      preValidation: async (request) => {
        if (isObject(request.body)) request.body = {...request.body, role: 'admin'};
      },
    },
    echo,
  );
  app.post(
    '/hook/complete',
    {
      schema: {body: roleRequiredSchema},
      preValidation: async (request) => {
        if (isObject(request.body)) request.body['role'] ??= 'user';
      },
    },
    echo,
  );
  app.post(
    '/hook/annotate',
    {
      schema: {body: roleSchema},
      preValidation: async (request) => {
        if (isObject(request.body)) request.body['note'] = 'seen';
      },
    },
    echo,
  );
  app.post(
    '/hook/attached',
    {
      schema: {body: roleSchema},
      attachValidation: true,
      preValidation: async (request) => {
        if (isObject(request.body)) request.body['note'] = 'seen';
      },
    },
    echoWithVerdict,
  );
  app.post(
    '/validator/hook/promote',
    {
      schema: {body: validatorRoutes(roleSchema)},
      preValidation: async (request) => {
        if (isObject(request.body)) request.body['role'] = 'admin';
      },
    },
    echo,
  );
  app.post('/validator/roles', {schema: {body: validatorRoutes(roleSchema)}}, echo);
  // Fastify's ajv asserts formats; the plugin does when told, here by the validator's own options.
  app.post('/validator/email', {schema: {body: validatorRoutes(emailSchema, {formats: 'assert'})}}, echo);
  app.post('/validator/content', {schema: {body: {content: {'application/json': {schema: validatorRoutes(roleSchema)}}}}}, echo);
  // A hook added with addHook in a plugin's scope, which the route's options do not show.
  app.register(async (scope) => {
    scope.addHook('preValidation', async (request) => {
      if (isObject(request.body)) request.body['role'] = 'admin';
    });
    scope.post('/scoped/promote', {schema: {body: roleSchema}}, echo);
  });
}

interface Server {
  app: FastifyInstance;
  origin: string;
}

async function start(app: FastifyInstance): Promise<Server> {
  await app.listen({port: 0, host: '127.0.0.1'});
  return {app, origin: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`};
}

async function stop(server: Server): Promise<void> {
  server.app.server.closeAllConnections();
  await server.app.close();
}

/** The plugin's server, where it differs from the plain one. */
interface PluginSide {
  serverOptions?: FastifyServerOptions;
  options?: FastifyBodyOptions;
  /** Routes only this pair's servers can compile (their schemas need its ajv plugins). */
  routes?: (app: FastifyInstance) => void;
}

/**
 * A plain Fastify server and one with the plugin (registered before the routes), filled in before
 * the suite's tests; both with `serverOptions` unless `pluginSide` says otherwise.
 */
function servePair(serverOptions: FastifyServerOptions, pluginSide: PluginSide = {}): {plain: Server; plugin: Server} {
  const pair = {} as {plain: Server; plugin: Server};
  before(async () => {
    const plain = Fastify(serverOptions);
    declareRoutes(plain, asSchema);
    pluginSide.routes?.(plain);
    const plugin = Fastify(pluginSide.serverOptions ?? serverOptions);
    plugin.register(streamSchema, pluginSide.options ?? {});
    // A compiled validator cannot take the plugin's compile options: those routes get the schema.
    declareRoutes(plugin, pluginSide.options === undefined ? asValidator : asSchema);
    pluginSide.routes?.(plugin);
    pair.plain = await start(plain);
    pair.plugin = await start(plugin);
  });
  after(async () => {
    await stop(pair.plain);
    await stop(pair.plugin);
  });
  return pair;
}

interface Answer {
  status: number;
  text: string;
}

async function post(origin: string, path: string, type: string, body: string): Promise<Answer> {
  return send(origin, {path, type, body});
}

/** A POST with `body`, or a GET without one. */
async function send(origin: string, request: Pick<Case, 'path' | 'type' | 'body' | 'headers'>): Promise<Answer> {
  const {path, type = 'application/json', body, headers = {}} = request;
  const init: RequestInit = body === undefined ? {method: 'GET', headers} : {method: 'POST', headers: {'content-type': type, ...headers}, body};
  const response = await fetch(origin + path, init);
  return {status: response.status, text: await response.text()};
}

interface Case {
  /** What the case protects. */
  name: string;
  path: string;
  type?: string;
  /** Absent: a GET. */
  body?: string;
  headers?: Record<string, string>;
  /** What plain Fastify answers. */
  status: number;
  /** What plain Fastify's handler answers with (its echo of what it got), where the case is about it. */
  answer?: unknown;
}

/** Each case as a test: plain Fastify answers `status` (and `answer`), and the plugin answers the same. */
function parity(pair: {plain: Server; plugin: Server}, cases: readonly Case[]): void {
  for (const request of cases) {
    const {name, status, answer} = request;
    it(`${name} (${status})`, async () => {
      const plain = await send(pair.plain.origin, request);
      const plugin = await send(pair.plugin.origin, request);
      assert.equal(plain.status, status, `plain Fastify: ${plain.text}`);
      if (answer !== undefined) assert.deepEqual(JSON.parse(plain.text), answer, 'plain Fastify');
      assert.equal(plugin.status, plain.status, `with the plugin: ${plugin.text}; plain Fastify: ${plain.text}`);
      if (status < 300) assert.deepEqual(JSON.parse(plugin.text), JSON.parse(plain.text));
    });
  }
}

/** A body the handler gets, as the routes echo it. */
const received = (body: unknown): unknown => ({received: body});

const admin = '{"name": "ada", "role": "admin", "x": 1}';
const user = '{"name": "ada", "role": "user"}';

describe('the plugin and plain Fastify 5 answer alike', SUITE_TIMEOUT, () => {
  const pair = servePair({});

  parity(pair, [
    {name: 'a valid body reaches the handler as sent', path: '/roles', body: user, status: 200},
    {name: 'a body against its schema is refused', path: '/roles', body: admin, status: 400},
    {name: 'a body without a required member is refused', path: '/roles', body: '{"role": "user"}', status: 400},
    {name: 'an empty body with a JSON Content-Type is refused', path: '/roles', body: '', status: 400},
    {name: 'malformed JSON is refused', path: '/roles', body: '{"name": ', status: 400},
    {name: 'a route without a schema takes any JSON', path: '/plain', body: '[1, "two", {"three": null}]', status: 200},
  ]);

  parity(pair, [
    {name: 'schema.body.content: the listed JSON entry takes a valid body', path: '/content', body: user, status: 200},
    {name: 'schema.body.content: the listed JSON entry refuses an invalid body', path: '/content', body: admin, status: 400},
    {name: 'schema.body.content: an unlisted +json media type never reaches the handler', path: '/content', type: 'application/x+json', body: admin, status: 415},
    {name: 'schema.body.content: an unlisted +json media type is refused even with a valid body', path: '/content', type: 'application/x+json', body: user, status: 415},
    {name: 'schema.body.content: an unlisted +json media type is refused before its empty body', path: '/content', type: 'application/x+json; charset=utf-8', body: '', status: 415},
    // Fastify parses text/plain itself and judges it by no entry: the plugin leaves it so.
    {name: 'schema.body.content: an unlisted text/plain body is passed on as Fastify does', path: '/content', type: 'text/plain', body: 'hello', status: 200},
    {name: 'schema.body.content: the text/plain entry stays with Fastify and takes a short text', path: '/content-mixed', type: 'text/plain', body: 'abc', status: 200},
    {name: 'schema.body.content: the text/plain entry refuses a long text', path: '/content-mixed', type: 'text/plain', body: 'abcdefgh', status: 400},
    {name: 'schema.body.content: beside a text/plain entry the JSON entry still judges', path: '/content-mixed', body: admin, status: 400},
    {name: 'schema.body.content without a JSON entry: a +json media type is refused', path: '/content-text', type: 'application/merge-patch+json', body: user, status: 415},
  ]);

  // The one deliberate difference, and it refuses: Fastify's own JSON parser takes
  // application/json on any route and no entry of the map judges it, so plain Fastify hands the
  // handler a body nothing checked. The plugin answers it as Fastify answers an unlisted +json type.
  it('schema.body.content: an unlisted application/json body is refused, where plain Fastify passes it on unjudged', async () => {
    assert.equal((await post(pair.plain.origin, '/content-text', 'application/json', admin)).status, 200);
    const refused = await post(pair.plugin.origin, '/content-text', 'application/json', admin);
    assert.equal(refused.status, 415);
    assert.equal((JSON.parse(refused.text) as {code?: string}).code, 'FST_ERR_CTP_INVALID_MEDIA_TYPE');
  });

  parity(pair, [
    {name: 'a preValidation hook that makes a valid body invalid in place is judged', path: '/hook/promote', body: user, status: 400},
    {name: 'a preValidation hook that replaces a valid body by an invalid one is judged', path: '/hook/replace', body: user, status: 400},
    {name: 'a preValidation hook added with addHook in a scope is judged after too', path: '/scoped/promote', body: user, status: 400},
    {name: 'a preValidation hook can complete a body that lacks a required member', path: '/hook/complete', body: '{"name": "ada"}', status: 200},
    {name: 'a preValidation hook that leaves a body invalid is judged', path: '/hook/complete', body: admin, status: 400},
    {name: 'a preValidation hook that keeps a body valid: the handler gets the changed body', path: '/hook/annotate', body: user, status: 200},
    {name: 'a preValidation hook is not given malformed JSON', path: '/hook/annotate', body: '{"name": ', status: 400},
    {name: 'a preValidation hook gets the whole body, even one its schema refuses (attachValidation)', path: '/hook/attached', body: admin, status: 200},
  ]);

  parity(pair, [
    {name: "onProtoPoisoning 'error': a __proto__ key is refused", path: '/two', body: '{"a": 1, "b": 2, "__proto__": {}}', status: 400},
    {name: "onProtoPoisoning 'error': a nested __proto__ key is refused", path: '/plain', body: '{"a": {"__proto__": {"x": 1}}}', status: 400},
    {name: "onConstructorPoisoning 'error': constructor.prototype is refused", path: '/two', body: '{"a": 1, "constructor": {"prototype": {}}}', status: 400},
  ]);

  parity(pair, [
    {name: 'a compiled validator as schema.body takes a valid body', path: '/validator/roles', body: user, status: 200},
    {name: 'a compiled validator as schema.body refuses an invalid body', path: '/validator/roles', body: admin, status: 400},
    {name: "a compiled validator as a content entry's schema refuses an invalid body", path: '/validator/content', body: admin, status: 400},
    {name: 'a compiled validator keeps the options it was compiled with', path: '/validator/email', body: '"ada@example.com"', status: 200},
    {name: 'a compiled validator keeps the options it was compiled with, and refuses by them', path: '/validator/email', body: '"not an address"', status: 400},
    {name: 'a compiled validator judges the body a preValidation hook changed', path: '/validator/hook/promote', body: user, status: 400},
  ]);

  parity(pair, [
    {name: "application/*+json on a route with a plain schema.body: Fastify has no parser for it", path: '/roles', type: 'application/x+json', body: user, status: 415},
    {name: 'application/*+json on a route without a schema', path: '/plain', type: 'application/merge-patch+json', body: '{}', status: 415},
  ]);

  parity(pair, [
    {name: 'the issue: a numeric string is coerced and the default filled in', path: '/members', body: '{"name":"a","n":"5"}', status: 200, answer: received({name: 'a', n: 5, role: 'user'})},
    {name: 'the issue: a property additionalProperties: false does not allow is removed', path: '/members', body: '{"name":"a","extra":1}', status: 200, answer: received({name: 'a', role: 'user'})},
    {name: 'the issue: a body needing nothing gets its default', path: '/members', body: '{"name":"a"}', status: 200, answer: received({name: 'a', role: 'user'})},
    {name: 'a number is coerced to the string its schema wants', path: '/members', body: '{"name":5}', status: 200, answer: received({name: '5', role: 'user'})},
    {name: 'a string that is no integer is refused', path: '/members', body: '{"name":"a","n":"5.5"}', status: 400},
    {name: 'an empty string is no number', path: '/members', body: '{"name":"a","n":""}', status: 400},
    {name: 'a value outside the enum is refused, not defaulted', path: '/members', body: '{"name":"a","role":"root"}', status: 400},
    {name: 'an empty string is not replaced by the default (useDefaults true, not "empty")', path: '/members', body: '{"name":"a","role":""}', status: 400},
    {name: 'a removed property does not save a body that lacks a required one', path: '/members', body: '{"extra":1}', status: 400},
    {name: 'after a preValidation hook the body is judged in value mode, and changed as in the stream', path: '/hook/annotate', body: '{"name":5}', status: 200, answer: received({name: '5', note: 'seen'})},
  ]);

  // A deliberate difference, and safe: Fastify's JSON parser refuses the key before its
  // validation would remove it; the stream removes it unassembled, so it never reaches the handler.
  it("onProtoPoisoning 'error': a __proto__ key that removeAdditional removes is taken without it, where plain Fastify refuses it", async () => {
    const body = '{"name":"a","__proto__":{"admin":true}}';
    assert.equal((await post(pair.plain.origin, '/members', 'application/json', body)).status, 400);
    const taken = await post(pair.plugin.origin, '/members', 'application/json', body);
    assert.equal(taken.status, 200);
    assert.deepEqual(JSON.parse(taken.text), received({name: 'a', role: 'user'}));
    // Where nothing removes it, it is refused as by Fastify.
    assert.equal((await post(pair.plugin.origin, '/coerced', 'application/json', '{"__proto__":{"admin":true}}')).status, 400);
  });

  parity(pair, [
    {
      name: "every row of ajv's coercion table, and 'array' wrapping and unwrapping",
      path: '/coerced',
      body: '{"n":"5","x":"1.5","ok":"true","s":5,"none":"","tags":"a","counts":["1","2"],"one":["7"]}',
      status: 200,
      answer: received({n: 5, x: 1.5, ok: true, s: '5', none: null, tags: ['a'], counts: [1, 2], one: 7}),
    },
    {name: 'booleans and null to numbers, numbers to booleans', path: '/coerced', body: '{"n":true,"x":null,"ok":0}', status: 200, answer: received({n: 1, x: 0, ok: false})},
    {name: 'booleans and null to strings, a wrapped scalar coerced as an item', path: '/coerced', body: '{"s":null,"tags":5}', status: 200, answer: received({s: '', tags: ['5']})},
    {name: 'a one-item array is unwrapped, a longer one is refused', path: '/coerced', body: '{"one":[7,8]}', status: 400},
    {name: 'a string that is no boolean is refused', path: '/coerced', body: '{"ok":"yes"}', status: 400},
    {name: 'a root scalar is coerced, and the handler gets the coerced value', path: '/count', body: '"5"', status: 200, answer: received(5)},
    {name: 'a root scalar that cannot be coerced is refused', path: '/count', body: '"five"', status: 400},
    {name: 'a root scalar is wrapped into the array its schema wants', path: '/counts', body: '"5"', status: 200, answer: received([5])},
  ]);

  parity(pair, [
    {name: 'draft-07: a body within dependencies, an items tuple and a $ref with siblings', path: '/draft7', body: '{"code":"AB","pair":["a","1"],"card":"x","cvc":"1"}', status: 200, answer: received({code: 'AB', pair: ['a', 1], card: 'x', cvc: '1'})},
    {name: "draft-07: the $ref's sibling maxLength applies, as in ajv", path: '/draft7', body: '{"code":"ABCD"}', status: 400},
    {name: 'draft-07: what the $ref names applies too', path: '/draft7', body: '{"code":"ab"}', status: 400},
    {name: 'draft-07: additionalItems false refuses a third item', path: '/draft7', body: '{"pair":["a",1,2]}', status: 400},
    {name: 'draft-07: dependencies asks for cvc beside card', path: '/draft7', body: '{"card":"x"}', status: 400},
  ]);

  parity(pair, [
    {name: 'nullable: null is taken where type is nullable, and the default filled in', path: '/nullable', body: '{"note":null,"n":null,"items":[1,null]}', status: 200, answer: received({note: null, n: null, items: [1, null], level: null})},
    {name: 'nullable: the listed types are still taken, and coerced first', path: '/nullable', body: '{"note":5,"n":"7","items":"3"}', status: 200, answer: received({note: '5', n: 7, items: [3], level: null})},
    {name: 'nullable: "" becomes null where the type listed takes no string', path: '/nullable', body: '{"n":"","note":""}', status: 200, answer: received({n: null, note: '', level: null})},
    {name: 'nullable: "null" is a string, not null', path: '/nullable', body: '{"n":"null"}', status: 400},
    {name: 'nullable: enum still judges null, as any value', path: '/nullable', body: '{"tag":null}', status: 400},
    {name: 'nullable: another type is refused', path: '/nullable', body: '{"note":{}}', status: 400},
    {name: 'nullable: a root null is refused where the schema is not nullable', path: '/nullable', body: 'null', status: 400},
  ]);

  parity(pair, [
    {name: 'defaults fill an empty body, and the defaults of a defaulted object', path: '/settings', body: '{}', status: 200, answer: received({name: 'anonymous', settings: {theme: 'light', size: 10}})},
    {name: 'a nested default fills what a sent object lacks', path: '/settings', body: '{"settings":{"theme":"dark"}}', status: 200, answer: received({name: 'anonymous', settings: {theme: 'dark', size: 10}})},
    {name: "defaults fill each array item's missing property", path: '/settings', body: '{"lines":[{},{"quantity":3}]}', status: 200, answer: received({name: 'anonymous', settings: {theme: 'light', size: 10}, lines: [{quantity: 1}, {quantity: 3}]})},
    {name: 'a property sent as null is not defaulted but coerced', path: '/settings', body: '{"name":null}', status: 200, answer: received({name: '', settings: {theme: 'light', size: 10}})},
  ]);

  parity(pair, [
    {
      name: 'removeAdditional true removes only where additionalProperties is false',
      path: '/partly-closed',
      body: '{"name":"a","other":1,"closed":{"a":"x","b":2},"typed":{"a":"x","n":"2"}}',
      status: 200,
      answer: received({name: 'a', other: 1, closed: {a: 'x'}, typed: {a: 'x', n: 2}}),
    },
    {name: 'a property an additionalProperties schema refuses is refused, not removed', path: '/partly-closed', body: '{"typed":{"m":"y"}}', status: 400},
  ]);

  const allFormats = {
    at: '2024-01-02T03:04:05Z', day: '2024-02-29', time: '03:04:05+01:00', email: 'ada@example.com', host: 'example.com', ip: '192.0.2.1',
    id: '2eb8aa08-aa98-11ea-b4aa-73b441d16380', site: 'https://example.com/a?b#c', link: 'https://example.com/', count: 2147483647, big: 9007199254740991,
    ratio: 1.5, exact: -2.5e10, data: 'aGVsbG8=', file: 'anything', secret: 'x', local: '2024-01-02T03:04:05',
  };
  parity(pair, [
    {name: "formats: a value of each of ajv-formats' formats", path: '/formats', body: JSON.stringify(allFormats), status: 200, answer: received(allFormats)},
    {name: 'int32: one past its largest value', path: '/formats', body: '{"count":2147483648}', status: 400},
    {name: 'int32: one below its smallest value', path: '/formats', body: '{"count":-2147483649}', status: 400},
    {name: 'int32: a numeric string is coerced, then judged', path: '/formats', body: '{"count":"2147483647"}', status: 200, answer: received({count: 2147483647})},
    {name: 'int32: a numeric string past its range is refused', path: '/formats', body: '{"count":"2147483648"}', status: 400},
    {name: 'float: a numeric string is coerced', path: '/formats', body: '{"ratio":"0.25"}', status: 200, answer: received({ratio: 0.25})},
    {name: 'date-time: a month 13', path: '/formats', body: '{"at":"2024-13-02T03:04:05Z"}', status: 400},
    {name: 'date-time: without an offset', path: '/formats', body: '{"at":"2024-01-02T03:04:05"}', status: 400},
    {name: 'date: a February 29th of a common year', path: '/formats', body: '{"day":"2023-02-29"}', status: 400},
    {name: 'email: without a domain', path: '/formats', body: '{"email":"ada@"}', status: 400},
    {name: "email: a quoted local part, which ajv-formats refuses though RFC 5321 allows it", path: '/formats', body: '{"email":"\\"joe bloggs\\"@example.com"}', status: 400},
    {name: 'ipv4: an octet past 255', path: '/formats', body: '{"ip":"256.0.0.1"}', status: 400},
    {name: 'uri: a relative reference', path: '/formats', body: '{"site":"foo"}', status: 400},
    {name: 'url: no scheme', path: '/formats', body: '{"link":"example.com"}', status: 400},
    {name: 'byte: not base64', path: '/formats', body: '{"data":"abc"}', status: 400},
    {name: 'uuid: not hexadecimal', path: '/formats', body: '{"id":"2eb8aa08-aa98-11ea-b4aa-73b441d1638g"}', status: 400},
  ]);

  // Where ajv-formats is laxer than the format's RFC the plugin asserts both, and refuses.
  it('formats: a string ajv-formats takes but the RFC refuses is refused, where plain Fastify passes it on', async () => {
    for (const body of ['{"host":"example."}', '{"at":"2024-01-02T03:04:05+01"}']) {
      assert.equal((await post(pair.plain.origin, '/formats', 'application/json', body)).status, 200, body);
      assert.equal((await post(pair.plugin.origin, '/formats', 'application/json', body)).status, 400, body);
    }
  });

  // Schemas are read as draft-07, as Fastify's ajv reads them: a format draft-07 does not define is ajv-formats' alone.
  it('formats: a format draft-07 lacks (uuid) is judged by ajv-formats alone, as plain Fastify judges it', async () => {
    const body = '{"id":"urn:uuid:2eb8aa08-aa98-11ea-b4aa-73b441d16380"}';
    assert.equal((await post(pair.plain.origin, '/formats', 'application/json', body)).status, 200);
    assert.equal((await post(pair.plugin.origin, '/formats', 'application/json', body)).status, 200);
  });

  const parts = {'x-count': '3'};
  parity(pair, [
    {
      name: "querystring, params and headers: coerced, defaulted and stripped by Fastify's ajv",
      path: '/parts/7?limit=5&tags=a&flag=true&other=1',
      headers: parts,
      status: 200,
      answer: {params: {id: 7}, query: {limit: 5, tags: ['a'], flag: true, page: 1}, count: 3},
    },
    {name: 'querystring: a value past its maximum', path: '/parts/7?limit=51', headers: parts, status: 400},
    {name: 'params: not an integer', path: '/parts/x', headers: parts, status: 400},
    {name: 'headers: a required header missing', path: '/parts/7', status: 400},
    {name: 'headers: not an integer', path: '/parts/7', headers: {'x-count': 'three'}, status: 400},
  ]);
});

describe("the plugin and plain Fastify 5 answer alike under ajv.customOptions {coerceTypes: false, removeAdditional: 'all'}", SUITE_TIMEOUT, () => {
  const pair = servePair({ajv: {customOptions: {coerceTypes: false, removeAdditional: 'all'}}});

  parity(pair, [
    {name: 'a numeric string is refused', path: '/members', body: '{"name":"a","n":"5"}', status: 400},
    {name: 'an extra property is still removed, and the default filled in', path: '/members', body: '{"name":"a","extra":1}', status: 200, answer: received({name: 'a', role: 'user'})},
    {
      name: "'all': every property the schema object does not list is removed, whatever additionalProperties says",
      path: '/partly-closed',
      body: '{"name":"a","other":1,"closed":{"a":"x","b":2},"typed":{"a":"x","n":2,"m":"y"}}',
      status: 200,
      answer: received({name: 'a', closed: {a: 'x'}, typed: {a: 'x'}}),
    },
    {name: 'int32 is still asserted', path: '/formats', body: '{"count":2147483648}', status: 400},
    {name: 'no root scalar is coerced', path: '/count', body: '"5"', status: 400},
    {name: 'querystring: not coerced either, by Fastify\'s ajv', path: '/parts/7?limit=5', headers: {'x-count': '3'}, status: 400},
  ]);
});

describe('the plugin and plain Fastify 5 answer alike under ajv.customOptions {useDefaults: false, validateFormats: false, allErrors: true}', SUITE_TIMEOUT, () => {
  const pair = servePair({ajv: {customOptions: {useDefaults: false, validateFormats: false, allErrors: true}}});

  parity(pair, [
    {name: 'no default is filled in', path: '/members', body: '{"name":"a","n":"5"}', status: 200, answer: received({name: 'a', n: 5})},
    {name: 'formats are not asserted', path: '/formats', body: '{"count":2147483648,"email":"ada@"}', status: 200, answer: received({count: 2147483648, email: 'ada@'})},
    {name: 'every error: still refused', path: '/members', body: '{"n":"x","role":"root"}', status: 400},
  ]);
});

describe('the plugin and plain Fastify 5 answer alike with ajv-errors in ajv.plugins: errorMessage, the same messages', SUITE_TIMEOUT, () => {
  const signupSchema = {
    type: 'object',
    properties: {
      age: {type: 'integer', minimum: 18, errorMessage: {minimum: 'must be an adult', type: 'must be a whole number'}},
      email: {type: 'string', maxLength: 20, errorMessage: 'needs a short email'},
    },
    required: ['email'],
    errorMessage: {required: {email: 'email is required'}},
  };
  const pair = servePair({ajv: {customOptions: {allErrors: true}, plugins: [addErrors]}}, {routes: (app) => app.post('/signup', {schema: {body: signupSchema}}, async (request) => ({received: request.body}))});

  parity(pair, [{name: 'a valid body', path: '/signup', body: '{"email":"a@b","age":"30"}', status: 200, answer: received({email: 'a@b', age: 30})}]);

  for (const body of ['{"email":"a@b","age":17}', '{"email":"a@b","age":1.5}', '{"email":"a-very-long-address@example.com"}', '{"age":20}']) {
    it(`the 400's message is ajv-errors': ${body}`, async () => {
      const plain = await send(pair.plain.origin, {path: '/signup', body});
      const plugin = await send(pair.plugin.origin, {path: '/signup', body});
      assert.equal(plain.status, 400, plain.text);
      assert.equal(plugin.status, 400, plugin.text);
      assert.equal(JSON.parse(plugin.text).message, JSON.parse(plain.text).message);
    });
  }
});

describe("the plugin's options win over ajv.customOptions", SUITE_TIMEOUT, () => {
  // Plain Fastify told by its ajv option; the plugin's server keeps Fastify's defaults and the plugin is told instead.
  const pair = servePair({ajv: {customOptions: {coerceTypes: false, useDefaults: false}}}, {serverOptions: {}, options: {coerceTypes: false, useDefaults: false}});

  parity(pair, [
    {name: 'coerceTypes: false', path: '/members', body: '{"name":"a","n":"5"}', status: 400},
    {name: 'useDefaults: false, while removeAdditional stays as Fastify has it', path: '/members', body: '{"name":"a","extra":1}', status: 200, answer: received({name: 'a'})},
  ]);
});

describe('the plugin and plain Fastify 5 answer alike with ajv-formats given in ajv.plugins, as Fastify adds it anyway', SUITE_TIMEOUT, () => {
  const pair = servePair({ajv: {plugins: [addFormats]}});

  parity(pair, [
    {name: 'int32 asserted', path: '/formats', body: '{"count":2147483648}', status: 400},
    {name: 'the issue: coerced and defaulted', path: '/members', body: '{"name":"a","n":"5"}', status: 200, answer: received({name: 'a', n: 5, role: 'user'})},
  ]);
});

describe("the plugin and plain Fastify 5 answer alike, with onProtoPoisoning and onConstructorPoisoning 'remove'", SUITE_TIMEOUT, () => {
  const pair = servePair({onProtoPoisoning: 'remove', onConstructorPoisoning: 'remove'});

  parity(pair, [
    {name: 'a body that lacks a property once its __proto__ key is removed is refused', path: '/two', body: '{"a": 1, "__proto__": {}}', status: 400},
    {name: 'a body valid once its __proto__ key is removed reaches the handler without it', path: '/two', body: '{"a": 1, "b": 2, "__proto__": {}}', status: 200},
    {name: 'a body that lacks a property once its constructor is removed is refused', path: '/two', body: '{"a": 1, "constructor": {"prototype": {}}}', status: 400},
    {name: 'a body valid once its constructor is removed reaches the handler without it', path: '/two', body: '{"a": 1, "b": 2, "constructor": {"prototype": {}}}', status: 200},
    {name: 'a nested __proto__ key is removed', path: '/two', body: '{"a": {"__proto__": {"x": 1}}, "b": 1}', status: 200},
    {name: 'attachValidation: the handler gets the body without the key, and the verdict on it', path: '/two/attached', body: '{"a": 1, "__proto__": {}}', status: 200},
    {name: 'a key removed, then a preValidation hook: the hook sees the body without it', path: '/hook/annotate', body: '{"name": "ada", "__proto__": {"role": "admin"}}', status: 200},
    {name: 'a route without a schema gets the body without the key', path: '/plain', body: '{"a": [{"__proto__": {}}]}', status: 200},
    {name: 'a body invalid as sent but valid once its __proto__ key is removed is taken', path: '/one', body: '{"a": 1, "__proto__": {}}', status: 200},
    {name: 'a body invalid as sent but valid once its constructor is removed is taken', path: '/one', body: '{"a": 1, "constructor": {"prototype": {}}}', status: 200},
    {name: 'a body invalid with or without its poisoned key is refused', path: '/one', body: '{"a": 1, "b": 2, "__proto__": {}}', status: 400},
  ]);
});

/**
 * A validator builder of the app's own, as `schemaController.compilersFactory.buildValidator`:
 * it refuses a part with a `deny` member and passes the rest on as it is, uncoerced.
 */
const denyingBuilder = () => () => (data: unknown) =>
  isObject(data) && 'deny' in data ? {error: [Object.assign(new Error('denied'), {keyword: 'deny', instancePath: '', schemaPath: '#', params: {}})]} : {value: data};

describe("the plugin and plain Fastify 5 answer alike with the app's own schemaController", SUITE_TIMEOUT, () => {
  const pair = servePair({schemaController: {compilersFactory: {buildValidator: denyingBuilder as never}}});

  parity(pair, [
    {name: "querystring, params and headers stay with the app's validator builder: refused by it", path: '/parts/7?deny=1', headers: {'x-count': '3'}, status: 400},
    {name: "querystring, params and headers stay with the app's validator builder: not coerced by Fastify's ajv", path: '/parts/7?limit=5', headers: {'x-count': '3'}, status: 200, answer: {params: {id: '7'}, query: {limit: '5'}, count: '3'}},
  ]);
});

describe('a route schema the plugin cannot use fails ready()', SUITE_TIMEOUT, () => {
  async function readyError(schema: Record<string, unknown>, options: FastifyBodyOptions = {}, serverOptions: FastifyServerOptions = {}): Promise<FastifyError> {
    const app = Fastify(serverOptions);
    app.register(streamSchema, options);
    app.post('/route', {schema}, async () => 'never');
    try {
      await app.ready();
    } catch (error) {
      return error as FastifyError;
    } finally {
      await app.close();
    }
    assert.fail('ready() resolved');
  }

  // Fastify reports every schema that fails to compile so, naming the route; the message is the TypeError's.
  it('a schema.body that is neither a JSON Schema nor a compiled validator', async () => {
    for (const body of [new Map(), {validate: () => true}, () => true]) {
      const error = await readyError({body});
      assert.equal(error.code, 'FST_ERR_SCH_VALIDATION_BUILD');
      assert.match(error.message, /POST: \/route.*compile\(\) was given .*, not a JSON Schema/);
    }
  });

  it('a compiled validator for querystring, params or headers, which stay with Fastify', async () => {
    for (const part of ['querystring', 'params', 'headers']) {
      const error = await readyError({[part]: compile(roleSchema)});
      assert.equal(error.code, 'FST_ERR_SCH_VALIDATION_BUILD');
      assert.match(error.message, new RegExp(`a compiled validator checks the body; ${part} stays with Fastify's ajv`));
    }
  });

  /** Plain Fastify builds the route: what the plugin refuses is refused by the plugin. */
  async function plainReady(schema: Record<string, unknown>, serverOptions: FastifyServerOptions = {}): Promise<void> {
    const app = Fastify(serverOptions);
    app.post('/route', {schema}, async () => 'never');
    await app.ready();
    await app.close();
  }

  it("an ajv.customOptions option with no counterpart, which Fastify's ajv would judge by", async () => {
    for (const [name, value] of [['$data', true], ['multipleOfPrecision', 2], ['unicodeRegExp', false], ['keywords', [{keyword: 'even', validate: () => true}]]] as const) {
      const serverOptions = {ajv: {customOptions: {[name]: value}}};
      await plainReady({body: roleSchema}, serverOptions);
      const error = await readyError({body: roleSchema}, {}, serverOptions);
      assert.equal(error.code, 'FST_ERR_SCH_VALIDATION_BUILD');
      assert.ok(error.message.includes(`ajv.customOptions.${name}: stream-schema, which validates the bodies, has no such option`), error.message);
    }
  });

  it('ajv.plugins other than ajv-formats as Fastify adds it, and ajv.onCreate', async () => {
    const keywords = function ajvKeywords<Ajv>(ajv: Ajv): Ajv {
      return ajv;
    };
    const cases: Array<[NonNullable<FastifyServerOptions['ajv']>, RegExp]> = [
      [{plugins: [keywords]}, /ajv\.plugins \(ajvKeywords\)/],
      [{plugins: [[addFormats, {mode: 'fast'}]]}, /ajv\.plugins \(formatsPlugin with options\)/],
      [{onCreate: () => undefined}, /ajv\.onCreate/],
    ];
    for (const [ajv, said] of cases) {
      await plainReady({body: roleSchema}, {ajv});
      assert.match((await readyError({body: roleSchema}, {}, {ajv})).message, said);
    }
  });

  it("a keyword Fastify's ajv judges and the plugin does not know, strict or not", async () => {
    const body = {type: 'object', properties: {note: {type: 'string', nullable: true}}};
    // nullable is known unless the plugin's own option turns it off.
    const off = {nullable: false};
    assert.match((await readyError({body}, off)).message, /keyword "nullable" at \/properties\/note\/nullable: Fastify's ajv judges by it, stream-schema does not know it, .*; list "null" in its type instead, or leave the option nullable on/);
    const lax = {ajv: {customOptions: {strict: false}}};
    await plainReady({body}, lax);
    assert.match((await readyError({body}, off, lax)).message, /keyword "nullable" at \/properties\/note\/nullable: Fastify's ajv judges by it/);
    const limited = {type: 'string', format: 'date', formatMaximum: '2024-01-01'};
    await plainReady({body: limited}, lax);
    assert.match((await readyError({body: limited}, {}, lax)).message, /keyword "formatMaximum"/);
  });

  it('nullable where ajv refuses it: without type, or false beside a type that lists null', async () => {
    for (const body of [{type: 'object', properties: {note: {nullable: true}}}, {type: 'object', properties: {note: {type: ['string', 'null'], nullable: false}}}]) {
      await assert.rejects(plainReady({body}));
      assert.match((await readyError({body})).message, /"nullable"/);
    }
  });

  it('a compiled validator where the plugin was given compile options, which it cannot take: the message says how to fix it', async () => {
    const error = await readyError({body: compile(roleSchema)}, {formats: 'assert', coerceTypes: false});
    assert.equal(error.code, 'FST_ERR_SCH_VALIDATION_BUILD');
    assert.match(error.message, /schema\.body is a compiled validator, which keeps the options compile\(\) gave it, so the plugin's formats, coerceTypes would not apply to it: pass them to compile\(schema, \{formats, coerceTypes\}\) instead/);
  });
});
