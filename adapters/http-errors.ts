// What the Express, Koa and web front doors share and what needs no Node API: the http-errors
// compatible HttpError, the verdict's errors as body-parser names them, problem details (RFC 9457),
// `limit` and media type parsing. Nothing here imports a `node:` module, so adapters/web.ts runs on
// runtimes without them (Bun, Deno, edge workers).
//
// Status codes and `type` strings follow body-parser, so error handlers written for
// `express.json()` keep working: 400 entity.parse.failed, 413 entity.too.large,
// 415 charset.unsupported / encoding.unsupported; plus 422 entity.validation.failed for a schema
// violation, 415 entity.type.unsupported for a Content-Type the route does not take, 408
// request.timeout for a body too slow to arrive and 400 entity.number.inexact for a number the
// handler could not get as it was judged. docs/security.md says what each bound protects against.

import {ArgumentError, isValidator} from '../src/index.js';
import type {CompileOptions, Limits, OutputUnit, Result, Validator} from '../src/types.js';

import {validatorFor} from './validator-cache.js';
import {optionsArgument} from '../src/session/options.js';

/**
 * Validator options, the same for `validateBody` and `validate`: compile's options, which go to
 * `compile`, but its `strict` named `strictSchema`, apart from body-parser's `strict`.
 */
export interface ValidatorOptions extends Omit<CompileOptions, 'strict'> {
  /** The validator's `strict` (unknown keywords: `true` a SchemaError, `'warn'` logged). */
  strictSchema?: CompileOptions['strict'];
}

/**
 * How a body is read, the same for every front door (the middleware's `validateBody`, the web's
 * `validateRequest`); `Request` is what a `type` predicate is given.
 */
export interface BodyParsingOptions<Request> extends ValidatorOptions {
  /**
   * Most bytes of body to accept, counted both as read from the connection and after decoding
   * its Content-Encoding: a number of bytes or a string like `'100kb'` (default `'100kb'`).
   */
  limit?: number | string;
  /**
   * How long reading one body may take, in milliseconds: `idle` with no byte arriving (default
   * 10 000), `total` from the start of reading to the body's end (default 30 000); 0 turns a
   * bound off. Past either: 408 `request.timeout`, and the connection closes.
   */
  timeout?: BodyTimeout;
  /**
   * The schema judges a number exactly on its text, but the handler gets `JSON.parse`'s double.
   * `'reject'` (default) refuses, with 400 `entity.number.inexact`, a number that double would
   * change in kind: ±Infinity for one beyond its range (1e400), 0 for a non-zero one below it
   * (1e-400). `'allow'` passes them on as `JSON.parse` reads them. Rounding within the range
   * (9007199254740993 arrives as 9007199254740992) is never refused; see docs/security.md.
   */
  inexactNumbers?: 'allow' | 'reject';
  /**
   * Decode `Content-Encoding: gzip | deflate | br` (default true; on the web, `br` where the
   * runtime's DecompressionStream has it); when false, a compressed body is a 415.
   */
  inflate?: boolean;
  /**
   * Media types the route takes: `'application/json'`, wildcards such as `'application/*+json'`,
   * the shorthands `'json'` / `'+json'`, or a predicate (default `['application/json', 'application/*+json']`).
   */
  type?: MediaTypeOption<Request>;
  /** Only objects and arrays at the top level, as body-parser's `strict` (default true). */
  strict?: boolean;
  /** Status for a body that is valid JSON but violates the schema (default 422). */
  invalidStatus?: 400 | 422;
  /**
   * Report every error (default false). The body is then read to its end (within `limit`) even
   * once it is certainly invalid; without it the request is answered at the first error.
   */
  allErrors?: boolean;
  /**
   * body-parser's `reviver`, given to `JSON.parse` when the value is made. The schema judges the
   * body as sent, before the reviver.
   */
  reviver?(this: unknown, key: string, value: unknown): unknown;
}

/** Bounds on the time one body takes to arrive, in milliseconds; 0 turns one off. */
export interface BodyTimeout {
  /** Longest wait for the next byte of the body (default 10 000). */
  idle?: number;
  /** Longest time from the start of reading to the body's end (default 30 000). */
  total?: number;
}

/**
 * An http-errors compatible error (`status`, `statusCode`, `expose`, `type`, `headers`), the shape
 * Express error handlers and Koa's `ctx.onerror` understand. `errors` holds the validator's output
 * units. It never carries the raw body.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly statusCode: number;
  /** 4xx messages are meant for the client, as in http-errors. */
  readonly expose: boolean;
  /** body-parser's machine-readable reason, e.g. `entity.too.large`. */
  readonly type: string;
  readonly errors: OutputUnit[];
  /** Response headers the handler should send (`Connection: close` when the body was not read to its end). */
  headers?: Record<string, string>;
  /** The configured limit, for 413 (as body-parser). */
  limit?: number;
  /** Bytes read when the limit was crossed or time ran out, or the announced Content-Length (as body-parser). */
  length?: number;
  /** The announced Content-Length, for request.size.invalid (as body-parser). */
  expected?: number;
  /** The bound that ran out, in milliseconds, for request.timeout. */
  timeout?: number;
  /** The refused charset, for charset.unsupported (as body-parser). */
  charset?: string;
  /** The refused Content-Encoding, for encoding.unsupported (as body-parser). */
  encoding?: string;

  constructor(status: number, type: string, message: string, errors: OutputUnit[] = []) {
    // A 4xx is the client's mistake, answered and never logged (Koa's onerror skips exposed
    // errors); its stack would only show our reader's frames. Capturing it was ~30 µs of a 10 MB
    // rejection's ~400 µs in the server (docs/decisions.md), so only a 5xx gets one.
    const stackTraceLimit = Error.stackTraceLimit;
    if (status < 500) Error.stackTraceLimit = 0;
    try {
      super(message);
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    this.name = errorName(status);
    this.status = status;
    this.statusCode = status;
    this.expose = status < 500;
    this.type = type;
    this.errors = errors;
  }

  /**
   * This error as an application/problem+json Response (see `problemResponse`). Hono's default
   * error handler answers a thrown error that has this method with what it returns, as it does
   * its own HTTPException.
   */
  getResponse(): Response {
    return problemResponse(this);
  }
}

/** Anything with a numeric 4xx/5xx `status` or `statusCode`: ours, http-errors', Koa's `ctx.throw`. */
export function httpStatusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const candidate = error as {status?: unknown; statusCode?: unknown};
  const status = typeof candidate.status === 'number' ? candidate.status : candidate.statusCode;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 400 || status > 599) return undefined;
  return status;
}

/**
 * The response headers an error asks for, as http-errors puts them on `err.headers` (and Koa's
 * `ctx.onerror` sends them), each value as a string.
 */
export function* errorHeaders(error: unknown): Generator<[name: string, value: string]> {
  const headers = (error as {headers?: unknown}).headers;
  if (typeof headers !== 'object' || headers === null) return;
  for (const [name, value] of Object.entries(headers)) yield [name, String(value)];
}

// ---------------------------------------------------------------------------------------------
// Problem details (RFC 9457)

/** One entry of the problem's `errors` extension member, as in RFC 9457 §3's example. */
export interface ProblemItem {
  /** JSON pointer, in URI fragment form, into the request body (or `#/query/...` and so on). */
  pointer: string;
  detail: string;
  keyword: string;
}

/** An `application/problem+json` document (RFC 9457 §3.1) with two extension members. */
export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail?: string;
  /** body-parser's `type` string (`entity.validation.failed`, ...) for clients that switch on it. */
  code?: string;
  errors?: ProblemItem[];
}

export interface ProblemOptions {
  /** Most entries in `errors` (default 10). */
  maxErrors?: number;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** Longest `detail` we copy from a validator message, so a huge string value is never repeated back. */
const MAX_DETAIL_LENGTH = 200;

/** Longest `pointer` (before percent-encoding), and longest name in it, we copy from an error's location. */
const MAX_POINTER_LENGTH = 200;
const MAX_POINTER_NAME_LENGTH = 64;

/**
 * RFC 9457 §4.2.1: with `about:blank` the title is the status phrase. The machine-readable reason
 * goes in `code` rather than a made-up `type` URI that would resolve nowhere.
 */
export function toProblem(error: unknown, status: number, given?: ProblemOptions): ProblemDocument {
  const options = optionsArgument(given, 'toProblem');
  const maxErrors = options.maxErrors ?? 10;
  const problem: ProblemDocument = {type: 'about:blank', title: STATUS_PHRASES[status] ?? 'Error', status};
  const details = error as {expose?: unknown; message?: unknown; type?: unknown; errors?: unknown};
  const exposed = details.expose === true || (details.expose === undefined && status < 500);
  if (!exposed) return problem;
  if (typeof details.message === 'string' && details.message !== '') problem.detail = details.message;
  if (typeof details.type === 'string') problem.code = details.type;
  const units = Array.isArray(details.errors) ? details.errors.filter(isOutputUnit) : [];
  if (units.length > 0) problem.errors = units.slice(0, Math.max(0, maxErrors)).map(toProblemItem);
  return problem;
}

/**
 * A fetch `Response` answering `error` as application/problem+json, with the status it asks for
 * (500, unexposed, for anything that is not an HTTP error) and the headers it carries: an error
 * that stopped reading a body asks for `Connection: close`, which a Node server honours and which
 * runtimes that manage their connections themselves may drop.
 */
export function problemResponse(error: unknown, given?: ProblemOptions): Response {
  const options = optionsArgument(given, 'problemResponse');
  const status = httpStatusOf(error) ?? 500;
  const headers = new Headers([...errorHeaders(error)]);
  headers.set('Content-Type', `${PROBLEM_CONTENT_TYPE}; charset=utf-8`);
  return new Response(JSON.stringify(toProblem(error, status, options)), {status, headers});
}

/**
 * An entry of `errors` as the validator makes them. Another library's error may carry an
 * `errors` array of its own (strings, its own objects): those are left out rather than misread,
 * so the handler answers instead of throwing.
 */
function isOutputUnit(unit: unknown): unit is OutputUnit {
  if (typeof unit !== 'object' || unit === null) return false;
  const {instanceLocation, error, keyword} = unit as Partial<Record<keyof OutputUnit, unknown>>;
  return typeof instanceLocation === 'string' && typeof error === 'string' && typeof keyword === 'string';
}

function toProblemItem(unit: OutputUnit): ProblemItem {
  return {pointer: toFragment(shortPointer(unit.instanceLocation)), detail: shortDetail(unit.error), keyword: unit.keyword};
}

/** An error's message as an answer may carry it: cut, since it may quote the body's keys and strings. */
export function shortDetail(message: string): string {
  return truncate(message, MAX_DETAIL_LENGTH);
}

/**
 * The pointer, cut as `detail` is: its names are the body's keys, which a client chooses and may
 * make megabytes long. A long name keeps its start and ends in `…`; a pointer still too long keeps
 * its first names and ends in the name `…`. A cut pointer points nowhere, and says so by that `…`.
 */
export function shortPointer(pointer: string): string {
  if (pointer.length <= MAX_POINTER_LENGTH) return pointer;
  let kept = '';
  for (const name of pointer.split('/').slice(1)) {
    const token = '/' + truncate(name, MAX_POINTER_NAME_LENGTH);
    if (kept.length + token.length > MAX_POINTER_LENGTH - 2) return kept + '/…';
    kept += token;
  }
  return kept;
}

/**
 * RFC 6901 §6: a JSON pointer in a URI fragment, each reference token percent-encoded. A key may
 * hold a lone surrogate (`"\ud800"` is valid JSON, RFC 8259 §8.2), which UTF-8 and so a URI cannot
 * carry: it becomes U+FFFD rather than a URIError.
 */
function toFragment(pointer: string): string {
  return '#' + pointer.split('/').map((token) => encodeURIComponent(token.replace(LONE_SURROGATE, '\ufffd'))).join('/');
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `text` cut to `length` code units with its `…`, never between the two halves of a surrogate pair. */
function truncate(text: string, length: number): string {
  if (text.length <= length) return text;
  const end = isHighSurrogate(text.charCodeAt(length - 2)) ? length - 2 : length - 1;
  return text.slice(0, end) + '…';
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

// ---------------------------------------------------------------------------------------------
// Option parsing

const BYTE_UNITS: Record<string, number> = {b: 1, kb: 2 ** 10, mb: 2 ** 20, gb: 2 ** 30, tb: 2 ** 40, pb: 2 ** 50};

/** The `bytes` package's reading of `'100kb'`, `'1.5mb'`, `1024` (binary units, as body-parser). */
export function parseLimit(limit: number | string): number {
  if (typeof limit === 'number') return assertLimit(Math.floor(limit), limit);
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb|tb|pb)?\s*$/i.exec(limit);
  if (match === null) throw new ArgumentError(`option limit: cannot read "${limit}" as a size`);
  return assertLimit(Math.floor(Number(match[1]) * BYTE_UNITS[(match[2] ?? 'b').toLowerCase()]), limit);
}

/**
 * The `invalidStatus` option, `fallback` when not given: 422 or 400, the two statuses a schema
 * violation is answered with. Anything else is refused where the door is set up: a 2xx or 3xx
 * would answer an invalid body as if it were accepted or moved, and a string fails only when a
 * request is refused.
 */
export function parseInvalidStatus(status: unknown, fallback: 400 | 422): 400 | 422 {
  if (status === undefined) return fallback;
  if (status === 400 || status === 422) return status;
  throw new ArgumentError(`option invalidStatus: ${shown(status)} is neither 400 nor 422`);
}

/** An option's value as a message shows it: a short JSON text, else its kind. */
function shown(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  try {
    const text = JSON.stringify(value);
    if (text !== undefined && text.length <= 40) return text;
  } catch {
    // A value JSON cannot write (a BigInt, a cycle) is named by its kind.
  }
  return value === null ? 'null' : typeof value;
}

function assertLimit(bytes: number, given: number | string): number {
  if (!Number.isFinite(bytes) || bytes < 0) throw new ArgumentError(`option limit: ${String(given)} is not a size`);
  return bytes;
}

/**
 * Defaults of `timeout`. A body at the default limit (100 KiB) arrives within `total` at 27 kbit/s;
 * a healthy client sends its body without pausing, so `idle` only waits out a stalled one.
 */
const DEFAULT_TIMEOUT = {idle: 10_000, total: 30_000} as const;

/** setTimeout's longest delay: Node fires a longer one after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The `timeout` option, each bound not given taken from `defaults` (a request body's by default). */
export function parseTimeout(timeout: BodyTimeout | undefined, defaults: Required<BodyTimeout> = DEFAULT_TIMEOUT): Required<BodyTimeout> {
  if (timeout === undefined) return defaults;
  if (typeof timeout !== 'object' || timeout === null) throw new ArgumentError('option timeout: expected {idle?, total?} in milliseconds');
  return {idle: milliseconds(timeout.idle, defaults.idle, 'idle'), total: milliseconds(timeout.total, defaults.total, 'total')};
}

function milliseconds(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value >= 0 && value <= MAX_TIMER_MS)) {
    throw new ArgumentError(`option timeout.${name}: ${String(value)} is not a number of milliseconds from 0 to ${MAX_TIMER_MS}`);
  }
  return value;
}

export function parseInexactNumbers(option: BodyParsingOptions<unknown>['inexactNumbers'], limits: Limits | undefined): 'allow' | 'reject' {
  const chosen = option ?? limits?.inexactNumbers ?? 'reject';
  if (chosen !== 'allow' && chosen !== 'reject') throw new ArgumentError(`option inexactNumbers: expected 'allow' or 'reject', not ${String(chosen)}`);
  return chosen;
}

/**
 * The validator of a body door: the one given, or the one compiled from the schema given, with
 * `inexactNumbers` (default `'reject'`) among its limits. A compiled validator keeps the limits it
 * was compiled with, `inexactNumbers` among them: the option beside one would be silently
 * ignored, so it is refused like any compile option (validatorFor).
 *
 * @throws TypeError for a value that is neither a schema nor a validator, or for compile options
 *   beside a validator; SchemaError for a schema that does not compile.
 */
export function bodyValidator(schema: unknown, options: ValidatorOptions & Pick<BodyParsingOptions<unknown>, 'inexactNumbers' | 'reviver'>): Validator {
  const validator = validatorOfBody(schema, options);
  // The value of a validator that changes values comes from the validator, where no reviver runs.
  if (validator.changesValues && options.reviver !== undefined) throw new ArgumentError('option reviver: the value options (coerceTypes, useDefaults, removeAdditional) make the value, which no reviver then sees');
  return validator;
}

function validatorOfBody(schema: unknown, options: ValidatorOptions & Pick<BodyParsingOptions<unknown>, 'inexactNumbers'>): Validator {
  if (isValidator(schema)) {
    if (options.inexactNumbers !== undefined) throw new ArgumentError('a compiled validator takes no inexactNumbers option: give limits.inexactNumbers to compile()');
    return validatorFor(schema, compileOptions(options));
  }
  const inexactNumbers = parseInexactNumbers(options.inexactNumbers, options.limits);
  return validatorFor(schema, {...compileOptions(options), limits: {...options.limits, inexactNumbers}});
}

/** Whether a route takes a request's media type (`essence`), the request itself given to a predicate. */
export type MediaTypeTest<Request> = (essence: string, request: Request) => boolean;

/** The `type` option: media type patterns, or a predicate on the request. */
export type MediaTypeOption<Request> = string | readonly string[] | ((request: Request) => boolean);

const DEFAULT_TYPES = ['application/json', 'application/*+json'];

export function mediaTypeTest<Request>(type: MediaTypeOption<Request> | undefined): MediaTypeTest<Request> {
  if (typeof type === 'function') return (_essence, request) => type(request);
  if (!(type === undefined || typeof type === 'string' || (Array.isArray(type) && type.every((entry) => typeof entry === 'string')))) {
    throw new ArgumentError(`option type: ${shown(type)} is neither a media type, nor a list of them, nor a function of the request`);
  }
  const patterns = (type === undefined ? DEFAULT_TYPES : typeof type === 'string' ? [type] : type).map(expandShorthand);
  // A route sees few distinct media types: each is matched against the patterns once.
  const verdicts = new Map<string, boolean>();
  return (essence) => {
    let verdict = verdicts.get(essence);
    if (verdict === undefined) {
      verdict = patterns.some((pattern) => mediaTypeMatches(pattern, essence));
      if (verdicts.size < MAX_REMEMBERED_TYPES) verdicts.set(essence, verdict);
    }
    return verdict;
  };
}

/** Distinct media types a route remembers its verdict on (a client may send any number). */
const MAX_REMEMBERED_TYPES = 32;

/** type-is shorthands: `json` is `application/json`, `+json` is any `*\/*+json`. */
function expandShorthand(pattern: string): string {
  const lower = pattern.trim().toLowerCase();
  if (lower === 'json') return 'application/json';
  if (lower.startsWith('+')) return `*/*${lower}`;
  return lower;
}

function mediaTypeMatches(pattern: string, essence: string): boolean {
  const [patternType, patternSubtype = ''] = pattern.split('/');
  const slash = essence.indexOf('/');
  if (slash < 0) return false;
  const type = essence.slice(0, slash);
  const subtype = essence.slice(slash + 1);
  if (patternType !== '*' && patternType !== type) return false;
  if (patternSubtype === '*' || patternSubtype === subtype) return true;
  return patternSubtype.startsWith('*+') && subtype.endsWith(patternSubtype.slice(1));
}

export interface ContentType {
  /** `type/subtype`, lowercased, without parameters (RFC 9110 §8.3.1). */
  essence: string;
  charset?: string;
}

export function parseContentType(header: string | undefined): ContentType {
  if (header === undefined) return {essence: ''};
  const [essence = '', ...parameters] = header.split(';');
  const contentType: ContentType = {essence: essence.trim().toLowerCase()};
  for (const parameter of parameters) {
    const equals = parameter.indexOf('=');
    if (equals < 0 || parameter.slice(0, equals).trim().toLowerCase() !== 'charset') continue;
    contentType.charset = parameter.slice(equals + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase();
  }
  return contentType;
}

/** RFC 8259 §8.1: JSON exchanged between systems is UTF-8. */
export function isUtf8(charset: string | undefined): boolean {
  return charset === undefined || charset === 'utf-8' || charset === 'utf8';
}

/** What a body's `Content-Type` earns: 415 for a media type the route does not take, or a charset other than UTF-8. */
export function refuseMediaType<Request>(header: string | undefined, acceptsType: MediaTypeTest<Request>, request: Request): HttpError | undefined {
  const contentType = parseContentType(header);
  if (!acceptsType(contentType.essence, request)) {
    return new HttpError(415, 'entity.type.unsupported', `unsupported media type "${contentType.essence}"`);
  }
  if (!isUtf8(contentType.charset)) return charsetUnsupported(contentType.charset!);
  return undefined;
}

/** A `Content-Length` value, when it is one (digits only); a Node and a fetch request give it alike. */
export function lengthFromHeader(header: string | null | undefined): number | undefined {
  return header !== null && header !== undefined && /^\d+$/.test(header) ? Number(header) : undefined;
}

/** A `Content-Encoding` value, lowercased; `identity` when absent or blank. */
export function encodingFromHeader(header: string | null | undefined): string {
  const value = header?.trim().toLowerCase();
  return value === undefined || value === '' ? 'identity' : value;
}

/**
 * A door's options as compile reads them: body-parser's `strict` left out, `strictSchema` as
 * compile's `strict`. The door's other options stay; validatorFor reads only compile's.
 */
export function compileOptions(options: ValidatorOptions & {strict?: unknown}): CompileOptions {
  const {strict: _bodyStrict, strictSchema, ...rest} = options;
  return strictSchema === undefined ? rest : {...rest, strict: strictSchema};
}

// ---------------------------------------------------------------------------------------------
// Errors from a verdict

export function errorFromResult(result: Result, invalidStatus: number): HttpError {
  const syntax = result.errors.filter((unit) => unit.kind === 'syntax');
  if (syntax.length > 0) return parseFailed(syntax);
  const limit = result.errors.filter((unit) => unit.kind === 'limit');
  if (limit.some(isInexactNumber)) return inexactNumber(limit);
  if (limit.length > 0) return new HttpError(413, 'entity.too.large', 'request entity too large', limit);
  return new HttpError(invalidStatus, 'entity.validation.failed', 'request body does not match the schema', result.errors);
}

function isInexactNumber(unit: OutputUnit): boolean {
  return unit.params?.code === 'limit.number.inexact';
}

/** Not too large, and not malformed: valid JSON whose number the handler would get as another value. */
function inexactNumber(errors: OutputUnit[]): HttpError {
  const first = errors.find(isInexactNumber)!;
  const where = first.line === undefined ? '' : ` at line ${first.line}, column ${first.column ?? 0}`;
  return new HttpError(400, 'entity.number.inexact', `request body has a number outside the range of a double${where}`, errors);
}

export function parseFailed(errors: OutputUnit[]): HttpError {
  const first = errors[0];
  const where = first?.line === undefined ? '' : ` at line ${first.line}, column ${first.column ?? 0}`;
  return new HttpError(400, 'entity.parse.failed', `request body is not valid JSON${where}`, errors);
}

export function syntaxUnit(error: string, offset?: number): OutputUnit {
  const unit: OutputUnit = {valid: false, kind: 'syntax', keyword: 'syntax', keywordLocation: '', instanceLocation: '', error};
  if (offset !== undefined) unit.offset = offset;
  return unit;
}

/**
 * JSON.parse, or the reviver within it, refused a body the verdict accepted: that request's 400,
 * as body-parser answers both (keeping a thrown `type`, as it does). V8's SyntaxError quotes the
 * text, so what was thrown stays in `cause` and nothing exposed says anything of the body. The
 * disagreement has the code parseText gives it (`syntax.parse`).
 */
export function valueRefused(thrown: unknown): HttpError {
  const {type} = (typeof thrown === 'object' && thrown !== null ? thrown : {}) as {type?: unknown};
  const unit = thrown instanceof SyntaxError ? syntaxUnit('JSON.parse refused a body the validator accepted') : syntaxUnit('the reviver threw');
  if (thrown instanceof SyntaxError) unit.params = {code: 'syntax.parse'};
  const error = new HttpError(400, typeof type === 'string' ? type : 'entity.parse.failed', 'request body could not be parsed', [unit]);
  error.cause = thrown;
  return error;
}

/**
 * Something threw inside a middleware (a bug, ours or the engine's): that request's 500, never an
 * exception escaping an event listener, where nothing catches it and the process exits. Not
 * exposed; what was thrown is the `cause`, for the error handler's log.
 */
export function internalError(thrown: unknown, message = 'the request body reader failed'): HttpError {
  const error = new HttpError(500, 'internal.error', message);
  error.cause = thrown;
  return error;
}

/** 408 (RFC 9110 §15.5.9): the body did not arrive within the time we were prepared to wait. */
export function timedOut(bound: keyof BodyTimeout, milliseconds: number, received: number): HttpError {
  const why = bound === 'idle' ? `no byte of it arrived for ${milliseconds} ms` : `it took longer than ${milliseconds} ms`;
  const error = new HttpError(408, 'request.timeout', `request body timed out: ${why}`);
  error.timeout = milliseconds;
  error.length = received;
  return error;
}

export function tooLarge(limit: number, length: number): HttpError {
  const error = new HttpError(413, 'entity.too.large', 'request entity too large');
  error.limit = limit;
  error.length = length;
  return error;
}

/**
 * The body is longer or shorter than its Content-Length said (as body-parser: 400
 * `request.size.invalid`). Node's HTTP parser never hands on such a body; a fetch `Request` built
 * in process, or by another runtime, may.
 */
export function sizeInvalid(expected: number, received: number): HttpError {
  const error = new HttpError(400, 'request.size.invalid', 'request size did not match content length');
  error.expected = expected;
  error.length = received;
  return error;
}

/** The client went away before the body's end (as body-parser: 400 `request.aborted`). */
export function aborted(received: number): HttpError {
  const error = new HttpError(400, 'request.aborted', 'request aborted');
  error.length = received;
  return error;
}

export function charsetUnsupported(charset: string): HttpError {
  const error = new HttpError(415, 'charset.unsupported', `unsupported charset "${charset.toUpperCase()}"`);
  error.charset = charset;
  return error;
}

export function encodingUnsupported(encoding: string): HttpError {
  const error = new HttpError(415, 'encoding.unsupported', `unsupported content encoding "${encoding}"`);
  error.encoding = encoding;
  return error;
}

/** The UTF-8 byte order mark. */
export const BOM = [0xef, 0xbb, 0xbf];

/**
 * A byte order mark at the start of a body, whose three bytes may arrive in different chunks.
 * RFC 8259 §8.1 lets a parser ignore it, and body-parser does (its decoder strips it), so a body
 * that `express.json()` took is not refused.
 */
export class LeadingBom {
  /** BOM bytes matched so far; -1 once the body's start is decided. */
  #matched = 0;
  /** The body started with a whole BOM, which `strip` removed. */
  skipped = false;

  /** Whether the body's first bytes have decided it (a BOM or not). */
  get decided(): boolean {
    return this.#matched === -1;
  }

  /** The chunk past a leading BOM; bytes held back from earlier chunks that were not one come first. */
  strip(chunk: Uint8Array): Uint8Array {
    if (this.#matched === -1) return chunk;
    let index = 0;
    while (index < chunk.length && this.#matched < BOM.length && chunk[index] === BOM[this.#matched]) {
      index++;
      this.#matched++;
    }
    if (this.#matched === BOM.length) {
      this.#matched = -1;
      this.skipped = true;
      return chunk.subarray(index);
    }
    if (index === chunk.length) return chunk.subarray(index);
    // Not a BOM after all: give back the bytes held from earlier chunks.
    const held = BOM.slice(0, this.#matched - index);
    this.#matched = -1;
    if (held.length === 0) return chunk;
    const joined = new Uint8Array(held.length + chunk.length);
    joined.set(held);
    joined.set(chunk, held.length);
    return joined;
  }

  /** The start of a BOM held back when the body ended (it was not one after all): not yet fed. */
  held(): Uint8Array {
    return Uint8Array.from(BOM.slice(0, Math.max(0, this.#matched)));
  }
}

/**
 * body-parser's `strict`: the first byte past whitespace must open an object or an array. Given a
 * chunk that starts `offset` bytes into the body: undefined while it holds only whitespace, null
 * once the start is allowed, else the 400 to answer.
 */
export function strictStart(chunk: Uint8Array, offset: number): HttpError | null | undefined {
  let index = 0;
  while (index < chunk.length && isJsonWhitespace(chunk[index]!)) index++;
  if (index === chunk.length) return undefined;
  const first = chunk[index];
  if (first === 0x7b || first === 0x5b) return null;
  return parseFailed([syntaxUnit('strict mode: the body must be an object or an array', offset + index)]);
}

/** JSON whitespace, RFC 8259 §2. */
export function isJsonWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

function errorName(status: number): string {
  const phrase = STATUS_PHRASES[status];
  if (phrase === undefined) return 'HttpError';
  return phrase.replace(/[^A-Za-z]/g, '') + 'Error';
}


/**
 * The reason phrases of the 4xx and 5xx codes, worded as Node's `http.STATUS_CODES` words them
 * (test/http-errors.test.ts holds the two equal), so a problem's `title` and an error's `name` are
 * the same on every runtime.
 */
const STATUS_PHRASES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  407: 'Proxy Authentication Required',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  417: 'Expectation Failed',
  418: "I'm a Teapot",
  421: 'Misdirected Request',
  422: 'Unprocessable Entity',
  423: 'Locked',
  424: 'Failed Dependency',
  425: 'Too Early',
  426: 'Upgrade Required',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  505: 'HTTP Version Not Supported',
  506: 'Variant Also Negotiates',
  507: 'Insufficient Storage',
  508: 'Loop Detected',
  509: 'Bandwidth Limit Exceeded',
  510: 'Not Extended',
  511: 'Network Authentication Required',
};

/** The phrase of a 4xx or 5xx status, as `http.STATUS_CODES` gives it; undefined for another code. */
export function statusPhrase(status: number): string | undefined {
  return STATUS_PHRASES[status];
}
