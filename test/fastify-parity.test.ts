// adapters/fastify.ts against plain Fastify 5: the same routes and the same requests on two real
// servers on 127.0.0.1, one with the plugin and one without, must get the same status, and for a
// 2xx the handler must have got the same body. Each case also states the status plain Fastify
// gives, so that a mistake both make cannot pass.
//
// Fastify's ajv does more than judge (coerceTypes 'array', useDefaults, removeAdditional), which
// the plugin does not copy; that difference is another issue's. The schemas here have no
// `default` and no `additionalProperties: false`, and no invalid body is one a coercion would
// make valid (an enum, minLength, a missing name, a count of properties), so ajv's extra work
// changes nothing here.

import assert from 'node:assert/strict';
import type {AddressInfo} from 'node:net';
import {after, before, describe, it} from 'node:test';

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

/** A plain Fastify server and one with the plugin (registered before the routes), filled in before the suite's tests. */
function servePair(serverOptions: FastifyServerOptions): {plain: Server; plugin: Server} {
  const pair = {} as {plain: Server; plugin: Server};
  before(async () => {
    const plain = Fastify(serverOptions);
    declareRoutes(plain, asSchema);
    const plugin = Fastify(serverOptions);
    plugin.register(streamSchema);
    declareRoutes(plugin, asValidator);
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
  const response = await fetch(origin + path, {method: 'POST', headers: {'content-type': type}, body});
  return {status: response.status, text: await response.text()};
}

interface Case {
  /** What the case protects. */
  name: string;
  path: string;
  type?: string;
  body: string;
  /** What plain Fastify answers. */
  status: number;
}

/** Each case as a test: plain Fastify answers `status`, and the plugin answers the same. */
function parity(pair: {plain: Server; plugin: Server}, cases: readonly Case[]): void {
  for (const {name, path, type = 'application/json', body, status} of cases) {
    it(`${name} (${status})`, async () => {
      const plain = await post(pair.plain.origin, path, type, body);
      const plugin = await post(pair.plugin.origin, path, type, body);
      assert.equal(plain.status, status, `plain Fastify: ${plain.text}`);
      assert.equal(plugin.status, plain.status, `with the plugin: ${plugin.text}; plain Fastify: ${plain.text}`);
      if (status < 300) assert.deepEqual(JSON.parse(plugin.text), JSON.parse(plain.text));
    });
  }
}

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

describe('a route schema the plugin cannot use fails ready()', SUITE_TIMEOUT, () => {
  async function readyError(schema: Record<string, unknown>, options: FastifyBodyOptions = {}): Promise<FastifyError> {
    const app = Fastify();
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

  it('a compiled validator where the plugin was given compile options, which it cannot take: the message says how to fix it', async () => {
    const error = await readyError({body: compile(roleSchema)}, {formats: 'assert', coerceTypes: false});
    assert.equal(error.code, 'FST_ERR_SCH_VALIDATION_BUILD');
    assert.match(error.message, /schema\.body is a compiled validator, which keeps the options compile\(\) gave it, so the plugin's formats, coerceTypes would not apply to it: pass them to compile\(schema, \{formats, coerceTypes\}\) instead/);
  });
});
