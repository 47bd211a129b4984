// Koa middleware (`stream-schema/koa`): validate the request body while it streams in.
//
//   router.post('/users', validateBody(userSchema), (ctx) => { ctx.request.body.name ... });
//   app.use(problemHandler());   // first, so it wraps everything after it
//
// `validateBody` replaces a body parser (koa-bodyparser, @koa/bodyparser) on its route. Errors
// are thrown as http-errors compatible objects, which Koa's own `ctx.onerror` answers too (it
// honours `err.status`, `err.expose` and `err.headers`); `problemHandler()` answers them as
// application/problem+json.

import type {IncomingMessage, ServerResponse} from 'node:http';

import type {SchemaOrValidator, TypingOptions, ValidValue} from '../src/types.js';
import type {Context, Middleware, Next} from 'koa';

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

/**
 * The middleware `validateBody` returns. Its context names only what it touches, so that on a
 * route (`router.post('/users/:id', auth, validateBody(schema), handler)`) `ctx.request.body`
 * gets its type from it while the router's context type stays. (An inline arrow middleware
 * before it needs its `ctx` annotated, e.g. `Koa.Context`, or `validateBody(...)` hoisted into a
 * const: TypeScript cannot infer the route's context from two context-sensitive arguments.)
 */
export type BodyMiddleware<Body> = (ctx: {req: IncomingMessage; res: ServerResponse; request: {body: Body}}, next: Next) => Promise<void>;

/**
 * Reads, decodes and validates the request body while it arrives; on success
 * `ctx.request.body` is the parsed value (as `JSON.parse` would give it). Throws SchemaError at
 * once for a bad schema.
 *
 * An `as const` schema, or a validator compiled from one, types `ctx.request.body` through
 * json-schema-to-ts (external `$ref`s through `schemas`, defaults present with `useDefaults`), in
 * its deferred form (`T = ValidValue<S, ...>` as a defaulted type parameter) that avoids TS2589.
 */
export function validateBody<
  const S extends SchemaOrValidator,
  const Schemas extends Record<string, unknown> = {},
  const Defaults extends boolean | 'empty' = false,
  T = ValidValue<S, Schemas, Defaults>,
>(schema: S, options?: BodyOptions & TypingOptions<Schemas, Defaults>): BodyMiddleware<T>;
export function validateBody(schema: SchemaOrValidator, options?: BodyOptions): BodyMiddleware<unknown>;
export function validateBody(schema: unknown, given?: BodyOptions): BodyMiddleware<unknown> {
  const options = optionsArgument(given, 'validateBody');
  const reader = new BodyReader(schema, options);
  return async function validateBodyMiddleware(ctx: {req: IncomingMessage; res: ServerResponse; request: {body: unknown}}, next: Next): Promise<void> {
    const request = ctx.request;
    const body = await reader.readAsync(ctx.req, ctx.res, () => request.body);
    if (body !== NO_BODY) request.body = body;
    await next();
  };
}

/** Schemas for the already-parsed parts of a request. */
export interface PartSchemas {
  query?: unknown;
  params?: unknown;
  headers?: unknown;
}

/**
 * Validates `ctx.query`, `ctx.params` (from @koa/router) and `ctx.headers` in value mode. Their
 * values are strings (a repeated query parameter an array of strings; header names lower-cased):
 * they are coerced to the declared types (`?limit=10` to 10 under `{type: 'integer'}`, `?tag=a` to
 * `['a']` under `{type: 'array'}`) and the handler gets the coerced values, unless `coerceTypes:
 * false`. Throws 400 `request.validation.failed` with pointers prefixed by the part
 * (`#/query/limit`).
 */
export function validate(schemas: PartSchemas, given?: PartsOptions): Middleware {
  const options = optionsArgument(given, 'validate');
  const parts = new PartsValidator(schemas, options);
  return async function validateMiddleware(ctx: Context, next: Next): Promise<void> {
    const params = (ctx as {params?: unknown}).params ?? {};
    // Value mode changes each part in place, and Koa keeps the query object it parsed for the
    // query string (its `ctx.query` setter would write the values back as text): the handler
    // reads the same, changed, objects.
    const error = parts.check({query: ctx.query, params, headers: ctx.headers});
    if (error !== undefined) throw error;
    await next();
  };
}

/**
 * Answers any 4xx/5xx error thrown further down (ours, http-errors', `ctx.throw`'s) as
 * `application/problem+json` (RFC 9457), with at most `maxErrors` entries in `errors`. Register
 * it before the routes. Other errors are rethrown to Koa.
 */
export function problemHandler(given?: ProblemOptions): Middleware {
  const options = optionsArgument(given, 'problemHandler');
  return async function problemMiddleware(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } catch (error) {
      const status = httpStatusOf(error);
      if (status === undefined || ctx.headerSent) throw error;
      for (const [name, value] of errorHeaders(error)) ctx.set(name, value);
      ctx.status = status;
      ctx.type = PROBLEM_CONTENT_TYPE;
      ctx.body = JSON.stringify(toProblem(error, status, options));
    }
  };
}
