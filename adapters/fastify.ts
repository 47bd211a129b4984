// Fastify plugin (`stream-schema/fastify`): each route's `schema.body` checked while the body
// streams in.
//
//   await app.register(streamSchema, {formats: 'assert'});
//   app.post('/users', {schema: {body: userSchema}}, async (request) => request.body);
//
// Fastify's own JSON parser reads the whole body and its validation judges it afterwards. The
// plugin takes over both for JSON bodies: a content-type parser for `application/json` and
// `application/*+json` feeds the request to a validator session and stops reading at the first
// byte that makes the body certainly bad, and the validator compiler hands `schema.body` to
// stream-schema (compiled once per route) while querystring, params and headers stay with
// Fastify's ajv, exactly as without the plugin.
//
// A schema violation is answered by Fastify's validation step itself, so its 400
// (`FST_ERR_VALIDATION`, `validation`, `validationContext: 'body'`), a custom
// `schemaErrorFormatter` and `attachValidation` work as usual. The other refusals come from the
// parser with the `FST_ERR_CTP_*` code Fastify gives the same condition.

import type {IncomingMessage, ServerResponse} from 'node:http';
import {createRequire} from 'node:module';

import type {
  FastifyInstance,
  FastifyPluginCallback,
  FastifyReply,
  FastifyRequest,
  FastifySchemaCompiler,
  FastifySchemaValidationError,
  HookHandlerDoneFunction,
} from 'fastify';

import type {OutputUnit, Validator} from '../src/types.js';
import {BodyReader, HttpError, NO_BODY, contentLength, hasBody, internalError, parseLimit, type BodyOptions} from './http-body.js';

export {HttpError} from './http-body.js';

export interface FastifyBodyOptions extends Omit<BodyOptions, 'type' | 'invalidStatus'> {
  /**
   * Most bytes of (decompressed) JSON body. Fastify's `bodyLimit` (the route's, else the
   * server's) applies too: the smaller of the two wins.
   */
  limit?: number | string;
  /** Only objects and arrays at the top level (default false: any JSON value, as Fastify's JSON parser takes). */
  strict?: boolean;
}

/** The reader's HttpError with the `code` Fastify gives the same condition, where it has one. */
export type FastifyBodyError = HttpError & {code?: string};

/** What Fastify's validation step calls for the body (a FastifyValidationResult). */
type BodyValidation = (data: unknown) => true | {error: FastifySchemaValidationError[]};

/** A validator compiler as Fastify calls it: one route part's schema in, its validation out. */
type ValidatorCompiler = (route: Parameters<FastifySchemaCompiler<unknown>>[0]) => unknown;

/** `compilersFactory.buildValidator`: called by Fastify with the shared schemas and the server's `ajv` option. */
type ValidatorBuilder = (externalSchemas: Record<string, unknown>, ajvOptions: unknown) => ValidatorCompiler;

/**
 * The same, as Fastify's types name it: @fastify/ajv-compiler's type, whose compiler takes a bare
 * schema, while Fastify calls it with the route part (FastifySchemaCompiler's argument).
 */
type FastifyValidatorBuilder = NonNullable<NonNullable<Parameters<FastifyInstance['setSchemaController']>[0]['compilersFactory']>['buildValidator']>;

type ParserDone = (error: Error | null, body?: unknown) => void;

/** Fastify's `onProtoPoisoning` / `onConstructorPoisoning`. */
type PoisoningAction = 'error' | 'remove' | 'ignore';

/** `application/*+json` (RFC 6839 §3.1), matched against Fastify's normalized Content-Type. */
const JSON_SUFFIX_TYPE = /^application\/[^\s;/]+\+json(?:;|$)/;

/** The media types of `schema.body.content` entries the parser reads; the others stay with Fastify's ajv. */
const JSON_MEDIA_TYPE = /^application\/(?:json|[^\s;/]+\+json)$/;

/** Fastify's codes for the same conditions, so error handlers written for its JSON parser keep working. */
const FASTIFY_CODES: Readonly<Record<string, string>> = {
  'entity.parse.failed': 'FST_ERR_CTP_INVALID_JSON_BODY',
  'entity.too.large': 'FST_ERR_CTP_BODY_TOO_LARGE',
  // Fastify's code for any 415; RFC 9110 §15.5.16 covers an unsupported content coding with it too.
  'charset.unsupported': 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
  'encoding.unsupported': 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
};

/** Every body validation this module compiled, by the function Fastify keeps for the route. */
const bodySchemas = new WeakMap<BodyValidation, BodySchema>();

/**
 * Bodies the parser refused for a schema violation before their end, each a frozen empty
 * object standing in for the body, with the errors for Fastify's validation step to report.
 */
const refusals = new WeakMap<object, FastifySchemaValidationError[]>();

/** One schema's BodyReaders, one per limit: a BodyReader's limit is fixed, and routes differ in `bodyLimit`. */
class Readers {
  readonly #schema: unknown;
  readonly #options: BodyOptions;
  readonly #byLimit = new Map<number, BodyReader>();
  /** The schema compiled for value mode, from the first reader. */
  readonly validator: Validator;

  /** Compiles the schema now, so that a bad one fails `ready()` rather than a request. */
  constructor(schema: unknown, options: BodyOptions, limit: number) {
    this.#schema = schema;
    this.#options = options;
    this.validator = this.readerFor(limit).validator;
  }

  readerFor(limit: number): BodyReader {
    let reader = this.#byLimit.get(limit);
    if (reader === undefined) {
      reader = new BodyReader(this.#schema, {...this.#options, limit});
      this.#byLimit.set(limit, reader);
    }
    return reader;
  }
}

/** A route's `schema.body`, or one JSON entry of its `schema.body.content`. */
class BodySchema {
  readonly readers: Readers;
  /** Bodies the parser read and found valid, which Fastify's validation step then need not judge again. */
  readonly #valid = new WeakSet<object>();
  readonly validation: BodyValidation;

  constructor(readers: Readers) {
    this.readers = readers;
    this.validation = (data) => {
      const refused = refusals.get(data as object);
      if (refused !== undefined) return {error: refused};
      if (typeof data === 'object' && data !== null && this.#valid.has(data)) return true;
      // A body another parser made, or a preValidation hook put there: judged in value mode.
      const result = readers.validator.validate(data);
      return result.valid ? true : {error: result.errors.map(toValidationError)};
    };
    bodySchemas.set(this.validation, this);
  }

  markValid(body: unknown): void {
    if (typeof body === 'object' && body !== null) this.#valid.add(body);
  }
}

/** The plugin's state in the scope it was registered in. */
class JsonBodies {
  readonly #options: BodyOptions;
  /** The plugin's `limit`, or Infinity: each request takes the smaller of it and the route's `bodyLimit`. */
  readonly #limit: number;
  /** The limit of a route without its own `bodyLimit`, for which each schema is compiled at start. */
  readonly #usualLimit: number;
  /** For routes without a body schema of ours: well-formed JSON is all that is asked. */
  readonly #plain: Readers;
  readonly #protoAction: PoisoningAction;
  readonly #constructorAction: PoisoningAction;
  /** Fastify's ajv builder for the other parts, loaded once the first of them is compiled. */
  #ajvBuilder: ValidatorBuilder | undefined;
  /** The parser is given the request but not the reply, whose response an early refusal must close. */
  readonly #responses = new WeakMap<IncomingMessage, ServerResponse>();

  constructor(fastify: FastifyInstance, options: FastifyBodyOptions) {
    const {limit, strict, ...rest} = options;
    // Fastify routed the request here by its Content-Type already.
    this.#options = {...rest, strict: strict ?? false, invalidStatus: 400, type: () => true};
    this.#limit = limit === undefined ? Infinity : parseLimit(limit);
    this.#usualLimit = Math.min(this.#limit, fastify.initialConfig.bodyLimit ?? DEFAULT_BODY_LIMIT);
    this.#plain = new Readers(true, this.#options, this.#usualLimit);
    this.#protoAction = fastify.initialConfig.onProtoPoisoning ?? 'error';
    this.#constructorAction = fastify.initialConfig.onConstructorPoisoning ?? 'error';
  }

  install(fastify: FastifyInstance): void {
    // A new schema controller under the current one: only the validator builder changes, and
    // Fastify still treats the compiler as its default (it lowercases header schemas' names).
    fastify.setSchemaController({compilersFactory: {buildValidator: this.#buildValidator as unknown as FastifyValidatorBuilder}});
    fastify.addContentTypeParser('application/json', this.#parse);
    fastify.addContentTypeParser(JSON_SUFFIX_TYPE, this.#parse);
    fastify.addHook('onRequest', this.#rememberResponse);
  }

  #buildValidator: ValidatorBuilder = (externalSchemas, ajvOptions) => {
    let ajv: ValidatorCompiler | undefined;
    const options: BodyOptions = {...this.#options, schemas: {...externalSchemas, ...this.#options.schemas}};
    return (route) => {
      if (route.httpPart !== 'body' || !isJsonMediaType(route.contentType)) {
        ajv ??= (this.#ajvBuilder ??= fastifyDefaultValidatorBuilder())(externalSchemas, ajvOptions);
        return ajv(route);
      }
      return new BodySchema(new Readers(route.schema, options, this.#usualLimit)).validation;
    };
  };

  #rememberResponse = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    this.#responses.set(request.raw, reply.raw);
    done();
  };

  #parse = (request: FastifyRequest, payload: IncomingMessage, done: ParserDone): void => {
    try {
      this.#read(request, payload, done);
    } catch (thrown) {
      done(internalError(thrown));
    }
  };

  #read(request: FastifyRequest, payload: IncomingMessage, done: ParserDone): void {
    const req = request.raw;
    const res = this.#responses.get(req);
    if (payload !== req || res === undefined) {
      // The bytes a preParsing hook's stream gives are not the request's: reading the request
      // would judge the wrong body, and reading that stream would lose the early refusal.
      return done(internalError(new Error('a preParsing hook replaced the payload stream'), 'stream-schema reads the request body itself'));
    }
    const schema = bodySchemaOf(request);
    const limit = Math.min(this.#limit, request.routeOptions.bodyLimit);
    const reader = (schema?.readers ?? this.#plain).readerFor(limit);
    reader.read(req, res, (error, body) => {
      if (error === null) return this.#accept(schema, body, done);
      // Fastify's validation step answers it (see BodySchema.validation).
      if (schema !== undefined && error.type === 'entity.validation.failed') return done(null, refusedBody(error.errors));
      done(withFastifyCode(error, req));
    });
  }

  #accept(schema: BodySchema | undefined, body: unknown, done: ParserDone): void {
    if (body === NO_BODY) return done(null, undefined);
    if (!withoutPoisonedPrototypes(body, this.#protoAction, this.#constructorAction)) return done(prototypeRefused());
    schema?.markValid(body);
    done(null, body);
  }
}

/** Fastify's default `bodyLimit`. */
const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** The body schema of ours that Fastify's validation step will use for this request, if any. */
function bodySchemaOf(request: FastifyRequest): BodySchema | undefined {
  const validation: unknown = request.getValidationFunction('body');
  if (typeof validation === 'function') return bodySchemas.get(validation as BodyValidation);
  // `schema.body.content`: one validation per media type, chosen as Fastify's validation step does.
  const mediaType = request.mediaType;
  if (typeof validation !== 'object' || validation === null || mediaType === undefined || !Object.hasOwn(validation, mediaType)) return undefined;
  return bodySchemas.get((validation as Record<string, BodyValidation>)[mediaType]!);
}

function isJsonMediaType(contentType: string | undefined): boolean {
  return contentType === undefined || JSON_MEDIA_TYPE.test(contentType.split(';')[0]!.trim().toLowerCase());
}

function refusedBody(errors: OutputUnit[]): object {
  const stand = Object.freeze(Object.create(null) as object);
  refusals.set(stand, errors.map(toValidationError));
  return stand;
}

/** An output unit as Fastify's validation errors are shaped (ajv's): `schemaPath` is a URI fragment. */
function toValidationError(unit: OutputUnit): FastifySchemaValidationError {
  return {
    keyword: unit.keyword,
    instancePath: unit.instanceLocation,
    schemaPath: '#' + unit.keywordLocation,
    params: unit.params ?? {},
    message: unit.error,
  };
}

function withFastifyCode(error: HttpError, req: IncomingMessage): FastifyBodyError {
  const code = error.type === 'entity.parse.failed' && !hasBody(req, contentLength(req)) ? 'FST_ERR_CTP_EMPTY_JSON_BODY' : FASTIFY_CODES[error.type];
  if (code !== undefined) (error as FastifyBodyError).code = code;
  return error;
}

/**
 * Fastify's JSON parser refuses (or strips) a `__proto__` key and a `constructor` object with a
 * `prototype` key, which a later merge into another object would turn into prototype pollution.
 * JSON.parse makes them plain own properties, so the value is walked once here; false when one
 * is found and the action is 'error'.
 */
function withoutPoisonedPrototypes(value: unknown, protoAction: PoisoningAction, constructorAction: PoisoningAction): boolean {
  if (protoAction === 'ignore' && constructorAction === 'ignore') return true;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node !== 'object' || node === null) continue;
    const object = node as Record<string, unknown>;
    if (protoAction !== 'ignore' && Object.hasOwn(object, '__proto__')) {
      if (protoAction === 'error') return false;
      delete object['__proto__'];
    }
    if (constructorAction !== 'ignore' && isPoisonedConstructor(object)) {
      if (constructorAction === 'error') return false;
      delete object['constructor'];
    }
    for (const key in object) pending.push(object[key]);
  }
  return true;
}

function isPoisonedConstructor(object: Record<string, unknown>): boolean {
  if (!Object.hasOwn(object, 'constructor')) return false;
  const constructor = object['constructor'];
  return typeof constructor === 'object' && constructor !== null && Object.hasOwn(constructor, 'prototype');
}

function prototypeRefused(): FastifyBodyError {
  const error: FastifyBodyError = new HttpError(400, 'entity.parse.failed', 'request body has a forbidden prototype property');
  error.code = 'FST_ERR_CTP_INVALID_JSON_BODY';
  return error;
}

/**
 * The validator builder Fastify uses when none is configured, loaded from Fastify's own
 * dependencies so that querystring, params and headers are compiled by the same ajv, with the
 * same options, as without the plugin.
 */
function fastifyDefaultValidatorBuilder(): ValidatorBuilder {
  const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
  const ajvCompiler = fromFastify('@fastify/ajv-compiler') as () => ValidatorBuilder;
  return ajvCompiler();
}

function register(fastify: FastifyInstance, options: FastifyBodyOptions, done: (error?: Error) => void): void {
  let bodies: JsonBodies;
  try {
    bodies = new JsonBodies(fastify, options);
    bodies.install(fastify);
  } catch (thrown) {
    return done(thrown as Error);
  }
  done();
}

/**
 * The plugin. It applies to the scope it is registered in (as fastify-plugin's `skip-override`
 * does): register it before the routes, or at least before the plugins that declare them.
 */
export const streamSchema: FastifyPluginCallback<FastifyBodyOptions> = Object.assign(register, {
  [Symbol.for('skip-override')]: true,
  [Symbol.for('fastify.display-name')]: 'stream-schema',
  [Symbol.for('plugin-meta')]: {name: 'stream-schema', fastify: '5.x'},
});

export default streamSchema;
