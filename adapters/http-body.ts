// The framework-free half of the Express and Koa adapters: decide whether a request carries a
// JSON body we accept, decode it (Content-Encoding through node:zlib, streaming), feed it chunk by
// chunk to a validator session, and stop reading at the first byte that makes it certainly bad.
//
// Status codes and `type` strings follow body-parser, so error handlers written for
// `express.json()` keep working: 400 entity.parse.failed, 413 entity.too.large,
// 415 charset.unsupported / encoding.unsupported; plus 422 entity.validation.failed for a schema
// violation and 415 entity.type.unsupported for a Content-Type the route does not take.

import type {IncomingMessage, ServerResponse} from 'node:http';
import {STATUS_CODES} from 'node:http';
import type {Socket} from 'node:net';
import type {Transform} from 'node:stream';
import {createBrotliDecompress, createGunzip, createInflate} from 'node:zlib';

import {compile} from '../src/index.js';
import type {CompileOptions, Draft, Limits, OutputUnit, Result, Session, Validator} from '../src/types.js';

/** Validator options, the same for `validateBody` and `validate`: they go to `compile`. */
export interface ValidatorOptions {
  draft?: Draft;
  /** Report every error (default false). */
  allErrors?: boolean;
  schemas?: Record<string, unknown>;
  /** The URI the schema was retrieved from: the base of its relative references (compile's `baseUri`). */
  baseUri?: string;
  limits?: Limits;
  /** `'assert'` checks `format` (default `'annotate'`, as the spec says). */
  formats?: 'annotate' | 'assert';
  /** The validator's `strict` (unknown keywords are a SchemaError); named apart from body-parser's `strict`. */
  strictSchema?: boolean;
}

/** Options shared by `validateBody` in both adapters. */
export interface BodyOptions extends ValidatorOptions {
  /** Most bytes of (decompressed) body to accept: a number of bytes or a string like `'100kb'` (default `'100kb'`). */
  limit?: number | string;
  /** Decode `Content-Encoding: gzip | deflate | br` (default true); when false, a compressed body is a 415. */
  inflate?: boolean;
  /**
   * Media types the route takes: `'application/json'`, wildcards such as `'application/*+json'`,
   * the shorthands `'json'` / `'+json'`, or a predicate (default `['application/json', 'application/*+json']`).
   */
  type?: string | readonly string[] | ((req: IncomingMessage) => boolean);
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
   * body-parser's `verify(req, res, body, encoding)`, e.g. for a webhook's signature: called with
   * the whole body (decoded from its Content-Encoding, a byte order mark included) once it has
   * arrived, before its verdict. Throw to refuse it: 403 `entity.verify.failed`, or the thrown
   * error's own `status` and `type`. A body refused before its end is never verified.
   */
  // A method signature, as in body-parser's types: a handler written for Express's `Request` fits.
  verify?(req: IncomingMessage, res: ServerResponse, body: Buffer, encoding: string): void;
  /**
   * body-parser's `reviver`, given to `JSON.parse` when the value is made. The schema judges the
   * body as sent, before the reviver.
   */
  reviver?(this: unknown, key: string, value: unknown): unknown;
}

/** Options of `validate({query, params, headers})`. */
export interface PartsOptions extends ValidatorOptions {
  /** Status for a part that violates its schema (default 400). */
  invalidStatus?: 400 | 422;
}

/** The request parts that `validate` checks in value mode. */
export type RequestPart = 'query' | 'params' | 'headers';

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
  /** Bytes read when the limit was crossed, or the announced Content-Length (as body-parser). */
  length?: number;
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

/**
 * RFC 9457 §4.2.1: with `about:blank` the title is the status phrase. The machine-readable reason
 * goes in `code` rather than a made-up `type` URI that would resolve nowhere.
 */
export function toProblem(error: unknown, status: number, options: ProblemOptions = {}): ProblemDocument {
  const maxErrors = options.maxErrors ?? 10;
  const problem: ProblemDocument = {type: 'about:blank', title: STATUS_CODES[status] ?? 'Error', status};
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
  return {pointer: toFragment(unit.instanceLocation), detail: truncate(unit.error), keyword: unit.keyword};
}

/** RFC 6901 §6: a JSON pointer in a URI fragment, each reference token percent-encoded. */
function toFragment(pointer: string): string {
  return '#' + pointer.split('/').map(encodeURIComponent).join('/');
}

function truncate(text: string): string {
  return text.length <= MAX_DETAIL_LENGTH ? text : text.slice(0, MAX_DETAIL_LENGTH - 1) + '…';
}

// ---------------------------------------------------------------------------------------------
// Option parsing

const BYTE_UNITS: Record<string, number> = {b: 1, kb: 2 ** 10, mb: 2 ** 20, gb: 2 ** 30, tb: 2 ** 40, pb: 2 ** 50};

/** The `bytes` package's reading of `'100kb'`, `'1.5mb'`, `1024` (binary units, as body-parser). */
export function parseLimit(limit: number | string): number {
  if (typeof limit === 'number') return assertLimit(Math.floor(limit), limit);
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb|tb|pb)?\s*$/i.exec(limit);
  if (match === null) throw new TypeError(`option limit: cannot read "${limit}" as a size`);
  return assertLimit(Math.floor(Number(match[1]) * BYTE_UNITS[(match[2] ?? 'b').toLowerCase()]), limit);
}

function assertLimit(bytes: number, given: number | string): number {
  if (!Number.isFinite(bytes) || bytes < 0) throw new TypeError(`option limit: ${String(given)} is not a size`);
  return bytes;
}

type MediaTypeTest = (essence: string, req: IncomingMessage) => boolean;

const DEFAULT_TYPES = ['application/json', 'application/*+json'];

function mediaTypeTest(type: BodyOptions['type']): MediaTypeTest {
  if (typeof type === 'function') return (_essence, req) => type(req);
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

interface ContentType {
  /** `type/subtype`, lowercased, without parameters (RFC 9110 §8.3.1). */
  essence: string;
  charset?: string;
}

function parseContentType(header: string | undefined): ContentType {
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
function isUtf8(charset: string | undefined): boolean {
  return charset === undefined || charset === 'utf-8' || charset === 'utf8';
}

type Decoder = () => Transform;

const DECODERS: Record<string, Decoder | undefined> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** RFC 9110 §9.3: these methods define no meaning for a body, so a route may be reached without one. */
const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE']);

function compileOptions(options: ValidatorOptions): CompileOptions {
  const compileOptions: CompileOptions = {};
  if (options.draft !== undefined) compileOptions.draft = options.draft;
  if (options.allErrors !== undefined) compileOptions.allErrors = options.allErrors;
  if (options.schemas !== undefined) compileOptions.schemas = options.schemas;
  if (options.baseUri !== undefined) compileOptions.baseUri = options.baseUri;
  if (options.limits !== undefined) compileOptions.limits = options.limits;
  if (options.formats !== undefined) compileOptions.formats = options.formats;
  if (options.strictSchema !== undefined) compileOptions.strict = options.strictSchema;
  return compileOptions;
}

// ---------------------------------------------------------------------------------------------
// Errors from a verdict

function errorFromResult(result: Result, invalidStatus: number): HttpError {
  const syntax = result.errors.filter((unit) => unit.kind === 'syntax');
  if (syntax.length > 0) return parseFailed(syntax);
  const limit = result.errors.filter((unit) => unit.kind === 'limit');
  if (limit.length > 0) return new HttpError(413, 'entity.too.large', 'request entity too large', limit);
  return new HttpError(invalidStatus, 'entity.validation.failed', 'request body does not match the schema', result.errors);
}

function parseFailed(errors: OutputUnit[]): HttpError {
  const first = errors[0];
  const where = first?.line === undefined ? '' : ` at line ${first.line}, column ${first.column ?? 0}`;
  return new HttpError(400, 'entity.parse.failed', `request body is not valid JSON${where}`, errors);
}

function syntaxUnit(error: string, offset?: number): OutputUnit {
  const unit: OutputUnit = {kind: 'syntax', keyword: 'syntax', keywordLocation: '', instanceLocation: '', error};
  if (offset !== undefined) unit.offset = offset;
  return unit;
}

/**
 * JSON.parse, or the reviver within it, refused a body the verdict accepted: that request's 400,
 * as body-parser answers both (keeping a thrown `type`, as it does). V8's SyntaxError quotes the
 * text, so what was thrown stays in `cause` and nothing exposed says anything of the body. The
 * disagreement has the code parseText gives it (`syntax.parse`).
 */
function valueRefused(thrown: unknown): HttpError {
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

function tooLarge(limit: number, length: number): HttpError {
  const error = new HttpError(413, 'entity.too.large', 'request entity too large');
  error.limit = limit;
  error.length = length;
  return error;
}

// ---------------------------------------------------------------------------------------------
// Reading a body

/** Reading ended; `body` is the parsed value, or `NO_BODY` for a bodyless request that passes through. */
export type BodyCallback = (error: HttpError | null, body?: unknown) => void;

/** A BodyCallback's arguments. */
type Outcome = readonly [error: HttpError | null, body?: unknown];

/** Marks "this request had no body and its method allows that": leave `req.body` alone. */
export const NO_BODY: unique symbol = Symbol('stream-schema.noBody');

interface BodySettings {
  readonly limit: number;
  readonly inflate: boolean;
  readonly strict: boolean;
  readonly invalidStatus: number;
  readonly acceptsType: MediaTypeTest;
  /** `allErrors`: read on to the end (within `limit`) to report every error, instead of stopping at the first. */
  readonly readToEnd: boolean;
  readonly verify: BodyOptions['verify'];
  readonly reviver: BodyOptions['reviver'];
}

/** Compiles the schema once; `read` then validates one request body per call. */
export class BodyReader {
  readonly validator: Validator;
  readonly #settings: BodySettings;

  /** @throws SchemaError for a schema that does not compile, when the middleware is created. */
  constructor(schema: unknown, options: BodyOptions = {}) {
    this.validator = compile(schema, compileOptions(options));
    this.#settings = {
      limit: parseLimit(options.limit ?? '100kb'),
      inflate: options.inflate ?? true,
      strict: options.strict ?? true,
      invalidStatus: options.invalidStatus ?? 422,
      acceptsType: mediaTypeTest(options.type),
      readToEnd: options.allErrors ?? false,
      verify: options.verify,
      reviver: options.reviver,
    };
  }

  /**
   * Reads and validates the body of `req`. On a rejection before the body's end, reading has
   * stopped and the error carries `Connection: close`: answer it and the socket closes.
   * `parsedElsewhere` says where another body parser that already consumed the stream put its
   * result (Express: `req.body`; Koa: `ctx.request.body`); that value is then checked instead.
   */
  read(req: IncomingMessage, res: ServerResponse, callback: BodyCallback, parsedElsewhere: () => unknown = () => (req as {body?: unknown}).body): void {
    let outcome: Outcome | undefined;
    try {
      outcome = this.#begin(req, res, callback, parsedElsewhere);
    } catch (thrown) {
      outcome = [refuseUnread(req, res, internalError(thrown), contentLength(req))];
    }
    // Outside the try: what the callback throws is the caller's, and must not call it twice.
    if (outcome !== undefined) callback(...outcome);
  }

  /** The outcome when the head decides it, or undefined once a BodyStream has taken the request (and the callback). */
  #begin(req: IncomingMessage, res: ServerResponse, callback: BodyCallback, parsedElsewhere: () => unknown): Outcome | undefined {
    const length = contentLength(req);
    if (!hasBody(req, length)) return this.#readAbsentBody(req);
    if (alreadyRead(req)) return this.#validateParsed(parsedElsewhere());
    const encoding = contentEncoding(req);
    const refusal = this.#refuseFromHeaders(req, encoding, length);
    if (refusal !== undefined) return [refuseUnread(req, res, refusal, length)];
    const source = encoding === 'identity' ? req : DECODERS[encoding]!();
    new BodyStream(req, res, source, this.validator, this.#settings, callback, length).start();
    return undefined;
  }

  /** `read` as a promise, for Koa. */
  readAsync(req: IncomingMessage, res: ServerResponse, parsedElsewhere?: () => unknown): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.read(req, res, (error, body) => (error === null ? resolve(body) : reject(error)), parsedElsewhere);
    });
  }

  /** Everything decidable from the head of a request with a body, before a byte of it is read. */
  #refuseFromHeaders(req: IncomingMessage, encoding: string, length: number | undefined): HttpError | undefined {
    const contentType = parseContentType(req.headers['content-type']);
    if (!this.#settings.acceptsType(contentType.essence, req)) {
      return new HttpError(415, 'entity.type.unsupported', `unsupported media type "${contentType.essence}"`);
    }
    if (!isUtf8(contentType.charset)) return charsetUnsupported(contentType.charset!);
    if (encoding !== 'identity' && (!this.#settings.inflate || DECODERS[encoding] === undefined)) {
      return encodingUnsupported(encoding);
    }
    // With an encoding the limit applies to the decoded size, unknown until it is decoded.
    if (encoding === 'identity' && length !== undefined && length > this.#settings.limit) {
      return tooLarge(this.#settings.limit, length);
    }
    return undefined;
  }

  #readAbsentBody(req: IncomingMessage): Outcome {
    if (BODYLESS_METHODS.has(req.method ?? 'GET')) return [null, NO_BODY];
    // A POST, PUT or PATCH without a body would reach the handler with no `req.body` at all.
    return [parseFailed([syntaxUnit('the request has no body', 0)])];
  }

  /** Another body parser already consumed the stream: check what it produced, in value mode. */
  #validateParsed(body: unknown): Outcome {
    const result = this.validator.validate(body);
    if (result.valid) return [null, body];
    return [errorFromResult(result, this.#settings.invalidStatus)];
  }
}

/** type-is's `hasBody`, except that `Content-Length: 0` counts as no body. */
export function hasBody(req: IncomingMessage, length: number | undefined): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  return length !== undefined && length > 0;
}

export function contentLength(req: IncomingMessage): number | undefined {
  const header = req.headers['content-length'];
  if (header === undefined || !/^\d+$/.test(header)) return undefined;
  return Number(header);
}

function contentEncoding(req: IncomingMessage): string {
  const header = req.headers['content-encoding'];
  return header === undefined || header.trim() === '' ? 'identity' : header.trim().toLowerCase();
}

/** body-parser's convention: `req._body` says a parser already consumed the stream. */
function alreadyRead(req: IncomingMessage): boolean {
  return (req as {_body?: unknown})._body === true || req.readableEnded;
}

/**
 * We stop reading a body the client may still be sending, so the connection cannot carry another
 * request: the answer must close it, whoever writes it. Node decides that from the response when
 * it writes the head, so it is set there, not only on `err.headers`, which a handler that sets its
 * own status and body never copies (a Koa try/catch), and which Koa's `ctx.onerror` sets again
 * only after removing every header. With `shouldKeepAlive` false Node sends `Connection: close`
 * and closes the socket after the answer even if the header was removed (`_last`, in
 * `OutgoingMessage#_storeHeader`); Node also skips dumping the rest, as the request is being
 * consumed. Without this the answer said keep-alive, the unread body stayed on the socket, and a
 * pooled client's next request on it hung and was reset.
 */
function stopReading(req: IncomingMessage, res: ServerResponse, error: HttpError): HttpError {
  req.pause();
  lingeringClose(req.socket);
  res.shouldKeepAlive = false;
  if (!res.headersSent) res.setHeader('Connection', 'close');
  error.headers = {...error.headers, Connection: 'close'};
  return error;
}

/** A refused body this small is cheaper to read and discard than a new connection is to open. */
const DISCARD_LIMIT = 64 * 1024;

/**
 * A body refused from its head alone. A small one is discarded, so the connection can carry the
 * next request. A large or unannounced one is never read: Node would dump (read and discard) an
 * unread body once the response finishes, so a read of nothing marks the request as consumed, and
 * the socket gets the same lingering close as a body rejected midway.
 */
function refuseUnread(req: IncomingMessage, res: ServerResponse, error: HttpError, length: number | undefined): HttpError {
  if (length !== undefined && length <= DISCARD_LIMIT) {
    req.resume();
    return error;
  }
  req.read(0);
  return stopReading(req, res, error);
}

/** How long a socket we stopped reading stays half-closed after the answer. */
const LINGER_MS = 1000;

/**
 * Node ends a `Connection: close` response with `socket.destroySoon()`: FIN, then close() at
 * once. With the client's upload still unread in our receive buffer, close() sends a reset
 * (RFC 1122 §4.2.2.13), and a client still writing gets EPIPE and may never read the answer
 * waiting in its own buffer. So, as Apache's and nginx's lingering close: send the FIN after the
 * answer, and close for good LINGER_MS later. Unlike them we read nothing meanwhile; the client
 * stalls on a full window, reads the answer and the FIN, and stops.
 */
function lingeringClose(socket: Socket): void {
  socket.destroySoon = function lingeringDestroySoon(this: Socket): void {
    this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    this.once('close', () => clearTimeout(timer));
  };
}

function charsetUnsupported(charset: string): HttpError {
  const error = new HttpError(415, 'charset.unsupported', `unsupported charset "${charset.toUpperCase()}"`);
  error.charset = charset;
  return error;
}

function encodingUnsupported(encoding: string): HttpError {
  const error = new HttpError(415, 'encoding.unsupported', `unsupported content encoding "${encoding}"`);
  error.encoding = encoding;
  return error;
}

const BOM = [0xef, 0xbb, 0xbf];

/** JSON whitespace, RFC 8259 §2. */
function isJsonWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/**
 * One request body in flight: the listeners, the counters, and the single hand-over of the
 * outcome. Every listener runs through #guarded, so nothing thrown while reading escapes into an
 * emitter.
 */
class BodyStream {
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  readonly #source: IncomingMessage | Transform;
  readonly #validator: Validator;
  /** The announced Content-Length. */
  readonly #length: number | undefined;
  /** Made at the first chunk that is not the whole body (see #isWholeBody). */
  #session: Session | undefined;
  readonly #settings: BodySettings;
  #callback: BodyCallback | undefined;
  /** Decoded body bytes so far, counted against `limit`. */
  #received = 0;
  /** Bytes passed on to the session (a byte order mark is not). */
  #fed = 0;
  /** The same bytes, kept to be parsed once the session has found them valid. */
  readonly #text: Buffer[] = [];
  /** Bytes of a leading UTF-8 BOM matched so far; -1 once past the start of the body. */
  #bomMatched = 0;
  /** The body began with a BOM, which the session was not given (`verify` gets it). */
  #bomSkipped = false;
  /** body-parser's `strict`: the first non-whitespace byte must open an object or an array. */
  #awaitingFirstByte: boolean;

  constructor(
    req: IncomingMessage,
    res: ServerResponse,
    source: IncomingMessage | Transform,
    validator: Validator,
    settings: BodySettings,
    callback: BodyCallback,
    length: number | undefined,
  ) {
    this.#req = req;
    this.#res = res;
    this.#source = source;
    this.#validator = validator;
    this.#length = length;
    this.#settings = settings;
    this.#callback = callback;
    this.#awaitingFirstByte = settings.strict;
  }

  /** Attaches the listeners; never throws (what would is this request's 500). */
  start(): void {
    try {
      this.#source.on('data', this.#onData);
      this.#source.on('end', this.#onEnd);
      this.#source.on('error', this.#onSourceError);
      this.#req.on('close', this.#onClose);
      if (this.#source !== this.#req) {
        this.#req.on('error', this.#onRequestError);
        this.#req.pipe(this.#source as Transform);
      }
    } catch (thrown) {
      this.#failInternally(thrown);
    }
  }

  /**
   * A listener that cannot throw into its emitter: what it throws ends this request as a 500.
   * Made once per body, so a chunk allocates no closure.
   */
  #guarded<Argument>(listener: (this: BodyStream, argument: Argument) => void): (argument: Argument) => void {
    return (argument) => {
      try {
        listener.call(this, argument);
      } catch (thrown) {
        this.#failInternally(thrown);
      }
    };
  }

  #failInternally(thrown: unknown): void {
    // After the hand-over, what throws is the code the request was handed to (its next
    // middleware, its error handler): theirs to handle, not ours to turn into a second answer.
    if (this.#callback === undefined) throw thrown;
    this.#reject(internalError(thrown));
  }

  #onData = this.#guarded(function onData(this: BodyStream, chunk: Buffer): void {
    this.#read(chunk);
  });

  #read(chunk: Buffer): void {
    const allowed = this.#settings.limit - this.#received;
    this.#received += chunk.length;
    if (chunk.length <= allowed) return void this.#feed(chunk);
    // The bytes before the limit may already hold the first offending one: that is the answer.
    if (allowed > 0 && !this.#feed(chunk.subarray(0, allowed))) return;
    this.#reject(tooLarge(this.#settings.limit, this.#received));
  }

  /** Passes decoded body bytes to the session; false once the request has been rejected. */
  #feed(chunk: Buffer): boolean {
    const text = this.#bomMatched >= 0 ? this.#skipBom(chunk) : chunk;
    if (text.length === 0) return true;
    this.#fed += text.length;
    this.#text.push(text);
    if (this.#awaitingFirstByte && !this.#checkFirstByte(text)) return false;
    // The whole body in one chunk, as most small bodies come: there is nothing to be early for,
    // and its value is wanted anyway, so #onEnd gets it from Validator.parseText.
    if (this.#isWholeBody(text)) return true;
    const session = (this.#session ??= this.#validator.session());
    if (session.write(text) || this.#settings.readToEnd) return true;
    this.#reject(errorFromResult(session.end(), this.#settings.invalidStatus));
    return false;
  }

  /** `text` is the first chunk, past any byte order mark, and Content-Length says nothing follows. */
  #isWholeBody(text: Buffer): boolean {
    return this.#source === this.#req && this.#bomMatched === -1 && this.#fed === text.length && this.#length === this.#received;
  }

  /**
   * RFC 8259 §8.1 lets a parser ignore a byte order mark; body-parser does (its decoder strips it),
   * so a body that `express.json()` took is not refused here. The three bytes may arrive apart.
   */
  #skipBom(chunk: Buffer): Buffer {
    let index = 0;
    while (index < chunk.length && this.#bomMatched < BOM.length && chunk[index] === BOM[this.#bomMatched]) {
      index++;
      this.#bomMatched++;
    }
    if (this.#bomMatched === BOM.length) {
      this.#bomMatched = -1;
      this.#bomSkipped = true;
      return chunk.subarray(index);
    }
    if (index === chunk.length) return chunk.subarray(index);
    // Not a BOM after all: give back the bytes held from earlier chunks.
    const held = Buffer.from(BOM.slice(0, this.#bomMatched - index));
    this.#bomMatched = -1;
    return held.length === 0 ? chunk : Buffer.concat([held, chunk]);
  }

  /** A body that ended as the start of a BOM: the bytes #skipBom held back, not yet fed. */
  #heldBom(): Buffer {
    return Buffer.from(BOM.slice(0, this.#bomMatched));
  }

  #checkFirstByte(chunk: Buffer): boolean {
    let index = 0;
    while (index < chunk.length && isJsonWhitespace(chunk[index]!)) index++;
    if (index === chunk.length) return true;
    this.#awaitingFirstByte = false;
    const first = chunk[index];
    if (first === 0x7b || first === 0x5b) return true;
    const offset = this.#fed - chunk.length + index;
    this.#reject(parseFailed([syntaxUnit('strict mode: the body must be an object or an array', offset)]));
    return false;
  }

  #onEnd = this.#guarded(function onEnd(this: BodyStream): void {
    const refusal = this.#verify();
    if (refusal !== undefined) return this.#finish(refusal);
    const result = this.#verdict();
    if (!result.valid) return this.#finish(errorFromResult(result, this.#settings.invalidStatus));
    if (this.#usesParseText()) return this.#finish(null, result.value);
    this.#finishParsed(this.#wholeText());
  });

  /** Text was fed but no session made: #feed held the whole body for parseText. */
  #heldWhole(): boolean {
    return this.#session === undefined && this.#fed > 0;
  }

  /** parseText gives the value too, unless a reviver must shape it. */
  #usesParseText(): boolean {
    return this.#heldWhole() && this.#settings.reviver === undefined;
  }

  #verdict(): Result {
    if (this.#usesParseText()) return this.#validator.parseText(this.#text[0]!);
    if (this.#heldWhole()) return this.#validator.validateText(this.#text[0]!);
    const session = (this.#session ??= this.#validator.session());
    if (this.#bomMatched > 0) session.write(this.#heldBom());
    return session.end();
  }

  /**
   * The validator has checked the text: well-formed, no repeated key (which JSON.parse would
   * silently resolve to the last), valid. JSON.parse of that text is the value the session would
   * have assembled with `parse: true` (same numbers, `__proto__` an own property), at a fraction
   * of the cost; benchmarks/http.ts measures the difference. Should JSON.parse refuse it anyway
   * (the two disagree), or the reviver throw, the request is answered 400.
   */
  #finishParsed(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text, this.#settings.reviver);
    } catch (thrown) {
      return this.#finish(valueRefused(thrown));
    }
    this.#finish(null, value);
  }

  #wholeText(): string {
    const bytes = this.#text.length === 1 ? this.#text[0]! : Buffer.concat(this.#text, this.#fed);
    return bytes.toString('utf8');
  }

  /** body-parser's `verify`, given the whole body as it came; the refusal if it throws. */
  #verify(): HttpError | undefined {
    const verify = this.#settings.verify;
    if (verify === undefined) return undefined;
    const pieces = this.#bomSkipped ? [Buffer.from(BOM), ...this.#text] : [...this.#text];
    if (this.#bomMatched > 0) pieces.push(this.#heldBom());
    try {
      verify(this.#req, this.#res, Buffer.concat(pieces), 'utf-8');
    } catch (thrown) {
      return verifyFailed(thrown);
    }
    return undefined;
  }

  #onSourceError = this.#guarded(function onSourceError(this: BodyStream, error: Error): void {
    if (this.#source === this.#req) return this.#finish(aborted(this.#received));
    this.#reject(parseFailed([syntaxUnit(`the body could not be decoded: ${error.message}`, this.#received)]));
  });

  #onRequestError = this.#guarded(function onRequestError(this: BodyStream): void {
    this.#finish(aborted(this.#received));
  });

  /** The socket went away before the body's end: the client aborted. */
  #onClose = this.#guarded(function onClose(this: BodyStream): void {
    if (!this.#req.complete) this.#finish(aborted(this.#received));
  });

  /**
   * Stop reading before the body's end, and have the answer close the connection (see
   * stopReading). When the whole body has already arrived, discard the rest instead and keep the
   * connection.
   */
  #reject(error: HttpError): void {
    if (this.#callback === undefined) return;
    this.#detach();
    if (this.#req.complete) {
      this.#req.resume();
      return this.#handOver(error);
    }
    this.#handOver(stopReading(this.#req, this.#res, error));
  }

  #finish(error: HttpError | null, body?: unknown): void {
    if (this.#callback === undefined) return;
    this.#detach();
    this.#handOver(error, body);
  }

  /** Removes every listener this body added, and the decoder with them; safe to repeat. */
  #detach(): void {
    this.#source.off('data', this.#onData);
    this.#source.off('end', this.#onEnd);
    this.#source.off('error', this.#onSourceError);
    this.#req.off('close', this.#onClose);
    this.#req.off('error', this.#onRequestError);
    if (this.#source === this.#req || this.#source.destroyed) return;
    this.#req.unpipe(this.#source as Transform);
    // A late 'error' from the destroyed decoder must not become an uncaught exception.
    this.#source.on('error', ignore);
    this.#source.destroy();
  }

  /** Calls back once; #callback is cleared first, so a throw from the callback is never answered again. */
  #handOver(error: HttpError | null, body?: unknown): void {
    const callback = this.#callback!;
    this.#callback = undefined;
    if (error === null) (this.#req as {_body?: boolean})._body = true;
    callback(error, body);
  }
}

/** As body-parser: 403 `entity.verify.failed`, unless what `verify` threw says its own status and type. */
function verifyFailed(thrown: unknown): HttpError {
  const {message, type} = (typeof thrown === 'object' && thrown !== null ? thrown : {}) as {message?: unknown; type?: unknown};
  const error = new HttpError(
    httpStatusOf(thrown) ?? 403,
    typeof type === 'string' ? type : 'entity.verify.failed',
    typeof message === 'string' && message !== '' ? message : 'the request body failed verification',
  );
  error.cause = thrown;
  return error;
}

function aborted(received: number): HttpError {
  const error = new HttpError(400, 'request.aborted', 'request aborted');
  error.length = received;
  return error;
}

function ignore(): void {}

// ---------------------------------------------------------------------------------------------
// Query, params, headers: already parsed, so value mode.

export type PartSchemas = Partial<Record<RequestPart, unknown>>;

const PART_ORDER: readonly RequestPart[] = ['params', 'query', 'headers'];

/** Compiles one validator per given part; `check` returns the first failing part as an HttpError. */
export class PartsValidator {
  readonly #validators: ReadonlyArray<readonly [RequestPart, Validator]>;
  readonly #invalidStatus: number;

  constructor(schemas: PartSchemas, options: PartsOptions = {}) {
    const compiled: Array<readonly [RequestPart, Validator]> = [];
    for (const part of PART_ORDER) {
      if (schemas[part] !== undefined) compiled.push([part, compile(schemas[part], compileOptions(options))]);
    }
    this.#validators = compiled;
    this.#invalidStatus = options.invalidStatus ?? 400;
  }

  /** The first failing part's error; a 500 if validating throws, so the middleware never does. */
  check(values: Record<RequestPart, unknown>): HttpError | undefined {
    try {
      for (const [part, validator] of this.#validators) {
        const result = validator.validate(values[part]);
        if (!result.valid) return this.#partError(part, result.errors);
      }
    } catch (thrown) {
      return internalError(thrown, 'validating the request parts failed');
    }
    return undefined;
  }

  /** Instance locations are prefixed with the part (`/query/limit`) so one pointer space covers the request. */
  #partError(part: RequestPart, errors: OutputUnit[]): HttpError {
    const located = errors.map((unit) => ({...unit, instanceLocation: `/${part}${unit.instanceLocation}`}));
    return new HttpError(this.#invalidStatus, 'request.validation.failed', `request ${part} does not match the schema`, located);
  }
}

function errorName(status: number): string {
  const phrase = STATUS_CODES[status];
  if (phrase === undefined) return 'HttpError';
  return phrase.replace(/[^A-Za-z]/g, '') + 'Error';
}
