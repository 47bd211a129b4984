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

/** A format of one's own (CompileOptions.customFormats): a RegExp a valid string matches, or a predicate. */
export type CustomFormat = RegExp | ((value: string) => boolean);

export interface CompileOptions {
  /**
   * Dialect; default from `$schema`, else draft 2020-12. A `$schema` that names neither a draft's
   * meta-schema nor a meta-schema in `schemas` is a SchemaError (`schema.dialect.unknown`) unless
   * this option says how to read the schema.
   */
  draft?: Draft;
  /**
   * Other schema documents by absolute URI, for `$ref`. Each is found by its key and by every `$id`
   * in it, those of the resources a bundle embeds too; two different schemas identified by one URI
   * are a SchemaError (`schema.id.duplicate`). Nothing is ever fetched.
   */
  schemas?: Record<string, unknown>;
  /**
   * The absolute URI the schema was retrieved from (e.g. its file's `file:` URL): relative
   * references resolve against it unless the schema's own `$id` says otherwise. Default: a
   * placeholder, `stream-schema:///root.json`.
   */
  baseUri?: string;
  /** Collect every error instead of stopping at the first (default false). */
  allErrors?: boolean;
  /**
   * Keywords the draft does not know, most often typos (`requird`). Default `false`: ignored, as the
   * spec says, and listed in `Validator.warnings`. `true`: the first is a SchemaError
   * (`schema.keyword.unknown`). `'warn'`: ignored, and each logged once with `console.warn` when the
   * schema compiles (one line per keyword and schema location, however often the location is
   * referenced).
   */
  strict?: boolean | 'warn';
  /**
   * `'annotate'` (default, as the spec says) or `'assert'`: formats are checked. Asserting a format
   * that is neither the draft's nor in `customFormats` is a SchemaError (`schema.format.unknown`)
   * unless `unknownFormats` is `'ignore'`.
   */
  formats?: 'annotate' | 'assert';
  /**
   * Formats of one's own, by name, checked like the draft's (and replacing a draft's format of the
   * same name): a RegExp that a valid string matches (`test`; its `g` and `y` flags are dropped), or
   * a function that returns `true` for a valid string (any other result is a failure). They assert
   * where formats do (`formats: 'assert'`, or the format-assertion vocabulary) and annotate elsewhere,
   * as the draft's formats do.
   */
  customFormats?: Record<string, CustomFormat>;
  /**
   * A format asserted but known neither to the draft nor to `customFormats`: `'refuse'` (default)
   * makes compile throw a SchemaError (`schema.format.unknown`), since every string would pass the
   * check asked for; `'ignore'` lets it pass unchecked, as the spec allows.
   */
  unknownFormats?: 'refuse' | 'ignore';
  /**
   * Refuse, as a SchemaError `schema.pattern.exponential`, a regular expression of `pattern` or
   * `patternProperties` whose matching time can grow exponentially with the string's length on
   * V8's backtracking engine (ReDoS): a repeated group whose iterations can be cut more than one
   * way (`(a+)+`, `(a|ab)*`, `(\w+\s?)*`), or a backreference. The check is conservative (it
   * refuses some safe patterns too) and does not refuse polynomial ones (`\d*\d*x`), which
   * `limits.maxStringLength` bounds. Default false: every valid ECMA-262 pattern is taken.
   */
  refuseExponentialPatterns?: boolean;
  limits?: Limits;
  /**
   * Collect the annotations of the basic output format (2020-12 core §12.4.2) into
   * `Result.annotations`: what `title`, `description`, `default`, `examples`, `readOnly`,
   * `writeOnly`, `deprecated`, `contentMediaType`, `contentEncoding`, `contentSchema` and `format`
   * say of each value they apply to, kept only where every subschema on the way passed (§7.7.1.2:
   * a failed subschema's annotations are dropped). Default false: none are collected, at no cost.
   * Annotations come from the evaluator's runs, so this turns off the run-free fast path that
   * accepts most valid documents.
   */
  annotations?: boolean;
  /**
   * As ajv's option of that name: where a schema object's `type` does not list the value's type,
   * the value becomes one of the listed types if ajv's table allows, tried in the order written
   * (string → number or integer when `+s` is a finite number of that kind, and boolean from
   * `"true"`/`"false"`, null from `""`; number and boolean → string; boolean and null → number;
   * 0/1 → boolean; `""`/0/false → null). `'array'` also wraps a scalar into an array when `type`
   * lists `array`, and takes the item out of a one-item array when it does not. Every keyword
   * judges the coerced value, and it is the value handed on (`validate` changes the value in
   * place). Not followed into `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, `dependentSchemas`,
   * `contains`, `unevaluated*` or dynamic references, where ajv's result depends on which branch it
   * happened to try first: there a value is judged as it came. A string whose number is not finite
   * (`"1e999"`) is not coerced. Default false.
   */
  coerceTypes?: boolean | 'array';
  /**
   * As ajv's option of that name: a property missing from an object gets the `default` written in
   * its `properties` subschema, and an item missing from an array the `default` of its array-form
   * `items` subschema (drafts before 2020-12), before any keyword judges the object; `'empty'`: a
   * property or item whose value is null or `""` gets it too. Not inside `anyOf`, `oneOf`, `not`,
   * `contains` or `propertyNames`, as in ajv, nor inside `if`/`then`/`else` or `dependentSchemas`
   * (ajv adds those of the branch it takes). The default is added as if it had been sent: coerced,
   * given defaults of its own, judged. Default false.
   */
  useDefaults?: boolean | 'empty';
  /**
   * As ajv's option of that name: properties that a schema object's `properties` and
   * `patternProperties` do not list are taken out of the value before any keyword judges it —
   * `true`: where that object has `additionalProperties: false`; `'all'`: where it has
   * `additionalProperties` (any value) or `properties`; `'failing'`: where `additionalProperties`
   * is false or the property's value fails it. In streaming, such a member is skipped as it
   * arrives, never assembled (`'failing'` holds its tokens while its value may still pass). Not
   * inside `anyOf`, `oneOf`, `not`, `if`/`then`/`else` or `dependentSchemas`, where ajv removes
   * whatever a branch it merely tried would. A repeated key is refused even where it is removed.
   * Default false.
   */
  removeAdditional?: boolean | 'all' | 'failing';
}

/** Something in a schema that compiled but is likely a mistake (Validator.warnings). */
export interface SchemaWarning {
  /** `schema.keyword.unknown`: a keyword the draft does not know, ignored. */
  code: 'schema.keyword.unknown';
  /** JSON pointer of the keyword, prefixed with the resource URI when not in the root document. */
  schemaLocation: string;
  keyword: string;
  /** A readable message, with a likely meant keyword when one is close, and the location. */
  message: string;
}

/**
 * What went wrong with a document. `validation` is a schema violation; `syntax` is malformed JSON
 * (including a repeated key, RFC 7493); `limit` is input that exceeded `limits`.
 */
export type ErrorKind = 'validation' | 'syntax' | 'limit';

/** One error, in the shape of the JSON Schema "basic" output format plus stream positions. */
export interface OutputUnit {
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

/** One annotation of the basic output format (2020-12 core §12.4.2): what a keyword said of a value. */
export interface AnnotationUnit {
  valid: true;
  keyword: string;
  /** JSON pointer of the keyword through the evaluation path (`$ref`s included). */
  keywordLocation: string;
  /** Absolute URI of the keyword in its schema resource. */
  absoluteKeywordLocation: string;
  /** JSON pointer of the instance value the annotation is about. */
  instanceLocation: string;
  /** The annotation: the keyword's value (`format`: the format's name). */
  annotation: unknown;
}

export interface Result {
  valid: boolean;
  errors: OutputUnit[];
  /**
   * Compiled with `annotations: true`: on a valid result, every annotation kept (none on an invalid
   * one, 2020-12 core §12.4.2). Otherwise absent.
   */
  annotations?: AnnotationUnit[];
  /**
   * The parsed document, when a session was asked to `parse` and the document is valid JSON, and
   * from `parseText` when valid. Under the value options (`coerceTypes`, `useDefaults`,
   * `removeAdditional`) the value as they changed it, from `validate` too.
   */
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
  /**
   * Value mode: validate an already-parsed JavaScript value. Under the value options it changes
   * the value in place first, as ajv does, and returns it as `Result.value` (a new value only where
   * the whole of it changed kind: `"5"` coerced to `5`).
   */
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
  /** What in the schema compiled but is likely a mistake (unknown keywords), in the order compile met them. */
  readonly warnings: readonly SchemaWarning[];
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
