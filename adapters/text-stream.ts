// One JSON document streamed as text deltas by a producer you pay for, such as an LLM API's
// structured output arriving over server-sent events: validate the deltas as they come, stop
// reading at the first certain error so the caller can abort the upstream request, and tell at
// any point whether the document is still possibly valid. Nothing here needs a Node API.
//
//   const result = await validateTextStream(deltas(response), schema);
//   if (!result.complete) controller.abort();   // the model went wrong: stop paying for it

import type {CompileOptions, Result, ResultFor, SchemaOrValidator, Session, TypingOptions, ValidValue, Validator} from '../src/types.js';
import {Deadline} from './deadline.js';
import {parseLimit, parseTimeout, tooLarge, type BodyTimeout, type HttpError} from './http-errors.js';
import {validatorFor} from './validator-cache.js';
import {optionsArgument} from '../src/session/options.js';
import {ArgumentError} from '../src/index.js';

/**
 * Default `limit`, 1 MiB. The longest completions LLM APIs give are on the order of 100 000
 * tokens of a few bytes each, well under it. A runaway stream (a model repeating itself, a source
 * sending whitespace without end) is cut there, its value with `parse` at some 20 MB at most
 * (1 MiB of `{},` parses to about 17 MB of heap). An HTTP body's default, 100 KiB, would refuse
 * long but sound completions.
 */
const DEFAULT_LIMIT = 2 ** 20;

/**
 * Default `timeout`, in milliseconds. `total` is the request timeout the OpenAI and Anthropic SDKs
 * default to; `idle` waits out a model that reasons for minutes before its first delta, and still
 * answers a stalled stream before `total`.
 */
const DEFAULT_TIMEOUT: Required<BodyTimeout> = {idle: 300_000, total: 600_000};

/** Options of `textStreamValidator`: the validator's, and how the document is read. */
export interface TextStreamValidatorOptions extends CompileOptions {
  /** Assemble the document while validating it, as `JSON.parse` would, into `Result.value` (default false). */
  parse?: boolean;
  /**
   * Most UTF-8 bytes of the document: a number of bytes or a string like `'4mb'` (default
   * `'1mb'`). A delta that takes the document past it is refused with 413 `entity.too.large`.
   */
  limit?: number | string;
}

/** Options of `validateTextStream`. */
export interface TextStreamOptions extends TextStreamValidatorOptions {
  /**
   * How long reading the document may take, in milliseconds: `idle` with no delta arriving
   * (default 300 000), `total` from the call to the source's end (default 600 000); 0 turns a
   * bound off. Past either: 408 `request.timeout`.
   */
  timeout?: BodyTimeout;
}

/**
 * A verdict on a streamed document (`R`: with the value when asked to `parse`), and whether the
 * stream was read to its end to reach it.
 */
export type TextStreamResult<R extends Result = Result> = R & {
  /**
   * The source was read to its end. False when the verdict came at the first certain error, the
   * rest unread: the producer was told to stop (its iterator's `return()`).
   */
  complete: boolean;
};

/** The incremental form: write each delta as it arrives, ask at any point, end once. `R`: what `end` gives. */
export class TextStreamValidator<R extends Result = Result> {
  readonly #session: Session<R>;
  readonly #limit: number;
  /** UTF-8 bytes of the deltas written, counted against `limit`. */
  #received = 0;
  /** The last text delta ended with a high surrogate, whose low half may open the next. */
  #endsInHighSurrogate = false;
  /** The 413 once a delta took the document past `limit`: the validator takes nothing more. */
  #refusal: HttpError | undefined;

  /** @throws TypeError for a `limit` that is not a size. */
  constructor(validator: Validator, options: {parse?: boolean; limit?: number | string} = {}) {
    this.#limit = parseLimit(options.limit ?? DEFAULT_LIMIT);
    this.#session = validator.session({parse: options.parse ?? false}) as Session<R>;
  }

  /**
   * Feeds the next delta: text, or UTF-8 bytes that may end inside a character. Returns false
   * once the document is certainly invalid; no later delta can change that.
   *
   * @throws HttpError 413 `entity.too.large` when the delta takes the document past `limit`
   * (unless the bytes within it already hold a certain error: then false), and at every call after.
   */
  write(delta: string | Uint8Array): boolean {
    if (this.#refusal !== undefined) throw this.#refusal;
    if (this.#session.failed) return false;
    const room = this.#limit - this.#received;
    const {bytes, fitting} = typeof delta === 'string' ? this.#measure(delta, room) : measureBytes(delta, room);
    this.#received += bytes;
    if (fitting === delta.length) return this.#session.write(delta);
    // The bytes before the limit may hold the first certain error: that is the verdict.
    const within = typeof delta === 'string' ? delta.slice(0, fitting) : delta.subarray(0, fitting);
    if (fitting > 0 && !this.#session.write(within)) return false;
    this.#refusal = tooLarge(this.#limit, this.#received);
    throw this.#refusal;
  }

  /**
   * No certain error yet: some continuation of what was written is a valid document. True for a
   * document cut short (`{"name": "Ad`), which only `end` refuses.
   */
  get possiblyValid(): boolean {
    return this.#refusal === undefined && !this.#session.failed;
  }

  /** UTF-8 bytes of the document read so far. */
  get bytesRead(): number {
    return this.#session.bytesRead;
  }

  /**
   * The document is complete: the verdict, with the value when asked to `parse` and the document is valid.
   *
   * @throws HttpError 413 `entity.too.large` once a delta went past `limit`: what was read is no document to judge.
   */
  end(): R {
    if (this.#refusal !== undefined) throw this.#refusal;
    return this.#session.end();
  }

  #measure(text: string, room: number): Measure {
    const measure = measureText(text, room, this.#endsInHighSurrogate);
    this.#endsInHighSurrogate = isHighSurrogate(text.charCodeAt(text.length - 1));
    return measure;
  }
}

/** A delta's UTF-8 length, and how much of it (in its own units) fits in the room left. */
interface Measure {
  bytes: number;
  fitting: number;
}

function measureBytes(delta: Uint8Array, room: number): Measure {
  if (!(delta instanceof Uint8Array)) {
    throw new ArgumentError(`a text stream's delta is a string or a Uint8Array, not ${Object.prototype.toString.call(delta)}`);
  }
  return {bytes: delta.length, fitting: Math.min(delta.length, room)};
}

/**
 * UTF-8 length of `text` as the tokenizer counts it: a surrogate pair is 4 bytes, also when the
 * previous delta ended with its high half (`pairedStart`), and a lone surrogate is U+FFFD's 3.
 * `fitting` is the most code units, not cutting a pair, whose bytes fit in `room`.
 */
function measureText(text: string, room: number, pairedStart: boolean): Measure {
  let bytes = 0;
  let fitting = -1;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    let size = 3;
    let units = 1;
    if (unit < 0x80) size = 1;
    else if (unit < 0x800) size = 2;
    else if (isHighSurrogate(unit) && isLowSurrogate(text.charCodeAt(index + 1))) {
      size = 4;
      units = 2;
    } else if (index === 0 && pairedStart && isLowSurrogate(unit)) size = 1;
    if (fitting < 0 && bytes + size > room) fitting = index;
    bytes += size;
    index += units - 1;
  }
  return {bytes, fitting: fitting < 0 ? text.length : fitting};
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** The options that type a door's verdict: `parse`, and those that type a valid value. */
type Typing<Schemas, Defaults, Parse> = TypingOptions<Schemas, Defaults> & {parse?: Parse};

/**
 * A TextStreamValidator for `schema` (a JSON Schema, compiled on its first use and kept for that
 * object and options, or a validator made by `compile`). An `as const` schema, or a validator
 * compiled from one, types the verdict's value.
 */
export function textStreamValidator<
  const S extends SchemaOrValidator,
  const Schemas extends Record<string, unknown> = {},
  const Defaults extends boolean | 'empty' = false,
  const Parse extends boolean = false,
  T = ValidValue<S, Schemas, Defaults>,
>(schema: S, options?: TextStreamValidatorOptions & Typing<Schemas, Defaults, Parse>): TextStreamValidator<ResultFor<T, Parse>>;
export function textStreamValidator(schema: SchemaOrValidator, options?: TextStreamValidatorOptions): TextStreamValidator;
export function textStreamValidator(schema: SchemaOrValidator, given?: TextStreamValidatorOptions): TextStreamValidator {
  const options = optionsArgument(given, 'textStreamValidator');
  return new TextStreamValidator(validatorFor(schema, options), options);
}

/**
 * Validates the document `source` yields, delta by delta. Resolves at the first certain error
 * without asking for another delta, or at the source's end. A source that throws rejects the
 * promise with what it threw. Rejects with an HttpError, as the HTTP doors do, when the document
 * goes past `limit` (413 `entity.too.large`) or takes longer than `timeout` (408
 * `request.timeout`).
 *
 * Leaving before the source's end, it calls the iterator's `return()` (as `break` in a `for
 * await` does: an async generator's `finally` runs, and can abort its request), without waiting
 * for it to settle. A generator waiting inside an `await` runs its `finally` only once that await
 * settles: after a timeout, abort its request yourself.
 *
 * An `as const` schema, or a validator compiled from one, types the verdict's value.
 */
export function validateTextStream<
  const S extends SchemaOrValidator,
  const Schemas extends Record<string, unknown> = {},
  const Defaults extends boolean | 'empty' = false,
  const Parse extends boolean = false,
  T = ValidValue<S, Schemas, Defaults>,
>(source: AsyncIterable<string | Uint8Array>, schema: S, options?: TextStreamOptions & Typing<Schemas, Defaults, Parse>): Promise<TextStreamResult<ResultFor<T, Parse>>>;
export function validateTextStream(source: AsyncIterable<string | Uint8Array>, schema: SchemaOrValidator, options?: TextStreamOptions): Promise<TextStreamResult>;
export async function validateTextStream(source: AsyncIterable<string | Uint8Array>, schema: SchemaOrValidator, given?: TextStreamOptions): Promise<TextStreamResult> {
  const options = optionsArgument(given, 'validateTextStream');
  const bounds = parseTimeout(options.timeout, DEFAULT_TIMEOUT);
  const validator = textStreamValidator(schema, options);
  const deadline = new Deadline(bounds, () => validator.bytesRead);
  try {
    return await readDeltas(source[Symbol.asyncIterator](), validator, deadline);
  } finally {
    deadline.clear();
  }
}

async function readDeltas(iterator: AsyncIterator<string | Uint8Array>, validator: TextStreamValidator, deadline: Deadline): Promise<TextStreamResult> {
  for (;;) {
    let next: IteratorResult<string | Uint8Array>;
    try {
      next = await Promise.race([iterator.next(), deadline.expired]);
    } catch (thrown) {
      // A source that threw has ended; as `for await`, ask it to stop only when time ran out.
      if (deadline.ranOut(thrown)) stopSource(iterator);
      throw thrown;
    }
    deadline.restartIdle();
    if (next.done === true) return {...validator.end(), complete: true};
    let possiblyValid: boolean;
    try {
      possiblyValid = validator.write(next.value);
    } catch (thrown) {
      stopSource(iterator);
      throw thrown;
    }
    if (!possiblyValid) {
      stopSource(iterator);
      return {...validator.end(), complete: false};
    }
  }
}

/**
 * Tells the source to stop, without waiting for it: the verdict must not wait for the producer
 * to wind down, which may never happen, and what its `return()` throws or rejects with says
 * nothing the verdict does not.
 */
function stopSource(iterator: AsyncIterator<unknown>): void {
  try {
    Promise.resolve(iterator.return?.()).catch(ignore);
  } catch {
    // return() threw at once: the verdict stands all the same.
  }
}

function ignore(): void {}
