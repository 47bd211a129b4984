// One JSON document streamed as text deltas by a producer you pay for, such as an LLM API's
// structured output arriving over server-sent events: validate the deltas as they come, stop
// reading at the first certain error so the caller can abort the upstream request, and tell at
// any point whether the document is still possibly valid. Nothing here needs a Node API.
//
//   const result = await validateTextStream(deltas(response), schema);
//   if (!result.complete) controller.abort();   // the model went wrong: stop paying for it

import type {CompileOptions, Result, ResultFor, SchemaOrValidator, Session, TypingOptions, ValidValue, Validator} from '../src/types.js';
import {validatorFor} from './validator-cache.js';

export interface TextStreamOptions extends CompileOptions {
  /** Assemble the document while validating it, as `JSON.parse` would, into `Result.value` (default false). */
  parse?: boolean;
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

  constructor(validator: Validator, options: {parse?: boolean} = {}) {
    this.#session = validator.session({parse: options.parse ?? false}) as Session<R>;
  }

  /**
   * Feeds the next delta: text, or UTF-8 bytes that may end inside a character. Returns false
   * once the document is certainly invalid; no later delta can change that.
   */
  write(delta: string | Uint8Array): boolean {
    return this.#session.write(delta);
  }

  /**
   * No certain error yet: some continuation of what was written is a valid document. True for a
   * document cut short (`{"name": "Ad`), which only `end` refuses.
   */
  get possiblyValid(): boolean {
    return !this.#session.failed;
  }

  /** UTF-8 bytes of the document read so far. */
  get bytesRead(): number {
    return this.#session.bytesRead;
  }

  /** The document is complete: the verdict, with the value when asked to `parse` and the document is valid. */
  end(): R {
    return this.#session.end();
  }
}

/** The options that type a door's verdict: `parse`, and those that type a valid value. */
type TypedTextStreamOptions<Schemas, Defaults, Parse> = TextStreamOptions & TypingOptions<Schemas, Defaults> & {parse?: Parse};

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
>(schema: S, options?: TypedTextStreamOptions<Schemas, Defaults, Parse>): TextStreamValidator<ResultFor<T, Parse>>;
export function textStreamValidator(schema: unknown, options?: TextStreamOptions): TextStreamValidator;
export function textStreamValidator(schema: unknown, options: TextStreamOptions = {}): TextStreamValidator {
  const {parse, ...compileOptions} = options;
  return new TextStreamValidator(validatorFor(schema, compileOptions), {parse});
}

/**
 * Validates the document `source` yields, delta by delta. Resolves at the first certain error
 * without asking for another delta, after calling the iterator's `return()` (as `break` in a
 * `for await` does: an async generator's `finally` runs, and can abort its request), or at the
 * source's end. A source that throws rejects the promise with what it threw. An `as const` schema,
 * or a validator compiled from one, types the verdict's value.
 */
export function validateTextStream<
  const S extends SchemaOrValidator,
  const Schemas extends Record<string, unknown> = {},
  const Defaults extends boolean | 'empty' = false,
  const Parse extends boolean = false,
  T = ValidValue<S, Schemas, Defaults>,
>(source: AsyncIterable<string | Uint8Array>, schema: S, options?: TypedTextStreamOptions<Schemas, Defaults, Parse>): Promise<TextStreamResult<ResultFor<T, Parse>>>;
export function validateTextStream(source: AsyncIterable<string | Uint8Array>, schema: unknown, options?: TextStreamOptions): Promise<TextStreamResult>;
export async function validateTextStream(source: AsyncIterable<string | Uint8Array>, schema: unknown, options: TextStreamOptions = {}): Promise<TextStreamResult> {
  const validator = textStreamValidator(schema, options);
  let complete = true;
  for await (const delta of source) {
    if (validator.write(delta)) continue;
    complete = false;
    break;
  }
  return {...validator.end(), complete};
}
