// Public types of stream-schema. Everything an adapter or a user touches is declared here.

/** The JSON Schema dialects we implement, each a table of keywords (see src/keywords/drafts.ts). */
export type Draft = 'draft4' | 'draft6' | 'draft7' | 'draft2019-09' | 'draft2020-12';

/** Bounds that turn hostile input into a clear error instead of a crash. Both modes enforce them. */
export interface Limits {
  /** Deepest nesting of objects and arrays (default 1000). */
  maxDepth?: number;
  /** Longest string value, in UTF-16 code units (default 16 Mi). */
  maxStringLength?: number;
  /** Longest object key, in UTF-16 code units (default 64 Ki). */
  maxKeyLength?: number;
  /** Most properties in one object (default 1 Mi). */
  maxProperties?: number;
  /** Longest number literal, in characters (default 4096). */
  maxNumberLength?: number;
  /**
   * `'reject'`: a number whose double, as `JSON.parse` reads it, is not the value judged in kind
   * (±Infinity beyond the double range, or 0 for a text that is not zero) is a
   * `limit.number.inexact` error; RFC 8259 §6 allows limits on the range of numbers. Rounding
   * within the range (9007199254740993) is not refused. Default `'allow'`: every number is judged
   * exactly on its text. Applies to text; a parsed value's numbers are doubles already.
   */
  inexactNumbers?: 'allow' | 'reject';
}

/** A JSON Schema: a boolean or an object (2020-12 core §4.3.1). */
export type Schema = boolean | object;

/**
 * What every front door takes: a JSON Schema, compiled once by the door, or a validator made by
 * `compile`, used as it is. A door refuses anything else with a TypeError when it is set up.
 */
export type SchemaOrValidator = Schema | Validator;

export interface CompileOptions {
  /** Dialect; default from `$schema`, else draft 2020-12. */
  draft?: Draft;
  /** Other schema documents by absolute URI, for `$ref`. Nothing is ever fetched. */
  schemas?: Record<string, unknown>;
  /**
   * The absolute URI the schema was retrieved from (e.g. its file's `file:` URL): relative
   * references resolve against it unless the schema's own `$id` says otherwise. Default: a
   * placeholder, `stream-schema:///root.json`.
   */
  baseUri?: string;
  /** Collect every error instead of stopping at the first (default false). */
  allErrors?: boolean;
  /** Unknown keywords are a SchemaError (default false: ignored, as the spec says). */
  strict?: boolean;
  /** `'annotate'` (default, as the spec says) or `'assert'`: formats are checked. */
  formats?: 'annotate' | 'assert';
  limits?: Limits;
}

/**
 * What went wrong with a document. `validation` is a schema violation; `syntax` is malformed JSON
 * (including a repeated key, RFC 7493); `limit` is input that exceeded `limits`.
 */
export type ErrorKind = 'validation' | 'syntax' | 'limit';

/** One error, in the shape of the JSON Schema "basic" output format plus stream positions. */
export interface OutputUnit {
  /** Always false: every unit of the basic output format has `valid` (2020-12 core §12.4.2, and its output schema). */
  valid: false;
  kind: ErrorKind;
  /** The keyword that failed (`syntax` / `limit` for input errors). */
  keyword: string;
  /** JSON pointer of the keyword through the evaluation path (`$ref`s included). */
  keywordLocation: string;
  /** Absolute URI of the keyword in its schema resource. */
  absoluteKeywordLocation?: string;
  /** JSON pointer of the instance value the keyword was applied to. */
  instanceLocation: string;
  /** A readable message. */
  error: string;
  /** Keyword-specific details (e.g. `{missingProperty: 'id'}`). */
  params?: Record<string, unknown>;
  /** Streaming mode: 0-based UTF-8 byte offset of the byte that made the error certain. */
  offset?: number;
  /** Streaming mode: 1-based line of that byte. */
  line?: number;
  /** Streaming mode: 1-based column (in characters) of that byte. */
  column?: number;
}

export interface Result {
  valid: boolean;
  errors: OutputUnit[];
  /** The parsed document, only when a session was asked to `parse` and the document is valid JSON. */
  value?: unknown;
}

export interface SessionOptions {
  /** Assemble the document while validating (as `JSON.parse` would) and return it as `Result.value`. */
  parse?: boolean;
}

export interface Session {
  /** Feed the next chunk. Returns false as soon as the document is certainly invalid. */
  write(chunk: string | Uint8Array): boolean;
  /** The document is complete: the verdict. */
  end(): Result;
  /** True once the verdict is known to be "invalid" (no more input can change it). */
  readonly failed: boolean;
  /** UTF-8 bytes consumed so far. */
  readonly bytesRead: number;
}

export interface Validator {
  /** Value mode: validate an already-parsed JavaScript value. */
  validate(value: unknown): Result;
  /** Streaming mode over one whole document. */
  validateText(text: string | Uint8Array): Result;
  /**
   * `validateText`'s verdict and errors, and on success the value `JSON.parse` gives the text
   * (`Result.value`): for callers that want the document anyway, such as body parsers. A valid
   * document is parsed once and checked in value mode, after a syntax pass has made sure the text
   * and its value say the same thing (no repeated key, no number JSON.parse rounds).
   */
  parseText(text: string | Uint8Array): Result;
  /** Streaming mode, incremental. */
  session(options?: SessionOptions): Session;
  /** The draft this validator was compiled for. */
  readonly draft: Draft;
  /** Compiled with `allErrors`: the front doors then read a document to its end to find every error. */
  readonly allErrors: boolean;
}

/**
 * The events the evaluator consumes: the stream-json token protocol with packed values
 * (`keyValue`, `stringValue`, `numberValue`, `nullValue`, `trueValue`, `falseValue`, and the
 * four structural tokens). Both the tokenizer and the value walker drive a sink of this shape.
 */
export interface TokenSink {
  startObject(): void;
  endObject(): void;
  startArray(): void;
  endArray(): void;
  keyValue(key: string): void;
  stringValue(value: string): void;
  /** The number's literal text, exactly as written (value mode: `String(n)`). */
  numberValue(text: string): void;
  nullValue(): void;
  trueValue(): void;
  falseValue(): void;
}
