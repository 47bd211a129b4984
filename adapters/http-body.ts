// The framework-free half of the Express and Koa adapters: decide whether a request carries a
// JSON body we accept, decode it (Content-Encoding through node:zlib, streaming), feed it chunk by
// chunk to a validator session, and stop reading at the first byte that makes it certainly bad.
// The errors, their status codes and `type` strings, the options and their parsing, and the
// problem documents are in ./http-errors.ts, shared with the web front door.

import type {IncomingMessage, ServerResponse} from 'node:http';
import type {Socket} from 'node:net';
import type {Transform} from 'node:stream';
import {createBrotliDecompress, createGunzip, createInflate} from 'node:zlib';

import {ArgumentError, isValidator} from '../src/index.js';
import type {OutputUnit, Validator} from '../src/types.js';
import {
  HttpError,
  aborted,
  bodyValidator,
  compileOptions,
  encodingFromHeader,
  encodingUnsupported,
  errorFromResult,
  httpStatusOf,
  internalError,
  lengthFromHeader,
  mediaTypeTest,
  parseFailed,
  parseInvalidStatus,
  parseLimit,
  parseTimeout,
  refuseMediaType,
  syntaxUnit,
  timedOut,
  tooLarge,
  valueRefused,
  type BodyParsingOptions,
  type BodyTimeout,
  type MediaTypeTest,
  type ValidatorOptions,
} from './http-errors.js';
import {Deadlines, type Expiring, type Watch} from './deadline.js';
import {JsonBody, type JsonBodySettings} from './json-body.js';
import {validatorFor} from './validator-cache.js';
import {argumentKind} from '../src/session/options.js';

export {HttpError, PROBLEM_CONTENT_TYPE, errorHeaders, httpStatusOf, internalError, parseLimit, toProblem} from './http-errors.js';
export type {BodyTimeout, ProblemDocument, ProblemItem, ProblemOptions, ValidatorOptions} from './http-errors.js';

/** Options shared by `validateBody` in both adapters. */
export interface BodyOptions extends BodyParsingOptions<IncomingMessage> {
  /**
   * body-parser's `verify(req, res, body, encoding)`, e.g. for a webhook's signature: called with
   * the whole body (decoded from its Content-Encoding, a byte order mark included) once it has
   * arrived, before its verdict. Throw to refuse it: 403 `entity.verify.failed`, or the thrown
   * error's own `status` and `type`. A body refused before its end is never verified.
   */
  // A method signature, as in body-parser's types: a handler written for Express's `Request` fits.
  verify?(req: IncomingMessage, res: ServerResponse, body: Buffer, encoding: string): void;
}

/** Options of `validate({query, params, headers})`. */
export interface PartsOptions extends ValidatorOptions {
  /**
   * As ajv's option (see CompileOptions), but on by default here: query, path and header values
   * arrive as strings, so `'array'` (default) turns `?n=5` into 5 under `{type: 'integer'}`, and a
   * parameter sent once into a one-item array where the schema says `array`, as Fastify's
   * validation does; `false` judges the strings as sent. A part given as a compiled validator
   * keeps the options it was compiled with.
   */
  coerceTypes?: boolean | 'array';
  /** Status for a part that violates its schema (default 400). */
  invalidStatus?: 400 | 422;
}

/** The request parts that `validate` checks in value mode. */
export type RequestPart = 'query' | 'params' | 'headers';

type Decoder = () => Transform;

/**
 * The decoder of each Content-Encoding we read. A Map, not an object: the key is what the client
 * sent, and `constructor` or `__proto__` must find nothing rather than Object's own members.
 */
const DECODERS: ReadonlyMap<string, Decoder> = new Map([
  ['gzip', createGunzip],
  ['x-gzip', createGunzip],
  ['deflate', createInflate],
  ['br', createBrotliDecompress],
]);

/** RFC 9110 §9.3: these methods define no meaning for a body, so a route may be reached without one. */
const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE']);

// ---------------------------------------------------------------------------------------------
// Reading a body

/** Reading ended; `body` is the parsed value, or `NO_BODY` for a bodyless request that passes through. */
export type BodyCallback = (error: HttpError | null, body?: unknown) => void;

/** A BodyCallback's arguments. */
type Outcome = readonly [error: HttpError | null, body?: unknown];

/** Marks "this request had no body and its method allows that": leave `req.body` alone. */
export const NO_BODY: unique symbol = Symbol('stream-schema.noBody');

interface BodySettings {
  /** Bounds the bytes read from the connection and, apart, the bytes decoded from them. */
  readonly limit: number;
  readonly timeout: Required<BodyTimeout>;
  /** The timer of `timeout` for every body this reader has in flight; none when both bounds are 0. */
  readonly deadlines: Deadlines | undefined;
  readonly inflate: boolean;
  readonly invalidStatus: number;
  readonly acceptsType: MediaTypeTest<IncomingMessage>;
  readonly verify: BodyOptions['verify'];
  readonly reviver: BodyOptions['reviver'];
  /**
   * What each body's JsonBody is given, made once here rather than per body. The body is kept
   * whole: its value is JSON.parse of it, and `verify` gets it. `readToEnd` is `allErrors`: read
   * on to the end (within `limit`) to report every error, instead of stopping at the first.
   */
  readonly body: JsonBodySettings;
}

/** Compiles the schema once; `read` then validates one request body per call. */
export class BodyReader {
  readonly validator: Validator;
  readonly #settings: BodySettings;

  /** @throws SchemaError for a schema that does not compile, when the middleware is created. */
  constructor(schema: unknown, options: BodyOptions = {}) {
    this.validator = bodyValidator(schema, options);
    const timeout = parseTimeout(options.timeout);
    const limit = parseLimit(options.limit ?? '100kb');
    const invalidStatus = parseInvalidStatus(options.invalidStatus, 422);
    this.#settings = {
      limit,
      timeout,
      deadlines: timeout.idle > 0 || timeout.total > 0 ? new Deadlines(timeout) : undefined,
      inflate: options.inflate ?? true,
      invalidStatus,
      acceptsType: mediaTypeTest(options.type),
      verify: options.verify,
      reviver: options.reviver,
      body: {limit, strict: options.strict ?? true, invalidStatus, readToEnd: this.validator.allErrors, keepText: true},
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
    const source = encoding === 'identity' ? req : DECODERS.get(encoding)!();
    new BodyStream(req, res, source, this.validator, this.#settings, callback, length).start();
    return undefined;
  }

  /** Bodies this reader is reading now under its `timeout` (none once each is handed over). */
  get watching(): number {
    return this.#settings.deadlines?.watching ?? 0;
  }

  /** The `timeout` bounds, defaults filled in. */
  get timeout(): Required<BodyTimeout> {
    return this.#settings.timeout;
  }

  /** `read` as a promise, for Koa. */
  readAsync(req: IncomingMessage, res: ServerResponse, parsedElsewhere?: () => unknown): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.read(req, res, (error, body) => (error === null ? resolve(body) : reject(error)), parsedElsewhere);
    });
  }

  /** Everything decidable from the head of a request with a body, before a byte of it is read. */
  #refuseFromHeaders(req: IncomingMessage, encoding: string, length: number | undefined): HttpError | undefined {
    const refusal = refuseMediaType(req.headers['content-type'], this.#settings.acceptsType, req);
    if (refusal !== undefined) return refusal;
    if (encoding !== 'identity' && (!this.#settings.inflate || !DECODERS.has(encoding))) {
      return encodingUnsupported(encoding);
    }
    // The limit bounds the bytes as sent, whatever their encoding: an announced length past it is refused unread.
    if (length !== undefined && length > this.#settings.limit) return tooLarge(this.#settings.limit, length);
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
  return lengthFromHeader(req.headers['content-length']);
}

function contentEncoding(req: IncomingMessage): string {
  return encodingFromHeader(req.headers['content-encoding']);
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
export function lingeringClose(socket: Socket): void {
  socket.destroySoon = function lingeringDestroySoon(this: Socket): void {
    this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    this.once('close', () => clearTimeout(timer));
  };
}

/**
 * One request body in flight: the listeners, the counters, the watch of its `timeout`, and the
 * single hand-over of the outcome. Every listener runs through #guarded, and `expire` alike, so
 * nothing thrown while reading escapes into an emitter or the timer; every way out goes through
 * #detach, which removes them all.
 */
class BodyStream implements Expiring {
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  readonly #source: IncomingMessage | Transform;
  /** The body's bytes: limit, byte order mark, `strict`, the session and its refusal. */
  readonly #body: JsonBody;
  readonly #settings: BodySettings;
  #callback: BodyCallback | undefined;
  /** With a Content-Encoding: bytes read from the request before decoding, counted against `limit` too. */
  #encodedReceived = 0;
  /** This body under the reader's `timeout`: each chunk that arrives restarts `idle`. */
  #watch: Watch | undefined;
  // The listeners, made once per body (a chunk allocates no closure); the request's own two only
  // when a decoder stands between it and the body.
  readonly #onData = this.#guarded(this.#readChunk);
  readonly #onEnd = this.#guarded(this.#ended);
  readonly #onSourceError = this.#guarded(this.#sourceFailed);
  readonly #onClose = this.#guarded(this.#closed);
  #onRequestError: ((error: Error) => void) | undefined;
  #onEncodedData: ((chunk: Buffer) => void) | undefined;

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
    // Content-Length tells a body that came whole in one chunk only when nothing decodes it.
    this.#body = new JsonBody(validator, settings.body, source === req ? length : undefined);
    this.#settings = settings;
    this.#callback = callback;
  }

  /** Attaches the listeners; never throws (what would is this request's 500). */
  start(): void {
    try {
      this.#watch = this.#settings.deadlines?.watch(this);
      this.#source.on('data', this.#onData);
      this.#source.on('end', this.#onEnd);
      this.#source.on('error', this.#onSourceError);
      this.#req.on('close', this.#onClose);
      if (this.#source !== this.#req) {
        this.#onRequestError = this.#guarded(this.#requestFailed);
        this.#onEncodedData = this.#guarded(this.#readEncodedChunk);
        this.#req.on('error', this.#onRequestError);
        // Before the pipe's own listener: a chunk past the limit is refused before it is decoded.
        this.#req.on('data', this.#onEncodedData);
        this.#req.pipe(this.#source as Transform);
      }
    } catch (thrown) {
      this.#failInternally(thrown);
    }
  }

  /** A listener that cannot throw into its emitter: what it throws ends this request as a 500. */
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

  #readChunk(chunk: Buffer): void {
    if (this.#watch !== undefined) this.#watch.active = true;
    this.#read(chunk);
  }

  /**
   * A chunk as sent, before the decoder. The decoded count alone is no bound on the input: a
   * stream of empty gzip members decodes to nothing, however long it is.
   */
  #readEncodedChunk(chunk: Buffer): void {
    if (this.#watch !== undefined) this.#watch.active = true;
    this.#encodedReceived += chunk.length;
    if (this.#encodedReceived > this.#settings.limit) this.#reject(tooLarge(this.#settings.limit, this.#encodedReceived));
  }

  /** A bound of `timeout` ran out (Deadlines). */
  expire(bound: keyof BodyTimeout): void {
    try {
      this.#reject(timedOut(bound, this.#settings.timeout[bound], this.#bytesRead()));
    } catch (thrown) {
      this.#failInternally(thrown);
    }
  }

  /** Bytes read from the request so far, as sent. */
  #bytesRead(): number {
    return this.#source === this.#req ? this.#body.received : this.#encodedReceived;
  }

  #read(chunk: Buffer): void {
    const refusal = this.#body.write(chunk);
    if (refusal !== undefined) this.#reject(refusal);
  }

  #ended(): void {
    const refusal = this.#verify();
    if (refusal !== undefined) return this.#finish(refusal);
    // A body held whole gets its value from parseText, unless a reviver must shape it.
    const result = this.#body.end(this.#settings.reviver === undefined);
    if (!result.valid) return this.#finish(errorFromResult(result, this.#settings.invalidStatus));
    if ('value' in result) return this.#finish(null, result.value);
    this.#finishParsed(this.#body.text());
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

  /** body-parser's `verify`, given the whole body as it came; the refusal if it throws. */
  #verify(): HttpError | undefined {
    const verify = this.#settings.verify;
    if (verify === undefined) return undefined;
    const body = this.#body.asSent();
    try {
      verify(this.#req, this.#res, Buffer.from(body.buffer, body.byteOffset, body.byteLength), 'utf-8');
    } catch (thrown) {
      return verifyFailed(thrown);
    }
    return undefined;
  }

  #sourceFailed(error: Error): void {
    if (this.#source === this.#req) return this.#finish(aborted(this.#body.received));
    this.#reject(parseFailed([syntaxUnit(`the body could not be decoded: ${error.message}`, this.#body.received)]));
  }

  #requestFailed(): void {
    this.#finish(aborted(this.#bytesRead()));
  }

  /** The socket went away before the body's end: the client aborted. */
  #closed(): void {
    if (!this.#req.complete) this.#finish(aborted(this.#bytesRead()));
  }

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

  /** Removes every listener and the watch this body added, and the decoder with them; safe to repeat. */
  #detach(): void {
    if (this.#watch !== undefined) this.#settings.deadlines!.unwatch(this.#watch);
    this.#source.off('data', this.#onData);
    this.#source.off('end', this.#onEnd);
    this.#source.off('error', this.#onSourceError);
    this.#req.off('close', this.#onClose);
    if (this.#source === this.#req) return;
    this.#req.off('error', this.#onRequestError!);
    this.#req.off('data', this.#onEncodedData!);
    if (this.#source.destroyed) return;
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

function ignore(): void {}

// ---------------------------------------------------------------------------------------------
// Query, params, headers: already parsed, so value mode.

export type PartSchemas = Partial<Record<RequestPart, unknown>>;

const PART_ORDER: readonly RequestPart[] = ['params', 'query', 'headers'];

/**
 * The parts object of `validate()`: a schema for at least one of the parts it knows. A part it
 * does not know (Fastify's `querystring`, a `body`) would be a schema nothing applies, and the
 * middleware would check nothing: it is refused where the door is set up.
 */
function checkParts(schemas: unknown): void {
  if (typeof schemas !== 'object' || schemas === null || Array.isArray(schemas) || isValidator(schemas)) {
    throw new ArgumentError(`validate(): the first argument must be an object of schemas by part (${PART_ORDER.join(', ')}), not ${isValidator(schemas) ? 'a validator' : argumentKind(schemas)}`);
  }
  for (const name of Object.keys(schemas)) {
    if ((PART_ORDER as readonly string[]).includes(name)) continue;
    const hint = name === 'querystring' ? ' (Fastify\'s name for the query: here it is `query`)' : name === 'body' ? ' (the body is validateBody\'s)' : '';
    throw new ArgumentError(`validate(): no request part is called ${JSON.stringify(name)}${hint}; the parts are ${PART_ORDER.join(', ')}`);
  }
  if (!PART_ORDER.some((part) => (schemas as Record<string, unknown>)[part] !== undefined)) {
    throw new ArgumentError(`validate(): no schema is given for any part (${PART_ORDER.join(', ')}): the middleware would check nothing`);
  }
}

/** Compiles one validator per given part; `check` returns the first failing part as an HttpError. */
export class PartsValidator {
  readonly #validators: ReadonlyArray<readonly [RequestPart, Validator]>;
  readonly #invalidStatus: number;

  constructor(schemas: PartSchemas, options: PartsOptions = {}) {
    checkParts(schemas);
    const given = compileOptions(options);
    // A query parameter repeated arrives as an array and sent once as a string: only `'array'`
    // lets one schema (`{type: 'array'}`) take both, which is why Fastify defaults to it.
    const forSchemas = {...given, coerceTypes: given.coerceTypes ?? 'array'};
    const compiled: Array<readonly [RequestPart, Validator]> = [];
    for (const part of PART_ORDER) {
      const schema = schemas[part];
      if (schema !== undefined) compiled.push([part, validatorFor(schema, isValidator(schema) ? given : forSchemas)]);
    }
    this.#validators = compiled;
    this.#invalidStatus = parseInvalidStatus(options.invalidStatus, 400);
  }

  /**
   * The first failing part's error; a 500 if validating throws, so the middleware never does.
   * Each part of `values` is left as the value judged: under the value options (`coerceTypes`,
   * `useDefaults`, `removeAdditional`) the changed one, which the door hands on.
   */
  check(values: Record<RequestPart, unknown>): HttpError | undefined {
    try {
      for (const [part, validator] of this.#validators) {
        const result = validator.validate(values[part]);
        if (!result.valid) return this.#partError(part, result.errors);
        values[part] = result.value;
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

