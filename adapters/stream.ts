// stream-schema/stream: validation as Node streams.
//
//   await pipeline(fs.createReadStream('events.ndjson'), ndjsonValidator(schema), sink);
//
//   const validator = jsonValidator(schema);
//   request.pipe(validator);
//   const result = await validator.result;

import { Transform, Writable, type TransformCallback } from 'node:stream';
import type { CompileOptions, Result, ResultFor, SchemaOrValidator, Session, SessionOptions, TypingOptions, Validator, ValidValue } from '../src/types.js';
import { isValidator } from '../src/index.js';
import { compileOptionsOf, validatorFor } from './validator-cache.js';
import { ParallelNdjsonReader, WorkerOptionsError, type BatchResult } from './ndjson-workers.js';
import {
  checkOnInvalid,
  InvalidRecordError,
  NdjsonRecordReader,
  readerOptionsOf,
  type NdjsonReaderOptions,
  type NdjsonRecord,
  type OnInvalid,
} from './ndjson-lines.js';
import { optionsArgument } from '../src/session/options.js';

export { InvalidRecordError, RecordThrewError, type NdjsonRecord, type OnInvalid } from './ndjson-lines.js';
export { NdjsonWorkerError, WorkerOptionsError } from './ndjson-workers.js';

export interface NdjsonValidatorOptions extends CompileOptions, NdjsonReaderOptions {
  /** `'emit'` (default) passes invalid records on, `'skip'` drops them, `'error'` destroys the stream with the first. */
  onInvalid?: OnInvalid;
  /** Records buffered on the readable side before the writable side is held back (default 16). */
  highWaterMark?: number;
  /**
   * Validate on this many worker threads (default: none, in this thread). The input is cut into
   * batches at line feeds; records come out in input order with their true line numbers, as
   * without workers. The schema and compile options are sent to each worker: they must be data
   * (a compiled validator, or a function among `customFormats`, is refused with a
   * WorkerOptionsError). A worker that throws or dies fails the stream with an NdjsonWorkerError.
   * At most 256.
   */
  workers?: number;
  /** Bytes handed to a worker at a time (default 256 KiB, at most 64 MiB). An input of one batch is validated in this thread. */
  batchSize?: number;
}

/** How the transform reads: NdjsonRecordReader in this thread, or ParallelNdjsonReader's workers. */
interface RecordSource {
  write(chunk: string | Uint8Array): void | Promise<void>;
  end(): void | Promise<void>;
  stop(): void;
  readonly linesRead: number;
}

/**
 * A Transform from NDJSON bytes or text (chunked anywhere) to one record object per non-blank
 * line. Backpressure is the Transform's own: while more than `highWaterMark` records wait to be
 * read, the next chunk is not accepted, so memory stays bounded by one chunk's records. An
 * `as const` schema, or a validator compiled from one, types the records' values.
 */
export function ndjsonValidator<
  const S extends SchemaOrValidator,
  const Schemas extends Record<string, unknown> = {},
  const Defaults extends boolean | 'empty' = false,
  const Parse extends boolean = false,
  T = ValidValue<S, Schemas, Defaults>,
>(schema: S, options?: NdjsonValidatorOptions & TypingOptions<Schemas, Defaults> & { parse?: Parse }): NdjsonValidatorStream<ResultFor<T, Parse>>;
export function ndjsonValidator(schema: SchemaOrValidator, options?: NdjsonValidatorOptions): NdjsonValidatorStream;
export function ndjsonValidator(schema: SchemaOrValidator, options?: NdjsonValidatorOptions): NdjsonValidatorStream {
  return new NdjsonValidatorStream(schema, options);
}

/** The records as the readable side gives them (`R`: a record's Result). */
export interface NdjsonValidatorStream<R extends Result = Result> {
  on(event: 'data', listener: (record: NdjsonRecord<R>) => void): this;
  on(event: string | symbol, listener: (...args: never[]) => void): this;
  once(event: 'data', listener: (record: NdjsonRecord<R>) => void): this;
  once(event: string | symbol, listener: (...args: never[]) => void): this;
}

export class NdjsonValidatorStream<R extends Result = Result> extends Transform {
  readonly #reader: RecordSource;
  readonly #onInvalid: OnInvalid;
  /** The first invalid record under `onInvalid: 'error'`, reported through the transform callback. */
  #invalidRecord: InvalidRecordError | undefined = undefined;

  constructor(schema: SchemaOrValidator, given?: NdjsonValidatorOptions) {
    const options = optionsArgument(given, 'ndjsonValidator');
    super({
      readableObjectMode: true,
      readableHighWaterMark: options.highWaterMark ?? 16,
      // Strings stay strings: the reader decodes bytes itself, across chunk boundaries.
      decodeStrings: false,
    });
    const validator = validatorFor(schema, options);
    this.#onInvalid = checkOnInvalid(options.onInvalid);
    const readerOptions = readerOptionsOf(options);
    this.#reader =
      options.workers === undefined
        ? new NdjsonRecordReader(validator, readerOptions, (record) => this.#deliver(record))
        : this.#parallelReader(schema, options, validator);
  }

  #parallelReader(schema: SchemaOrValidator, options: NdjsonValidatorOptions, validator: Validator): RecordSource {
    if (isValidator(schema)) throw new WorkerOptionsError('workers: a compiled validator cannot be sent to a worker thread: give the schema and its compile options instead');
    const { parse, maxLineLength, firstLine } = readerOptionsOf(options);
    const recipe = { schema, options: compileOptionsOf(options), syntaxPass: false, readerOptions: { parse, maxLineLength }, report: 'every' as const };
    const deliverBatch = (result: BatchResult): void => {
      // Past the record that fails the stream ('error'), nothing is delivered, as without workers.
      for (const { record } of result.reported) if (this.#invalidRecord === undefined) this.#deliver(record);
    };
    const reader = new ParallelNdjsonReader(validator, recipe, { workers: options.workers!, batchSize: options.batchSize, firstLine }, deliverBatch);
    return { write: (chunk) => reader.write(chunk), end: () => reader.end(), stop: () => void reader.stop(), get linesRead() { return reader.linesRead; } };
  }

  /** Lines read so far, blank ones included. */
  get linesRead(): number {
    return this.#reader.linesRead;
  }

  override _transform(chunk: string | Uint8Array, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#settle(() => this.#reader.write(chunk), callback);
  }

  override _flush(callback: TransformCallback): void {
    this.#settle(() => this.#reader.end(), callback);
  }

  /** Runs a reader step, then calls back: at once for this thread's reader, when the workers have the chunk for theirs. */
  #settle(step: () => void | Promise<void>, callback: TransformCallback): void {
    let pending: void | Promise<void>;
    try {
      pending = step();
    } catch (error) {
      callback(error as Error);
      return;
    }
    if (pending === undefined) callback(this.#invalidRecord);
    else pending.then(() => callback(this.#invalidRecord), (error: Error) => callback(error));
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#reader.stop();
    callback(error);
  }

  #deliver(record: NdjsonRecord): void {
    if (record.valid || this.#onInvalid === 'emit') {
      this.push(record);
      return;
    }
    if (this.#onInvalid === 'skip') return;
    this.#invalidRecord = new InvalidRecordError(record.line, record.errors);
    this.#reader.stop();
  }
}

export interface JsonValidatorOptions extends CompileOptions, SessionOptions {}

/**
 * A Writable that validates one JSON document while it is written. The verdict is `result`
 * (a promise) and the `'result'` event, given as soon as it is known: early, when the document is
 * certainly invalid (except with `allErrors`), else when the writable side ends. Chunks written
 * after an early verdict are accepted and dropped, so a pipe from a request body still drains.
 * An `as const` schema, or a validator compiled from one, types the verdict's value.
 */
export function jsonValidator<
  const S extends SchemaOrValidator,
  const Schemas extends Record<string, unknown> = {},
  const Defaults extends boolean | 'empty' = false,
  const Parse extends boolean = false,
  T = ValidValue<S, Schemas, Defaults>,
>(schema: S, options?: JsonValidatorOptions & TypingOptions<Schemas, Defaults> & { parse?: Parse }): JsonValidatorStream<ResultFor<T, Parse>>;
export function jsonValidator(schema: SchemaOrValidator, options?: JsonValidatorOptions): JsonValidatorStream;
export function jsonValidator<R extends Result>(schema: SchemaOrValidator, options?: JsonValidatorOptions): JsonValidatorStream<R> {
  return new JsonValidatorStream<R>(schema, options);
}

/** `R`: the verdict, with the value when asked to `parse`. */
export interface JsonValidatorStream<R extends Result = Result> {
  on(event: 'result', listener: (result: R) => void): this;
  on(event: string | symbol, listener: (...args: never[]) => void): this;
  once(event: 'result', listener: (result: R) => void): this;
  once(event: string | symbol, listener: (...args: never[]) => void): this;
}

export class JsonValidatorStream<R extends Result = Result> extends Writable {
  /** The verdict. Rejects if the stream is destroyed with an error before the verdict. */
  readonly result: Promise<R>;
  /** Every error is wanted: no early verdict, the whole document is read. */
  readonly #allErrors: boolean;
  #session: Session | undefined;
  #bytesRead = 0;
  #resolve!: (result: R) => void;
  #reject!: (error: Error) => void;

  constructor(schema: SchemaOrValidator, given?: JsonValidatorOptions) {
    const options = optionsArgument(given, 'jsonValidator');
    super({ decodeStrings: false });
    const validator = validatorFor(schema, options);
    this.#session = validator.session({ parse: options.parse === true });
    this.#allErrors = validator.allErrors;
    this.result = new Promise<R>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // Whoever awaits `result` sees a rejection; nobody awaiting it is not an unhandled rejection
    // (the error is also the stream's 'error' event).
    this.result.catch(() => undefined);
  }

  /** UTF-8 bytes of the document validated so far. */
  get bytesRead(): number {
    return this.#session?.bytesRead ?? this.#bytesRead;
  }

  override _write(chunk: string | Uint8Array, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const session = this.#session;
    if (session === undefined) {
      callback();
      return;
    }
    try {
      if (!session.write(chunk) && !this.#allErrors) this.#conclude(session);
    } catch (error) {
      callback(error as Error);
      return;
    }
    callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    const session = this.#session;
    try {
      if (session !== undefined) this.#conclude(session);
    } catch (error) {
      callback(error as Error);
      return;
    }
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (this.#session !== undefined) {
      this.#session = undefined;
      this.#reject(error ?? new Error('the stream was destroyed before the document ended'));
    }
    callback(error);
  }

  #conclude(session: Session): void {
    this.#session = undefined;
    // The session was begun with `parse` as the options typed R.
    const result = session.end() as R;
    this.#bytesRead = session.bytesRead;
    this.#resolve(result);
    this.emit('result', result);
  }
}
