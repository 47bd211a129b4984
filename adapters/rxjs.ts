// stream-schema/rxjs: validation as RxJS operators. rxjs is an optional peer dependency; only
// this module imports it.
//
//   fromReadable(fs.createReadStream('events.ndjson'))
//     .pipe(validateNdjson(schema, { parse: true }))
//     .subscribe((record) => console.log(record.line, record.valid));

import { finished, type Readable } from 'node:stream';
import { Observable, type OperatorFunction } from 'rxjs';
import type { CompileOptions, OutputUnit, ResultFor, SchemaOrValidator, TypingOptions, ValidValue, Validator } from '../src/types.js';
import { validatorFor } from './validator-cache.js';
import {
  checkOnInvalid,
  invalidReason,
  InvalidRecordError,
  NdjsonRecordReader,
  readerOptionsOf,
  type NdjsonReaderOptions,
  type NdjsonRecord,
  type OnInvalid,
} from './ndjson-lines.js';
import { optionsArgument } from '../src/session/options.js';

export { InvalidRecordError, RecordThrewError, type NdjsonRecord, type OnInvalid } from './ndjson-lines.js';

export interface ValidateNdjsonOptions extends CompileOptions, NdjsonReaderOptions {
  /** `'emit'` (default) passes invalid records on, `'skip'` drops them, `'error'` fails with the first. */
  onInvalid?: OnInvalid;
}

/**
 * Takes chunks of NDJSON (text or UTF-8 bytes, split anywhere) and emits one record per non-blank
 * line, synchronously within the chunk that completed the line. The schema is compiled once, here
 * (a bad schema throws SchemaError now, not at subscription). An `as const` schema, or a validator
 * compiled from one, types the records' values.
 */
export function validateNdjson<
  const S extends SchemaOrValidator,
  const Schemas extends Record<string, unknown> = {},
  const Defaults extends boolean | 'empty' = false,
  const Parse extends boolean = false,
  T = ValidValue<S, Schemas, Defaults>,
>(schema: S, options?: ValidateNdjsonOptions & TypingOptions<Schemas, Defaults> & { parse?: Parse }): OperatorFunction<string | Uint8Array, NdjsonRecord<ResultFor<T, Parse>>>;
export function validateNdjson(schema: SchemaOrValidator, options?: ValidateNdjsonOptions): OperatorFunction<string | Uint8Array, NdjsonRecord>;
export function validateNdjson(schema: SchemaOrValidator, given?: ValidateNdjsonOptions): OperatorFunction<string | Uint8Array, NdjsonRecord> {
  const options = optionsArgument(given, 'validateNdjson');
  const validator = validatorFor(schema, options);
  const onInvalid = checkOnInvalid(options.onInvalid);
  const readerOptions = readerOptionsOf(options);
  return (source) =>
    new Observable<NdjsonRecord>((subscriber) => {
      const reader = new NdjsonRecordReader(validator, readerOptions, (record) => {
        if (record.valid || onInvalid === 'emit') subscriber.next(record);
        else if (onInvalid === 'error') subscriber.error(new InvalidRecordError(record.line, record.errors));
      });
      const subscription = source.subscribe({
        next(chunk) {
          // An exception from inside (a bad chunk, an engine bug) is an error notification, never uncaught.
          try {
            reader.write(chunk);
          } catch (error) {
            subscriber.error(error);
          }
        },
        error(error) {
          subscriber.error(error);
        },
        complete() {
          try {
            reader.end();
          } catch (error) {
            subscriber.error(error);
            return;
          }
          subscriber.complete();
        },
      });
      return () => {
        // Runs on unsubscribe, error and complete: the rest of a chunk being read is dropped.
        reader.stop();
        subscription.unsubscribe();
      };
    });
}

/** The verdict on one already-parsed value, and the value; `T`, its type when valid. */
export type ValueRecord<T = unknown> = {
  /** 0-based position of the value in the source. */
  index: number;
  errors: OutputUnit[];
} & ({ valid: true; value: T } | { valid: false; value: unknown });

export interface ValidateValuesOptions extends CompileOptions {
  /** `'emit'` (default) passes invalid records on, `'skip'` drops them, `'error'` fails with the first. */
  onInvalid?: OnInvalid;
}

/** Raised by `validateValues` with `onInvalid: 'error'`: the first invalid value. */
export class InvalidValueError extends Error {
  override readonly name = 'InvalidValueError';
  readonly code = 'values.invalidValue';
  /** 0-based position of the value in the source. */
  readonly index: number;
  readonly errors: OutputUnit[];

  constructor(index: number, errors: OutputUnit[]) {
    super(`value ${index}: ${invalidReason(errors)}`);
    this.index = index;
    this.errors = errors;
  }
}

/**
 * Validates a stream of already-parsed values (value mode), one record per value. An `as const`
 * schema, or a validator compiled from one, types the valid records' values.
 */
export function validateValues<
  const S extends SchemaOrValidator,
  const Schemas extends Record<string, unknown> = {},
  const Defaults extends boolean | 'empty' = false,
  T = ValidValue<S, Schemas, Defaults>,
>(schema: S, options?: ValidateValuesOptions & TypingOptions<Schemas, Defaults>): OperatorFunction<unknown, ValueRecord<T>>;
export function validateValues(schema: SchemaOrValidator, options?: ValidateValuesOptions): OperatorFunction<unknown, ValueRecord>;
export function validateValues(schema: SchemaOrValidator, given?: ValidateValuesOptions): OperatorFunction<unknown, ValueRecord> {
  const options = optionsArgument(given, 'validateValues');
  const validator: Validator = validatorFor(schema, options);
  const onInvalid = checkOnInvalid(options.onInvalid);
  return (source) =>
    new Observable<ValueRecord>((subscriber) => {
      let index = 0;
      return source.subscribe({
        next(value) {
          const position = index++;
          let record: ValueRecord;
          try {
            const result = validator.validate(value);
            // A valid result's value: the one judged, should validation have replaced it.
            record = result.valid ? { index: position, valid: true, errors: result.errors, value: result.value } : { index: position, valid: false, errors: result.errors, value };
          } catch (error) {
            subscriber.error(error);
            return;
          }
          if (record.valid || onInvalid === 'emit') subscriber.next(record);
          else if (onInvalid === 'error') subscriber.error(new InvalidValueError(position, record.errors));
        },
        error(error) {
          subscriber.error(error);
        },
        complete() {
          subscriber.complete();
        },
      });
    });
}

/**
 * A Node Readable as an Observable of its chunks. Errors (including a premature close) become
 * error notifications; unsubscribing before the end destroys the stream. There is no backpressure
 * in an Observable, so keep the pipeline synchronous (as validateNdjson is) to keep memory bounded.
 */
export function fromReadable<T = Buffer>(stream: Readable): Observable<T> {
  return new Observable<T>((subscriber) => {
    const onData = (chunk: T): void => subscriber.next(chunk);
    stream.on('data', onData);
    const stopWatching = finished(stream, { writable: false }, (error) => {
      if (error) subscriber.error(error);
      else subscriber.complete();
    });
    return () => {
      stream.off('data', onData);
      stopWatching();
      if (!stream.readableEnded && !stream.destroyed) stream.destroy();
    };
  });
}
