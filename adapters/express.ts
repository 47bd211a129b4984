// Express middleware (`stream-schema/express`): validate the request body while it streams in.
//
//   app.post('/users', validateBody(userSchema), (req, res) => { req.body.name ... });
//   app.use(problemHandler());
//
// `validateBody` replaces `express.json()` on its route. Errors go to `next(err)` as http-errors
// compatible objects; `problemHandler()` answers them as application/problem+json. Express's own
// final handler reads the rest of the request before answering (finalhandler drains it), so
// register `problemHandler()` or any handler that answers at once to get the early rejection.

import type {IncomingMessage, ServerResponse} from 'node:http';

import type {ErrorRequestHandler, NextFunction, Request, Response} from 'express';
import type {SchemaOrValidator, SchemaOutput, TypingOptions, ValidValue} from '../src/types.js';

import {
  BodyReader,
  NO_BODY,
  PROBLEM_CONTENT_TYPE,
  PartsValidator,
  errorHeaders,
  httpStatusOf,
  toProblem,
  type BodyOptions,
  type PartsOptions,
  type ProblemOptions,
} from './http-body.js';
import {optionsArgument} from '../src/session/options.js';

export {HttpError, parseLimit, toProblem} from './http-body.js';
export type {BodyOptions, BodyTimeout, PartsOptions, ProblemDocument, ProblemItem, ProblemOptions} from './http-body.js';

/** `next` as Express passes it. */
type Next = (error?: unknown) => void;

/**
 * The middleware `validateBody` returns. Its `req` names only `body`, so that on a route
 * (`app.post('/users/:id', validateBody(schema), handler)`) Express's types take `req.body`
 * from it while path parameters, query and locals keep their own inference.
 */
export type BodyHandler<Body> = (req: IncomingMessage & {body: Body}, res: ServerResponse, next: Next) => void;

/**
 * The middleware `validate` returns; the same trick for `req.params` and `req.query`, each named
 * only when a schema gives it a type.
 */
export type PartsHandler<ParamsSchema, QuerySchema, Params = SchemaOutput<ParamsSchema>, Query = SchemaOutput<QuerySchema>> = (
  req: IncomingMessage & Typed<'params', ParamsSchema, Params> & Typed<'query', QuerySchema, Query>,
  res: ServerResponse,
  next: Next,
) => void;

type Typed<Name extends string, S, T> = [S] extends [undefined] ? unknown : {[key in Name]: T};

/**
 * Reads, decodes and validates the request body while it arrives; on success `req.body` is the
 * parsed value (as `JSON.parse` would give it). Throws SchemaError at once for a bad schema.
 *
 * An `as const` schema, or a validator compiled from one, types `req.body` through
 * json-schema-to-ts (external `$ref`s through `schemas`, defaults present with `useDefaults`).
 * The type is computed in a defaulted type parameter (`T = ValidValue<S, ...>`): json-schema-to-ts's
 * "deferred" form, which keeps TypeScript from instantiating it too early and failing with TS2589.
 */
export function validateBody<
  const S extends SchemaOrValidator,
  const Schemas extends Record<string, unknown> = {},
  const Defaults extends boolean | 'empty' = false,
  T = ValidValue<S, Schemas, Defaults>,
>(schema: S, options?: BodyOptions & TypingOptions<Schemas, Defaults>): BodyHandler<T>;
export function validateBody(schema: SchemaOrValidator, options?: BodyOptions): BodyHandler<unknown>;
export function validateBody(schema: unknown, given?: BodyOptions): BodyHandler<unknown> {
  const options = optionsArgument(given, 'validateBody');
  const reader = new BodyReader(schema, options);
  return function validateBodyMiddleware(req: Request, res: Response, next: NextFunction): void {
    reader.read(req, res, (error, body) => {
      if (error !== null) return next(error);
      if (body !== NO_BODY) req.body = body;
      next();
    });
  } as unknown as BodyHandler<unknown>;
}

/** Schemas for the already-parsed parts of a request. */
export interface PartSchemas<Q, P, H> {
  query?: Q;
  params?: P;
  headers?: H;
}


/**
 * Validates `req.query`, `req.params` and `req.headers` in value mode (they are parsed already).
 * Their values are strings (a repeated query parameter an array of strings; header names
 * lower-cased): they are coerced to the declared types (`?limit=10` to 10 under `{type:
 * 'integer'}`, `?tag=a` to `['a']` under `{type: 'array'}`) and the handler gets the coerced
 * values, unless `coerceTypes: false`. Fails with 400 `request.validation.failed`, pointers
 * prefixed by the part (`#/query/limit`).
 */
export function validate<
  const Q = undefined,
  const P = undefined,
  const H = undefined,
  const Schemas extends Record<string, unknown> = {},
  Params = SchemaOutput<P, Schemas>,
  Query = SchemaOutput<Q, Schemas>,
>(schemas: PartSchemas<Q, P, H>, options?: PartsOptions & {schemas?: Schemas}): PartsHandler<P, Q, Params, Query> {
  const parts = new PartsValidator(schemas, optionsArgument(options, 'validate'));
  return function validateMiddleware(req: Request, _res: Response, next: NextFunction): void {
    const values = {query: req.query, params: req.params, headers: req.headers};
    const error = parts.check(values);
    if (error === undefined) {
      // Express 5 parses req.query anew at each read: the handler is given the object judged, as
      // the value options (coerceTypes, useDefaults, removeAdditional) left it.
      Object.defineProperty(req, 'query', {value: values.query, writable: true, configurable: true, enumerable: true});
      req.params = values.params as Request['params'];
    }
    next(error);
  } as unknown as PartsHandler<P, Q, Params, Query>;
}

/**
 * An error handler that answers any 4xx/5xx error (ours, http-errors', body-parser's) as
 * `application/problem+json` (RFC 9457), with at most `maxErrors` entries in `errors`. Other
 * errors, and errors after the response has started, go on to the next handler.
 */
export function problemHandler(given?: ProblemOptions): ErrorRequestHandler {
  const options = optionsArgument(given, 'problemHandler');
  return function problemMiddleware(error: unknown, _req: Request, res: Response, next: NextFunction): void {
    const status = httpStatusOf(error);
    if (status === undefined || res.headersSent) return next(error);
    for (const [name, value] of errorHeaders(error)) res.setHeader(name, value);
    // Plain Node rather than res.send: no ETag or freshness check for an error document.
    const body = JSON.stringify(toProblem(error, status, options));
    res.statusCode = status;
    res.setHeader('Content-Type', `${PROBLEM_CONTENT_TYPE}; charset=utf-8`);
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(body);
  };
}
