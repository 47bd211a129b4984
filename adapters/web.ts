// Web streams and fetch Requests (`stream-schema/web`): validate a JSON body while it streams in,
// on any runtime with fetch's Request and web streams: Node 20, Bun, Deno, edge workers, and the
// frameworks built on them (Hono, Next.js route handlers).
//
//   const order = await validateRequest(request, orderSchema);   // the parsed body, or throws
//   ...
//   catch (error) { return problemResponse(error); }              // application/problem+json
//
// The verdicts, limits and error types are the Express and Koa middleware's (./http-errors.ts).
// The body is never built while it is judged, and at its first certainly bad byte its stream is
// cancelled, so the runtime stops reading the upload. Nothing here imports a `node:` module.

import type {Result, SchemaOrValidator, TypingOptions, ValidValue, Validator} from '../src/types.js';
import {
  HttpError,
  aborted,
  bodyValidator,
  compileOptions,
  encodingFromHeader,
  encodingUnsupported,
  errorFromResult,
  internalError,
  lengthFromHeader,
  mediaTypeTest,
  parseFailed,
  parseInvalidStatus,
  parseLimit,
  parseTimeout,
  refuseMediaType,
  syntaxUnit,
  tooLarge,
  valueRefused,
  type BodyParsingOptions,
  type BodyTimeout,
  type MediaTypeTest,
  type ValidatorOptions,
} from './http-errors.js';
import {Deadline} from './deadline.js';
import {JsonBody, type JsonBodySettings} from './json-body.js';
import {validatorFor} from './validator-cache.js';
import {optionsArgument} from '../src/session/options.js';
import {ArgumentError} from '../src/index.js';

export {HttpError, PROBLEM_CONTENT_TYPE, parseLimit, problemResponse, toProblem} from './http-errors.js';
export type {ProblemDocument, ProblemItem, ProblemOptions, ValidatorOptions} from './http-errors.js';

/** Options of `validationStream` and `validationSink`. */
export interface StreamOptions extends ValidatorOptions {
  /** Most bytes to accept: a number or a string like `'1mb'` (default: no limit). */
  limit?: number | string;
  /** Status of the HttpError for a document that is valid JSON but violates the schema (default 422). */
  invalidStatus?: 400 | 422;
}

/**
 * Options of `validateRequest`: the middleware's `validateBody` options but `verify`, with a
 * `type` predicate given the Request. `allErrors`, like the other compile options, only with a
 * schema, not with a validator made by `compile`.
 */
export type RequestOptions = BodyParsingOptions<Request>;

// ---------------------------------------------------------------------------------------------
// Requests

/**
 * Reads, decodes and validates `request`'s JSON body while it arrives, and resolves to the parsed
 * value (as `JSON.parse` gives it). `schema` is a JSON Schema, compiled on its first use and kept
 * for that object and options, or a validator made by `compile`.
 *
 * Rejects with an HttpError (http-errors compatible, the middleware's `type` strings) for a body it
 * refuses: 400 `entity.parse.failed`, 413 `entity.too.large`, 415 `entity.type.unsupported` /
 * `charset.unsupported` / `encoding.unsupported`, 422 `entity.validation.failed`; `problemResponse`
 * or the error's `getResponse()` answers it. A body refused before its end has had its stream
 * cancelled, and the error asks for `Connection: close`. Rejects with SchemaError for a schema
 * that does not compile.
 *
 * An `as const` schema, or a validator compiled from one, types the value through
 * json-schema-to-ts (external `$ref`s through `schemas`, defaults present with `useDefaults`), in
 * its deferred form.
 */
export function validateRequest<
  const S extends SchemaOrValidator,
  const Schemas extends Record<string, unknown> = {},
  const Defaults extends boolean | 'empty' = false,
  T = ValidValue<S, Schemas, Defaults>,
>(request: Request, schema: S, options?: RequestOptions & TypingOptions<Schemas, Defaults>): Promise<T>;
export function validateRequest(request: Request, schema: SchemaOrValidator, options?: RequestOptions): Promise<unknown>;
export async function validateRequest(request: Request, schema: unknown, given?: RequestOptions): Promise<unknown> {
  const options = optionsArgument(given, 'validateRequest');
  const validator = bodyValidator(schema, options);
  const settings = requestSettings(options, validator);
  const length = contentLength(request);
  const body = request.body;
  if (body === null || length === 0) throw parseFailed([syntaxUnit('the request has no body', 0)]);
  const encoding = contentEncoding(request);
  const decoder = encoding === 'identity' || !settings.inflate ? undefined : decompression(encoding);
  const refusal = refuseFromHeaders(request, settings, encoding, decoder, length);
  if (refusal !== undefined) {
    cancel(body, refusal);
    throw closingConnection(refusal);
  }
  const jsonBody = new JsonBody(validator, settings.body, decoder === undefined ? length : undefined);
  const deadline = new Deadline(settings.timeout, () => jsonBody.received);
  try {
    await readAll(decoder === undefined ? new BodySource(body) : new DecodedSource(body, decoder, settings.body.limit), jsonBody, deadline);
  } finally {
    deadline.clear();
  }
  return bodyValue(jsonBody, settings);
}

interface RequestSettings {
  readonly body: JsonBodySettings;
  readonly inflate: boolean;
  readonly acceptsType: MediaTypeTest<Request>;
  readonly reviver: RequestOptions['reviver'];
  readonly timeout: Required<BodyTimeout>;
}

function requestSettings(options: RequestOptions, validator: Validator): RequestSettings {
  return {
    body: {
      limit: parseLimit(options.limit ?? '100kb'),
      strict: options.strict ?? true,
      invalidStatus: parseInvalidStatus(options.invalidStatus, 422),
      readToEnd: validator.allErrors,
      keepText: true,
    },
    inflate: options.inflate ?? true,
    acceptsType: mediaTypeTest(options.type),
    reviver: options.reviver,
    timeout: parseTimeout(options.timeout),
  };
}

/** Everything decidable from the head of a request with a body, before a byte of it is read. */
function refuseFromHeaders(
  request: Request,
  settings: RequestSettings,
  encoding: string,
  decoder: DecompressionStream | undefined,
  length: number | undefined,
): HttpError | undefined {
  const refusal = refuseMediaType(request.headers.get('content-type') ?? undefined, settings.acceptsType, request);
  if (refusal !== undefined) return refusal;
  if (encoding !== 'identity' && decoder === undefined) return encodingUnsupported(encoding);
  // With an encoding the limit applies to the decoded size, unknown until it is decoded.
  if (encoding === 'identity' && length !== undefined && length > settings.body.limit) return tooLarge(settings.body.limit, length);
  return undefined;
}

function contentLength(request: Request): number | undefined {
  return lengthFromHeader(request.headers.get('content-length'));
}

function contentEncoding(request: Request): string {
  return encodingFromHeader(request.headers.get('content-encoding'));
}

/**
 * RFC 9110 §8.4.1 codings and the CompressionStream formats that decode them. A Map: the key is
 * what the client sent, and `constructor` must find nothing rather than Object's own members.
 */
const FORMATS: ReadonlyMap<string, string> = new Map([
  ['gzip', 'gzip'],
  ['x-gzip', 'gzip'],
  ['deflate', 'deflate'],
  ['br', 'brotli'],
]);

/**
 * The decoder of a Content-Encoding, or undefined when this runtime has none. The web standard
 * names gzip and deflate (zlib-wrapped, as HTTP's `deflate` is); a runtime may know brotli, and
 * refuses a format it does not know with a TypeError.
 */
function decompression(encoding: string): DecompressionStream | undefined {
  const format = FORMATS.get(encoding);
  if (format === undefined) return undefined;
  try {
    return new DecompressionStream(format as CompressionFormat);
  } catch {
    return undefined;
  }
}

/** The value of a body that has been read to its end, or its refusal. */
function bodyValue(jsonBody: JsonBody, settings: RequestSettings): unknown {
  const short = jsonBody.endedShort();
  if (short !== undefined) throw short;
  const reviver = settings.reviver;
  const result = guarded(() => jsonBody.end(reviver === undefined));
  if (!result.valid) throw errorFromResult(result, settings.body.invalidStatus);
  if ('value' in result) return result.value;
  // The validator has checked the text (well-formed, no repeated key, valid): JSON.parse gives
  // the value the session would have assembled, at a fraction of the cost, as in the middleware.
  try {
    return JSON.parse(jsonBody.text(), reviver);
  } catch (thrown) {
    throw valueRefused(thrown);
  }
}

// ---------------------------------------------------------------------------------------------
// Reading a stream

/** A request body being read: its chunks, and a way to stop it that reaches the sender. */
interface Source {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  /** Stops reading and cancels the body, so its producer stops. Not awaited: see `cancel`. */
  stop(reason: HttpError): void;
  /** What a failed read means: the body could not be decoded, or the client went away. */
  failure(thrown: unknown, received: number): HttpError;
}

class BodySource implements Source {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;

  constructor(body: ReadableStream<Uint8Array>) {
    this.#reader = body.getReader();
  }

  read(): Promise<ReadableStreamReadResult<Uint8Array>> {
    return this.#reader.read();
  }

  stop(reason: HttpError): void {
    cancel(this.#reader, reason);
  }

  failure(_thrown: unknown, received: number): HttpError {
    return aborted(received);
  }
}

/**
 * A body read through a DecompressionStream, fed by hand rather than piped: one compressed chunk
 * at a time, and only while the decoded side owes a chunk, so that no more of the upload is read
 * than its decoded bytes need, and `stop` cancels the body itself. A pipe trusts the decoder's
 * backpressure, and Node 20's takes in the whole upload ahead of its output; nor does a pipe pass
 * a cancel on to its source there.
 */
class DecodedSource implements Source {
  readonly #body: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoded: ReadableStreamDefaultReader<Uint8Array>;
  readonly #writer: WritableStreamDefaultWriter<BufferSource>;
  /** The body was read to its end, or failed. */
  #bodyDone = false;
  /** The body itself failed (the client went away), as opposed to its decoding. */
  #bodyFailed = false;
  /** The compressed chunk being read and written, one at a time. */
  #feeding: Promise<void> | undefined;
  /**
   * `limit` bounds the bytes read as well as the bytes decoded, as in the Node middleware: a
   * stream of empty gzip members decodes to nothing while the upload goes on and on.
   */
  readonly #limit: number;
  #read = 0;
  #tooLarge: HttpError | undefined;

  constructor(body: ReadableStream<Uint8Array>, decoder: DecompressionStream, limit: number) {
    this.#limit = limit;
    this.#body = body.getReader();
    this.#decoded = decoder.readable.getReader();
    this.#writer = decoder.writable.getWriter();
  }

  async read(): Promise<ReadableStreamReadResult<Uint8Array>> {
    let owed = true;
    const output = this.#decoded.read();
    const delivered = output.then(
      () => void (owed = false),
      () => void (owed = false),
    );
    // A write may wait for the decoded side to be read (its backpressure): the output, once it
    // comes, ends the wait, and the write goes on in the background until the next read.
    while (owed && !this.#bodyDone) {
      this.#feeding ??= this.#feedOne().finally(() => (this.#feeding = undefined));
      await Promise.race([this.#feeding, delivered]);
    }
    return output;
  }

  /** Writes the next compressed chunk and waits until the decoder has taken it; never rejects. */
  async #feedOne(): Promise<void> {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await this.#body.read();
    } catch (thrown) {
      this.#bodyDone = this.#bodyFailed = true;
      // The decoded side errors with it, and `read` reports it.
      return void this.#writer.abort(thrown).catch(ignore);
    }
    if (next.done) {
      this.#bodyDone = true;
      return void this.#writer.close().catch(ignore);
    }
    this.#read += next.value.byteLength;
    if (this.#read > this.#limit) {
      this.#bodyDone = true;
      this.#tooLarge = tooLarge(this.#limit, this.#read);
      // The decoded side errors with it, and `read` reports it (see failure).
      return void this.#writer.abort(this.#tooLarge).catch(ignore);
    }
    try {
      // Body chunks are never views of a SharedArrayBuffer, which a decoder may refuse.
      await this.#writer.write(next.value as Uint8Array<ArrayBuffer>);
    } catch {
      // The decoder failed on these bytes: the decoded side has errored, and `read` reports it.
      this.#bodyDone = true;
    }
  }

  stop(reason: HttpError): void {
    this.#bodyDone = true;
    cancel(this.#body, reason);
    cancel(this.#decoded, reason);
  }

  failure(thrown: unknown, received: number): HttpError {
    if (this.#bodyFailed) return aborted(received);
    if (this.#tooLarge !== undefined) {
      this.stop(this.#tooLarge);
      return closingConnection(this.#tooLarge);
    }
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    const refusal = parseFailed([syntaxUnit(`the body could not be decoded: ${message}`, received)]);
    // The decoder stopped on the bytes; the rest of the body is left unread.
    this.stop(refusal);
    return closingConnection(refusal);
  }
}

/**
 * Reads `source` to its end into `jsonBody`. At a refusal it stops pulling, stops the source
 * (cancelling the body) and throws the refusal.
 */
async function readAll(source: Source, jsonBody: JsonBody, deadline: Deadline): Promise<void> {
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await Promise.race([source.read(), deadline.expired]);
    } catch (thrown) {
      if (!deadline.ranOut(thrown)) throw source.failure(thrown, jsonBody.received);
      source.stop(thrown);
      throw closingConnection(thrown);
    }
    deadline.restartIdle();
    if (next.done) return;
    const refusal = guarded(() => jsonBody.write(asBytes(next.value)));
    if (refusal !== undefined) {
      source.stop(refusal);
      throw jsonBody.complete ? refusal : closingConnection(refusal);
    }
  }
}

/** What the validator or the feeding throws unexpectedly is a 500, never a rejection of another kind. */
function guarded<T>(work: () => T): T {
  try {
    return work();
  } catch (thrown) {
    if (thrown instanceof HttpError) throw thrown;
    throw internalError(thrown);
  }
}

function asBytes(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  throw new ArgumentError(`a JSON body stream gives Uint8Array chunks, not ${Object.prototype.toString.call(chunk)}`);
}

/**
 * Cancels a body we stop reading, so its producer stops: the runtime stops reading the upload.
 * Not awaited: the answer must not wait for the source to wind down, and what cancel rejects
 * with says nothing the refusal does not.
 */
function cancel(stream: ReadableStream<Uint8Array> | ReadableStreamDefaultReader<Uint8Array>, reason: unknown): void {
  stream.cancel(reason).catch(ignore);
}

/**
 * The rest of the body stays unread on the connection, which therefore cannot carry another
 * request: the answer asks for it to be closed (a Node server honours it; runtimes that manage
 * their connections themselves handle an unread body on their own).
 */
function closingConnection(error: HttpError): HttpError {
  error.headers = {...error.headers, Connection: 'close'};
  return error;
}

function ignore(): void {}

// ---------------------------------------------------------------------------------------------
// Streams

/** The verdict a JsonBody reached: its Result, a refusal's errors, or the limit crossed. */
function refusalResult(refusal: HttpError): Result {
  if (refusal.errors.length > 0) return {valid: false, errors: refusal.errors};
  const limit = refusal.limit ?? 0;
  return {
    valid: false,
    errors: [{valid: false, kind: 'limit', keyword: 'limit', keywordLocation: '', instanceLocation: '', error: `the document is longer than ${limit} bytes`, offset: limit}],
  };
}

function streamBody(schema: unknown, options: StreamOptions): JsonBody {
  const validator = validatorFor(schema, compileOptions(options));
  return new JsonBody(validator, {
    limit: options.limit === undefined ? Infinity : parseLimit(options.limit),
    strict: false,
    invalidStatus: parseInvalidStatus(options.invalidStatus, 422),
    readToEnd: validator.allErrors,
    keepText: false,
  });
}

/**
 * A TransformStream that passes the bytes of one JSON document through while validating them, and
 * errors with an HttpError at the first certainly bad byte (the chunk holding it is not passed
 * on) or, for a document that is only found wanting at its end, at the end. Piped between a
 * fetch body and a file, the pipe stops there and cancels the body:
 *
 *   await response.body.pipeThrough(validationStream(schema)).pipeTo(file);
 */
export function validationStream(schema: SchemaOrValidator, given?: StreamOptions): TransformStream<Uint8Array, Uint8Array> {
  const options = optionsArgument(given, 'validationStream');
  const jsonBody = streamBody(schema, options);
  // The bytes go on as sent: under the value options the verdict is about another document.
  if (jsonBody.changesValues) throw new ArgumentError('validationStream passes the bytes on as sent: a validator that changes values (coerceTypes, useDefaults, removeAdditional) would judge another document');
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      const refusal = guarded(() => jsonBody.write(asBytes(chunk)));
      if (refusal !== undefined) throw refusal;
      controller.enqueue(chunk);
    },
    flush() {
      const result = guarded(() => jsonBody.end(false));
      if (!result.valid) throw errorFromResult(result, options.invalidStatus ?? 422);
    },
  });
}

/**
 * A WritableStream that validates the JSON document written to it. `result` resolves to the
 * verdict when the stream closes, or at the first certainly bad byte, when the stream also errors
 * with an HttpError, so a `pipeTo` into it stops and cancels its source. It rejects if the stream
 * is aborted.
 *
 *   const sink = validationSink(schema);
 *   request.body.pipeTo(sink).catch(() => {});
 *   const {valid, errors} = await sink.result;
 */
export function validationSink(schema: SchemaOrValidator, given?: StreamOptions): WritableStream<Uint8Array> & {readonly result: Promise<Result>} {
  const options = optionsArgument(given, 'validationSink');
  const jsonBody = streamBody(schema, options);
  let settle!: (result: Result) => void;
  let fail!: (reason: unknown) => void;
  const result = new Promise<Result>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  // A caller that only pipes, and never looks at `result`, must not get an unhandled rejection.
  result.catch(ignore);
  const sink = new WritableStream<Uint8Array>({
    write(chunk) {
      let refusal: HttpError | undefined;
      try {
        refusal = guarded(() => jsonBody.write(asBytes(chunk)));
      } catch (thrown) {
        fail(thrown);
        throw thrown;
      }
      if (refusal === undefined) return;
      settle(refusalResult(refusal));
      throw refusal;
    },
    close() {
      try {
        settle(guarded(() => jsonBody.end(false)));
      } catch (thrown) {
        fail(thrown);
        throw thrown;
      }
    },
    abort(reason) {
      fail(reason);
    },
  });
  return Object.assign(sink, {result});
}
