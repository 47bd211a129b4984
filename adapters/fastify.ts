// Fastify plugin (`stream-schema/fastify`): each route's `schema.body` checked while the body
// streams in.
//
//   await app.register(streamSchema);
//   app.post('/users', {schema: {body: userSchema}}, async (request) => request.body);
//
// Fastify's own JSON parser reads the whole body and its validation judges it afterwards. The
// plugin takes over both for JSON bodies: a content-type parser for `application/json` (and the
// `application/*+json` types a route's `schema.body.content` lists) feeds the request to a
// validator's `session()` and stops reading at the first byte that makes the body certainly bad, and
// the validator compiler hands `schema.body` to stream-schema (compiled once per route) while
// querystring, params and headers stay with Fastify's ajv (or the app's own validator builder),
// exactly as without the plugin.
//
// A body schema is compiled as Fastify's ajv would judge it (adapters/fastify-ajv.ts): its
// defaults (`coerceTypes: 'array'`, `useDefaults`, `removeAdditional`, ajv-formats' formats
// asserted, strict schemas), then the server's `ajv.customOptions`, then the plugin's own options.
// The handler gets the value so changed, as with Fastify's validation.
//
// A schema violation is answered by Fastify's validation step itself, so its 400
// (`FST_ERR_VALIDATION`, `validation`, `validationContext: 'body'`), a custom
// `schemaErrorFormatter` and `attachValidation` work as usual. The other refusals come from the
// parser with the `FST_ERR_CTP_*` code Fastify gives the same condition.
//
// Fastify validates the body its lifecycle made, not the bytes: the parser's value, stripped of
// poisoned keys, then changed by any `preValidation` hook (handle-request.js). The stream's
// verdict is Fastify's only where that body is the one the bytes give; see JsonBodies#read.

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

import {ArgumentError, isValidator} from '../src/index.js';
import type {OutputUnit, Validator} from '../src/types.js';
import {explainedSchemaError, refuseAjvOnlyKeywords, withFastifyOptions, type AjvFormatsModule, type FastifyAjvOptions} from './fastify-ajv.js';
import {BodyReader, HttpError, NO_BODY, contentLength, hasBody, internalError, parseLimit, type BodyOptions} from './http-body.js';
import {compileOptions, refuseMediaType, shortDetail, shortPointer} from './http-errors.js';
import {compileOptionsOf} from './validator-cache.js';
import {optionsArgument} from '../src/session/options.js';

export {HttpError} from './http-body.js';

/**
 * The plugin's options. Its compile options (`coerceTypes`, `useDefaults`, `removeAdditional`,
 * `formats`, `customFormats`, `strictSchema`, `nullable`, `allErrors`, `draft`, …) default to what Fastify's
 * validation does (its ajv defaults and the server's `ajv.customOptions`), and replace them where
 * given: `{coerceTypes: false, useDefaults: false, removeAdditional: false}` judges bodies as sent.
 */
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

/**
 * What Fastify's validation step calls for the body (a FastifyValidationResult): `value` replaces
 * the body (validation.js), as ajv's coercion of a root scalar does there.
 */
type BodyValidation = (data: unknown) => true | {value: unknown} | {error: FastifySchemaValidationError[]};

/** A validator compiler as Fastify calls it: one route part's schema in, its validation out. */
type ValidatorCompiler = (route: Parameters<FastifySchemaCompiler<unknown>>[0]) => unknown;

/** `compilersFactory.buildValidator`: called by Fastify with the shared schemas and the server's `ajv` option. */
type ValidatorBuilder = (externalSchemas: Record<string, unknown>, ajvOptions: FastifyAjvOptions | undefined) => ValidatorCompiler;

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
  'entity.type.unsupported': 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
};

/**
 * A request whose media type the route does not take. Fastify has no parser for
 * `application/*+json` (content-type-parser.js, `run`), so it answers 415 for one on every route;
 * the plugin does too, except where the route's `schema.body.content` lists that very type, whose
 * entry then judges it. A `schema.body.content` that does not list the request's media type makes
 * Fastify's validation step judge nothing (validation.js picks the entry by exact media type), and
 * Fastify passes an `application/json` body on unjudged: the plugin refuses it with Fastify's 415
 * as well, since a body that no schema of the route judges does not reach it.
 */
const UNLISTED = Symbol('unlisted media type');

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

/** A route's `schema.body`, or one entry of its `schema.body.content`. */
class BodySchema {
  readonly readers: Readers;
  /**
   * The body the parser handed over with the stream's verdict "valid", until its validation.
   * Only for routes where nothing can change the body on its way to Fastify's validation step,
   * which runs in the same synchronous call as the parser's done (see JsonBodies#read): the object
   * itself stands for its verdict there, and one slot holds it. A body whose validation did not
   * follow is pushed out by the next, and judged in value mode if it ever comes.
   */
  #handedOver: object = NOTHING_HANDED_OVER;
  readonly validation: BodyValidation;

  constructor(readers: Readers) {
    this.readers = readers;
    this.validation = (data) => {
      // The stream judged it and the parser handed on the value the value options made.
      if (data === this.#handedOver) {
        this.#handedOver = NOTHING_HANDED_OVER;
        return true;
      }
      const refused = refusals.get(data as object);
      if (refused !== undefined) return {error: refused};
      // A body another parser made, or one the lifecycle may have changed: judged as it is now,
      // and changed in place; a root scalar the options change is replaced.
      const result = readers.validator.validate(data);
      return result.valid ? {value: result.value} : {error: result.errors.map(toValidationError)};
    };
    bodySchemas.set(this.validation, this);
  }

  markValid(body: unknown): void {
    if (typeof body === 'object' && body !== null) this.#handedOver = body;
  }
}

/** No body: an object no parser hands on. */
const NOTHING_HANDED_OVER: object = Object.freeze({});

/** The plugin's state in the scope it was registered in. */
class JsonBodies {
  /** The plugin's options as the reader takes them, its compile options among them. */
  readonly #options: BodyOptions;
  /** The compile options the plugin was given, by the names compile reads (`strictSchema` as `strict`). */
  readonly #givenCompileOptions: string[];
  /** The plugin's `limit`, or Infinity: each request takes the smaller of it and the route's `bodyLimit`. */
  readonly #limit: number;
  /** The limit of a route without its own `bodyLimit`, for which each schema is compiled at start. */
  readonly #usualLimit: number;
  /** For routes without a body schema of ours, or whose body Fastify judges later: well-formed JSON is all that is asked. */
  readonly #plain: Readers;
  /** For a media type the route's `schema.body.content` does not list: refused from the head. */
  readonly #unlisted: Readers;
  readonly #protoAction: PoisoningAction;
  readonly #constructorAction: PoisoningAction;
  /**
   * Either action is 'remove': a body's bytes may then hold keys its value will not, and a verdict
   * on the bytes (above all an early refusal, made before the key that would be removed is
   * seen) is not a verdict on that value. Such a server's bodies are judged after the removal.
   */
  readonly #removesKeys: boolean;
  /**
   * The validator builder of the scope the plugin was registered in, for the other parts: Fastify's
   * ajv, or the server's own `schemaController`'s; loaded once the first of them is compiled.
   */
  #ajvBuilder: ValidatorBuilder | undefined;
  constructor(fastify: FastifyInstance, options: FastifyBodyOptions) {
    // Fastify chooses a route's parser by the media type, and answers a violation 400: options
    // that would say otherwise are refused rather than ignored.
    for (const name of ['type', 'invalidStatus'] as const) {
      if ((options as BodyOptions)[name] !== undefined) {
        throw new ArgumentError(`option ${name}: the plugin takes the media types Fastify routes to it, and answers a schema violation 400 as Fastify does; validateBody's ${name} is not the plugin's`);
      }
    }
    const {limit, strict, ...rest} = options;
    // Fastify routed the request here by its Content-Type already.
    this.#options = {...rest, strict: strict ?? false, invalidStatus: 400, type: () => true};
    this.#givenCompileOptions = Object.keys(compileOptionsOf(compileOptions(rest)));
    if (rest.inexactNumbers !== undefined) this.#givenCompileOptions.push('inexactNumbers');
    this.#limit = limit === undefined ? Infinity : parseLimit(limit);
    this.#usualLimit = Math.min(this.#limit, fastify.initialConfig.bodyLimit ?? DEFAULT_BODY_LIMIT);
    this.#plain = new Readers(true, this.#options, this.#usualLimit);
    this.#unlisted = new Readers(true, {...this.#options, type: refuseEvery}, this.#usualLimit);
    this.#protoAction = fastify.initialConfig.onProtoPoisoning ?? 'error';
    this.#constructorAction = fastify.initialConfig.onConstructorPoisoning ?? 'error';
    this.#removesKeys = this.#protoAction === 'remove' || this.#constructorAction === 'remove';
  }

  install(fastify: FastifyInstance): void {
    this.#ajvBuilder = validatorBuilderOf(fastify);
    // A new schema controller under the current one: only the validator builder changes, and
    // Fastify still treats the compiler as its default (it lowercases header schemas' names).
    fastify.setSchemaController({compilersFactory: {buildValidator: this.#buildValidator as unknown as FastifyValidatorBuilder}});
    fastify.addContentTypeParser('application/json', this.#parse);
    fastify.addContentTypeParser(JSON_SUFFIX_TYPE, this.#parse);
    fastify.addHook('onRequest', this.#rememberResponse);
  }

  #buildValidator: ValidatorBuilder = (externalSchemas, ajvOptions) => {
    let ajv: ValidatorCompiler | undefined;
    let schemaOptions: BodyOptions | undefined;
    return (route) => {
      const validator = isValidator(route.schema);
      if (route.httpPart !== 'body' || (!validator && !isJsonMediaType(route.contentType))) {
        // Fastify's ajv would read a validator as a schema (and overflow its stack on it).
        if (validator) throw new ArgumentError(`a compiled validator checks the body; ${route.httpPart ?? 'this part'} stays with Fastify's ajv and takes a JSON Schema`);
        ajv ??= (this.#ajvBuilder ??= fastifyDefaultValidatorBuilder())(externalSchemas, ajvOptions);
        return ajv(route);
      }
      if (validator) return new BodySchema(new Readers(route.schema, this.#optionsBesideValidator(), this.#usualLimit)).validation;
      // Made at the first body schema: what it refuses of the `ajv` option fails that route.
      schemaOptions ??= this.#schemaOptions(externalSchemas, ajvOptions);
      let readers: Readers;
      try {
        readers = new Readers(route.schema, schemaOptions, this.#usualLimit);
      } catch (thrown) {
        throw explainedSchemaError(thrown);
      }
      refuseAjvOnlyKeywords(readers.validator.warnings);
      return new BodySchema(readers).validation;
    };
  };

  /** Fastify's validation as compile options, the plugin's own on top; Fastify's shared schemas for `$ref`. */
  #schemaOptions(externalSchemas: Record<string, unknown>, ajvOptions: FastifyAjvOptions | undefined): BodyOptions {
    return {...withFastifyOptions(this.#options, ajvOptions, ajvFormatsOfFastify), schemas: {...externalSchemas, ...this.#options.schemas}};
  }

  /**
   * A compiled validator keeps the options compile() gave it; it resolved its references then too,
   * so Fastify's shared schemas are not for it either.
   *
   * @throws TypeError where the plugin was given compile options, which would not apply to it.
   */
  #optionsBesideValidator(): BodyOptions {
    const given = this.#givenCompileOptions;
    if (given.length === 0) return this.#options;
    throw new ArgumentError(
      `schema.body is a compiled validator, which keeps the options compile() gave it, so the plugin's ${given.join(', ')} would not apply to it: ` +
        `pass them to compile(schema, {${given.join(', ')}}) instead, give schema.body the JSON Schema itself for the plugin to compile, ` +
        'or register the plugin without them in a scope around the route',
    );
  }

  #rememberResponse = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    (request.raw as WithResponse)[RESPONSE] = reply.raw;
    done();
  };

  #parse = (request: FastifyRequest, payload: IncomingMessage, done: ParserDone): void => {
    try {
      this.#read(request, payload, done);
    } catch (thrown) {
      done(internalError(thrown));
    }
  };

  /**
   * Which reader takes the body decides what the stream's verdict means. The body Fastify's
   * validation step judges is the parser's value after two changes (handle-request.js: the
   * parser's done, then the route's preValidation hooks, then validation):
   * - poisoned keys removed: on a server that removes them (`'remove'`), the bytes are not the
   *   value, so the stream checks only well-formedness and limits and the validation step judges
   *   the value without them;
   * - a preValidation hook may change the body in place or replace it, and nothing tells that it
   *   did. On a route with one, the stream checks only well-formedness and limits, the hooks get
   *   the whole body as without the plugin, and the validation step judges what they left, in
   *   value mode. A route without one runs validation in the same synchronous call as the
   *   parser's done (no hook runner, no await in between), so the object handed over is the
   *   object validated, unchanged: the stream's verdict stands, and refuses at the first bad byte.
   */
  #read(request: FastifyRequest, payload: IncomingMessage, done: ParserDone): void {
    const req = request.raw;
    const res = (req as WithResponse)[RESPONSE];
    if (payload !== req || res === undefined) {
      // The bytes a preParsing hook's stream gives are not the request's: reading the request
      // would judge the wrong body, and reading that stream would lose the early refusal.
      return done(internalError(new Error('a preParsing hook replaced the payload stream'), 'stream-schema reads the request body itself'));
    }
    const limit = Math.min(this.#limit, request.routeOptions.bodyLimit);
    const schema = bodySchemaOf(request);
    if (schema === UNLISTED) return this.#refuseUnlisted(req, res, limit, done);
    const streamed = schema !== undefined && !this.#removesKeys && !hasPreValidationHooks(request) ? schema : undefined;
    const reader = (streamed?.readers ?? this.#plain).readerFor(limit);
    reader.read(req, res, (error, body) => {
      if (error === null) return this.#accept(streamed, body, done);
      // Fastify's validation step answers it (see BodySchema.validation).
      if (streamed !== undefined && error.type === 'entity.validation.failed') return done(null, refusedBody(error.errors));
      done(withFastifyCode(error, req));
    });
  }

  /** A 415 from the head, as Fastify's: before any byte of the body, even of an empty one. */
  #refuseUnlisted(req: IncomingMessage, res: ServerResponse, limit: number, done: ParserDone): void {
    const refusal = refuseMediaType(req.headers['content-type'], refuseEvery, req)!;
    if (!hasBody(req, contentLength(req))) return done(withFastifyCode(refusal, req));
    // The reader refuses it too, and leaves the connection fit for what follows the unread body.
    this.#unlisted.readerFor(limit).read(req, res, (error) => done(withFastifyCode(error ?? refusal, req)));
  }

  /** `streamed`: the body schema whose stream verdict ("valid") this body has, if any. */
  #accept(streamed: BodySchema | undefined, body: unknown, done: ParserDone): void {
    if (body === NO_BODY) return done(null, undefined);
    if (!withoutPoisonedPrototypes(body, this.#protoAction, this.#constructorAction)) return done(prototypeRefused());
    // `streamed` only where nothing is removed (#removesKeys): the value is the bytes the stream judged.
    streamed?.markValid(body);
    done(null, body);
  }
}

/**
 * The parser is given the request but not the reply, whose response an early refusal must close:
 * an `onRequest` hook leaves it on the request under this symbol, a property store where a
 * WeakMap entry per request would add to the collector's ephemeron work.
 */
const RESPONSE = Symbol('stream-schema: the response');

type WithResponse = IncomingMessage & {[RESPONSE]?: ServerResponse};

/** The media type test of a reader that takes none. */
const refuseEvery = (): boolean => false;

/** Fastify's default `bodyLimit`. */
const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * The body schema of ours that Fastify's validation step will use for this request, if any;
 * UNLISTED for a media type the route does not take (see UNLISTED).
 */
function bodySchemaOf(request: FastifyRequest): BodySchema | typeof UNLISTED | undefined {
  const validation: unknown = request.getValidationFunction('body');
  const mediaType = request.mediaType;
  if (typeof validation === 'object' && validation !== null) {
    // `schema.body.content`: one validation per media type, chosen as Fastify's validation step does.
    if (mediaType === undefined || !Object.hasOwn(validation, mediaType)) return UNLISTED;
    return bodySchemas.get((validation as Record<string, BodyValidation>)[mediaType]!);
  }
  if (mediaType !== 'application/json') return UNLISTED;
  return typeof validation === 'function' ? bodySchemas.get(validation as BodyValidation) : undefined;
}

/**
 * Fastify's symbol for the route context it keeps on each request (lib/symbols.js), from the
 * Fastify the plugin loads Fastify's ajv from. Fastify exposes no route's hooks otherwise:
 * `request.routeOptions` leaves them out, and an `onRoute` hook sees only those given in the
 * route's options, not the ones added with `addHook` around it.
 */
const ROUTE_CONTEXT = fastifySymbol('kRouteContext');

/**
 * Whether the request's route runs preValidation hooks. Fastify sets the route context's
 * `preValidation` once all plugins are loaded: null for none, else the hooks (route.js,
 * `preReady`). Anything else, as from a Fastify this plugin does not know, counts as hooks: the
 * body is then judged after them, which is right whatever they are.
 */
function hasPreValidationHooks(request: FastifyRequest): boolean {
  const context = ROUTE_CONTEXT === undefined ? undefined : (request as unknown as Record<symbol, {preValidation?: unknown} | undefined>)[ROUTE_CONTEXT];
  return context?.preValidation !== null;
}

function isJsonMediaType(contentType: string | undefined): boolean {
  return contentType === undefined || JSON_MEDIA_TYPE.test(contentType.split(';')[0]!.trim().toLowerCase());
}

function refusedBody(errors: OutputUnit[]): object {
  const stand = Object.freeze(Object.create(null) as object);
  refusals.set(stand, errors.map(toValidationError));
  return stand;
}

/**
 * An output unit as Fastify's validation errors are shaped (ajv's): `schemaPath` is a URI
 * fragment. Fastify's 400 message quotes `instancePath` and `message`, so both are cut as a
 * problem document's are: the body is never echoed.
 */
function toValidationError(unit: OutputUnit): FastifySchemaValidationError {
  return {
    keyword: unit.keyword,
    instancePath: shortPointer(unit.instanceLocation),
    schemaPath: '#' + unit.keywordLocation,
    params: unit.params ?? {},
    message: shortDetail(unit.error),
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
  if (typeof value !== 'object' || value === null) return true;
  // Only containers are pushed, and a JSON array has no keys but its indices: its items are read
  // by index.
  const pending: object[] = [value];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) pushContainer(pending, node[index]);
      continue;
    }
    const object = node as Record<string, unknown>;
    if (protoAction !== 'ignore' && Object.hasOwn(object, '__proto__')) {
      if (protoAction === 'error') return false;
      delete object['__proto__'];
    }
    if (constructorAction !== 'ignore' && isPoisonedConstructor(object)) {
      if (constructorAction === 'error') return false;
      delete object['constructor'];
    }
    for (const key in object) pushContainer(pending, object[key]);
  }
  return true;
}

function pushContainer(pending: object[], value: unknown): void {
  if (typeof value === 'object' && value !== null) pending.push(value);
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

/** Fastify's symbol for an instance's schema controller (lib/symbols.js), as ROUTE_CONTEXT. */
const SCHEMA_CONTROLLER = fastifySymbol('kSchemaController');

/**
 * The validator builder `fastify`'s scope has before the plugin replaces it (schema-controller.js,
 * `getValidatorBuilder`): a `schemaController` or `setValidatorCompiler` of the app's keeps
 * judging querystring, params and headers. Undefined where this Fastify does not show it.
 */
function validatorBuilderOf(fastify: FastifyInstance): ValidatorBuilder | undefined {
  const controller = SCHEMA_CONTROLLER === undefined ? undefined : (fastify as unknown as Record<symbol, {getValidatorBuilder?: () => unknown} | undefined>)[SCHEMA_CONTROLLER];
  const builder = controller?.getValidatorBuilder?.();
  return typeof builder === 'function' ? (builder as ValidatorBuilder) : undefined;
}

/**
 * The validator builder Fastify uses when none is configured, loaded from Fastify's own
 * dependencies so that querystring, params and headers are compiled by the same ajv, with the
 * same options, as without the plugin.
 */
function fastifyDefaultValidatorBuilder(): ValidatorBuilder {
  const ajvCompiler = requireFromFastify('@fastify/ajv-compiler') as () => ValidatorBuilder;
  return ajvCompiler();
}

/** The formats Fastify's ajv asserts: those of the ajv-formats its own compiler adds (validator-compiler.js). */
function ajvFormatsOfFastify(): AjvFormatsModule {
  return createRequire(fastifyRequire().resolve('@fastify/ajv-compiler'))('ajv-formats/dist/formats') as AjvFormatsModule;
}

/** One of Fastify's internal symbols, or undefined where this Fastify has no such module or name. */
function fastifySymbol(name: string): symbol | undefined {
  try {
    const symbol = (requireFromFastify('./lib/symbols.js') as Record<string, unknown>)[name];
    return typeof symbol === 'symbol' ? symbol : undefined;
  } catch {
    return undefined;
  }
}

function requireFromFastify(id: string): unknown {
  return fastifyRequire()(id);
}

/** `require` as Fastify's own modules have it, so that its dependencies are the ones it loads. */
function fastifyRequire(): NodeJS.Require {
  return createRequire(createRequire(import.meta.url).resolve('fastify'));
}

function register(fastify: FastifyInstance, options: FastifyBodyOptions, done: (error?: Error) => void): void {
  let bodies: JsonBodies;
  try {
    bodies = new JsonBodies(fastify, optionsArgument(options, 'streamSchema'));
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
