// Public types of stream-schema. Everything an adapter or a user touches is declared here.

import type {FromSchema, JSONSchema} from 'json-schema-to-ts';

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
   * Most items of one array that `uniqueItems` applies to (default 8 Mi): `uniqueItems` keeps a
   * fingerprint of every item, 13-16 bytes each (up to 128 MiB at the default), where every other
   * keyword keeps nothing per item. Past it the document is a `limit.uniqueItems` error.
   */
  maxUniqueItems?: number;
  /**
   * Most values (scalars, objects and arrays, at any depth) in one object or array that a custom
   * keyword (CompileOptions.keywords) judges whole (default 8 Mi): such a value is assembled in
   * memory, where every other keyword streams it. Past it the document is a `limit.assembled` error.
   */
  maxAssembledValues?: number;
  /**
   * Most subschema applications per value of one document (default 32): judging a document of n
   * values applies at most `maxApplications × (n + 128)` subschemas, and at most
   * `maxApplications × 128` to any one value. Two subschemas that both reach the same recursive
   * one (`oneOf` branches whose `items` or `properties` lead back to it) double the applications
   * at each level of the document: past the bound the document is a `limit.applications` error,
   * where it would have taken time and memory exponential in its depth. The official suite, the 2020-12 meta-schema and the examples use at most 10 per value.
   * The evaluator counts them: a document the fast verdict passes is not counted, and the fast
   * verdict leaves to the evaluator a location where one subschema is applied more than 8 times.
   */
  maxApplications?: number;
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

/**
 * A format of one's own (CompileOptions.customFormats): a RegExp a valid string matches, a
 * predicate on strings, or a NumberFormat.
 */
export type CustomFormat = RegExp | ((value: string) => boolean) | NumberFormat;

/**
 * A format that judges numbers, in the shape of ajv's format definitions with `type: 'number'`
 * (ajv-formats' `int32`): `validate` is given the number as `JSON.parse` reads it and returns
 * `true` for a valid one. Strings and other values pass it, as in ajv.
 */
export interface NumberFormat {
  type: 'number';
  validate(value: number): boolean;
}

/** A JSON type a custom keyword applies to (CustomKeyword.type): ajv's names, `integer` included. */
export type JsonTypeName = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';

/**
 * A function of a custom keyword's value in the schema and of the data. Its parameters are checked
 * as a method's are (bivariantly), so that they may be typed as the schema and the keyword's `type`
 * have them, `(min: number, data: unknown[]) => boolean`.
 */
export type KeywordFunction<R> = {bivarianceHack(schemaValue: unknown, data: unknown): R}['bivarianceHack'];

/**
 * A keyword of one's own (CompileOptions.keywords), as ajv's `addKeyword` with `validate`: judged
 * on the whole JSON value at its location, once that value has arrived.
 */
export interface CustomKeyword {
  /** Its name in schemas; not a keyword any draft gives a meaning, nor `errorMessage` under `errorMessages`. */
  keyword: string;
  /** The JSON types it applies to (ajv's `type`); a value of another type passes it. Default: every type. */
  type?: JsonTypeName | readonly JsonTypeName[];
  /**
   * The verdict on `data`, the value at the keyword's location (a copy: changing it changes
   * nothing), given the keyword's value in the schema. Only `true` passes; `false`, any other
   * result, or a throw fails the value (a throw's message is in the error's `params.error`).
   */
  validate: KeywordFunction<boolean>;
  /**
   * The error's message: a string, or a function of the same arguments. Default, as ajv's:
   * `must pass "<keyword>" keyword validation`.
   */
  message?: string | KeywordFunction<string>;
}

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
   * same name): a RegExp that a valid string matches (`test`; its `g` and `y` flags are dropped), a
   * function that returns `true` for a valid string (any other result is a failure), or a
   * NumberFormat, which judges numbers instead of strings. They assert
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
   * Keywords of one's own (CustomKeyword): each judges the whole value at its location, in every
   * mode. In streaming, the value is assembled from its tokens only where such a keyword applies
   * and only until it is judged: a keyword on a large array holds that array in memory. A
   * definition that is not valid (no name, a name given twice or that a draft knows, a `validate`
   * that is no function, an unknown `type`) is a SchemaError `schema.option.keywords`.
   */
  keywords?: readonly CustomKeyword[];
  /**
   * ajv-errors' `errorMessage` keyword: a string replaces every error raised in its schema object
   * and below with one error of keyword `errorMessage` (the originals in `params.errors`); an
   * object gives messages by keyword (`required` and `dependencies` also by property), by
   * `properties` and `items` (errors at or below that member), and `_` for the rest. Default false:
   * `errorMessage` is an unknown keyword, as any other.
   */
  errorMessages?: boolean;
  /**
   * OpenAPI 3.0's `nullable`, as ajv reads it: `nullable: true` adds null to the types its sibling
   * `type` lists (so under `coerceTypes`, `""` becomes null where no listed type takes it first),
   * and nothing else: an `enum` or `const` beside it must still list null for null to pass. A
   * `nullable` without `type`, not a boolean, or `false` beside a `type` that lists null is a
   * SchemaError, as in ajv. Default false: `nullable` is an unknown keyword, as any other (no
   * draft gives it a meaning). The Fastify plugin turns it on, as Fastify's ajv knows it.
   */
  nullable?: boolean;
  /**
   * Whether the siblings of `$ref` apply in drafts 4 to 7, where the drafts ignore them (draft-07
   * §8.3). `'ignore'` (default) reads those drafts as written; `'apply'` reads them as ajv does
   * (and as 2019-09 and later do), applying `$ref` beside the other keywords. Later drafts always
   * apply them. The Fastify plugin sets `'apply'`, as Fastify's ajv reads its draft-07 schemas so.
   */
  refSiblings?: 'ignore' | 'apply';
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
   * given defaults of its own, judged. Default false. The types follow: a property with a
   * `default` is optional in a validator's input type, and present in its output type only with
   * this option on.
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
  /**
   * Keyword-specific details (e.g. `{missingProperty: 'id'}`); `{}` for a schema violation with
   * none (`not`, a `false` schema), as ajv gives. Input errors carry their `code` here.
   */
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

/**
 * A verdict, told apart by `valid`. `T` is the type of a valid document: its schema's, for a
 * validator compiled from an `as const` schema (see `compile`).
 */
export type Result<T = unknown> = ValidResult<T> | InvalidResult;

/** The verdict of a call that gives the document's value: `validate`, `parseText`, a session asked to `parse`. */
export type ValueResult<T = unknown> = (ValidResult<T> & {value: T}) | InvalidResult;

/** A door's verdict: with the value (ValueResult) when the door was certainly asked to `parse`. */
export type ResultFor<T, Parse> = [Parse] extends [true] ? ValueResult<T> : Result<T>;

export interface ValidResult<T = unknown> {
  valid: true;
  /** Empty. */
  errors: OutputUnit[];
  /** The document's value, from the calls that give it (ValueResult). */
  value?: T;
  /**
   * Compiled with `annotations: true`: every annotation kept (2020-12 core §12.4.2; an invalid
   * result has none). Otherwise absent.
   */
  annotations?: AnnotationUnit[];
}

export interface InvalidResult {
  valid: false;
  errors: OutputUnit[];
  /** None: a failed evaluation keeps no annotations (2020-12 core §12.4.2). */
  annotations?: undefined;
  /** A session asked to `parse` gives the value of a document that is well-formed JSON though invalid. */
  value?: unknown;
}

export interface SessionOptions {
  /** Assemble the document while validating (as `JSON.parse` would) and return it as `Result.value`. */
  parse?: boolean;
}

/** One document in chunks; `R` is the verdict `end` gives (with the value when asked to `parse`). */
export interface Session<R extends Result = Result> {
  /**
   * Feed the next chunk. Returns false as soon as the document is certainly invalid. With
   * `allErrors`, a failure inside an object or array counts for the document once that value ends:
   * the value is read on to find every error in it, so until then this may still return true.
   */
  write(chunk: string | Uint8Array): boolean;
  /** The document is complete: the verdict. */
  end(): R;
  /** True once the verdict is known to be "invalid" (no more input can change it). */
  readonly failed: boolean;
  /** UTF-8 bytes consumed so far. */
  readonly bytesRead: number;
}

/**
 * A compiled schema. `Output` is the type of a valid value (its `default`s filled in with
 * `useDefaults`), `Input` the type of the values it takes as valid before that; both `unknown`
 * unless `compile` was given an `as const` schema. It is also a Standard Schema (`~standard`).
 */
export interface Validator<Output = unknown, Input = Output> extends StandardSchemaV1<Input, Output> {
  /**
   * Value mode: validate an already-parsed JavaScript value. A valid result's `value` is that value
   * (the very object given: value options such as `useDefaults` change it in place, as ajv does).
   */
  validate(value: unknown): ValueResult<Output>;
  /** Streaming mode over one whole document. */
  validateText(text: string | Uint8Array): Result<Output>;
  /**
   * `validateText`'s verdict and errors, and on success the value `JSON.parse` gives the text
   * (`Result.value`): for callers that want the document anyway, such as body parsers. The text is
   * judged as `validateText` judges it (a repeated key refused, each number as written), and a
   * valid one is then parsed once. Under value options the value is the amended one.
   */
  parseText(text: string | Uint8Array): ValueResult<Output>;
  /** Streaming mode, incremental; `end()` gives the value when asked to `parse`. */
  session(options: SessionOptions & {parse: true}): Session<ValueResult<Output>>;
  session(options?: SessionOptions): Session<Result<Output>>;
  /**
   * A type guard: `validate(value)` found the value valid, as it is. A value that `coerceTypes`
   * would replace (a root scalar, which cannot be changed in place) is not: the guard would lie.
   */
  is(value: unknown): value is Output;
  /** The draft this validator was compiled for. */
  readonly draft: Draft;
  /** Compiled with `allErrors`: the front doors then read a document to its end to find every error. */
  readonly allErrors: boolean;
  /**
   * Compiled with a value option (`coerceTypes`, `useDefaults`, `removeAdditional`): the value a
   * valid document gives is the changed one, which `JSON.parse` of its text is not. The front
   * doors then take the value from the validator, never from `JSON.parse`.
   */
  readonly changesValues: boolean;
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
  /**
   * A string value has opened and goes on past the text written so far: its text is not known yet
   * (stringValue still comes). Optional; our Tokenizer calls it once per such string, at its opening
   * quote, so that a sink may judge what depends only on its kind.
   */
  stringBegins?(): void;
  /**
   * The string value that began (stringBegins) is `length` UTF-16 code units long so far, and goes
   * on. Optional; our Tokenizer calls it each time a text ends inside such a string, so that a sink
   * may judge what depends only on its kind and its length.
   */
  stringGrows?(length: number): void;
  /** The number's literal text, exactly as written (value mode: `String(n)`). */
  numberValue(text: string): void;
  nullValue(): void;
  trueValue(): void;
  falseValue(): void;
}

/**
 * Standard Schema V1 (https://standardschema.dev), the interface that Hono's
 * `@hono/standard-validator`, tRPC, TanStack Form and others take: what a validator carries under
 * `~standard`. Declared here, structurally, so that no dependency is needed to implement it.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaProps<Input, Output>;
}

export interface StandardSchemaProps<Input = unknown, Output = Input> {
  readonly version: 1;
  /** `'stream-schema'`. */
  readonly vendor: string;
  /** Value mode, synchronous: never a Promise, never a throw for an invalid value. */
  readonly validate: (value: unknown) => StandardResult<Output>;
  /** For type inference only: absent at run time, as the standard has it. */
  readonly types?: {readonly input: Input; readonly output: Output} | undefined;
}

export type StandardResult<Output> = {readonly value: Output; readonly issues?: undefined} | {readonly issues: readonly StandardIssue[]};

export interface StandardIssue {
  /** The error unit's message. */
  readonly message: string;
  /** The keys from the root to the value the error is about: strings, and numbers for array indices. */
  readonly path: ReadonlyArray<string | number>;
}

// ---------------------------------------------------------------------------------------------
// Types from schemas, through json-schema-to-ts. Each door computes them in a defaulted type
// parameter (`T = SchemaOutput<S, ...>`), json-schema-to-ts's deferred form, which keeps
// TypeScript from instantiating the type too early and failing with TS2589.
//
// A type is claimed only where json-schema-to-ts reads the schema as the validator does. It
// resolves a `$ref` by its own rules: a reference it cannot find, or an `$anchor`, becomes
// `never` (no value can be there) or the root's type, and a `$ref` inside a registered document
// resolves against the root rather than that document; a cycle of references never ends
// (TS2589). A schema with any such reference types as `unknown` instead: a value to check, never
// a wrong promise.

/** The options that decide the type of a valid value: the documents of external `$ref`s, and `useDefaults`. */
export interface TypingOptions<Schemas, Defaults> {
  schemas?: Schemas;
  useDefaults?: Defaults;
}

/**
 * The type of a value valid against `S` once validated: a property with a `default` is present
 * when `Defaults` is certainly on (`true` or `'empty'`), else optional, as `default` alone fills
 * nothing. External `$ref`s resolve through `Schemas`, the `schemas` option's documents.
 */
export type SchemaOutput<S, Schemas = {}, Defaults = false> = Typed<S, Schemas, DefaultsFilled<Defaults> extends true ? false : true>;

/** The type of a value valid against `S` before validation: a property with a `default` may be absent. */
export type SchemaInput<S, Schemas = {}> = Typed<S, Schemas, true>;

/** The type of a valid value for what a door takes: an `as const` schema, or a validator made by `compile`. */
export type ValidValue<S, Schemas = {}, Defaults = false> = S extends Validator<infer Output, unknown> ? Output : SchemaOutput<S, Schemas, Defaults>;

type Typed<S, Schemas, DefaultedOptional extends boolean> = 0 extends 1 & S
  ? unknown
  : JSONSchema extends S
    ? unknown
    : S extends JSONSchema
      ? [UnsoundReferences<S, Schemas>] extends [never]
        ? Known<FromSchema<S, {references: ReferencesOf<S, Schemas>; keepDefaultedPropertiesOptional: DefaultedOptional}>>
        : unknown
      : unknown;

/** `never` is what json-schema-to-ts gives a schema it cannot read: no type is claimed then. */
type Known<T> = [T] extends [never] ? unknown : T;

/** Defaults are filled only when the option is known to be on; `boolean` may be off. */
type DefaultsFilled<Defaults> = [Defaults] extends [never] ? false : [Defaults] extends [true | 'empty'] ? true : false;

type KnownKeys<Schemas> = string extends keyof Schemas ? never : keyof Schemas & string;

/** json-schema-to-ts's `references`, for a schema with external `$ref`s only (they are costly to read). */
type ReferencesOf<S, Schemas> = [Exclude<RefsOf<S>, `#${string}`>] extends [never] ? [] : Registered<Schemas>[];

/** Each registered document under its key as `$id`, and under its own `$id`. */
type Registered<Schemas> = {
  [Key in KnownKeys<Schemas>]:
    | (Schemas[Key] extends object ? Omit<Schemas[Key], '$id'> & {readonly $id: Key} : never)
    | (Schemas[Key] extends {readonly $id: infer Id extends string} ? (Id extends Key ? never : Schemas[Key]) : never);
}[KnownKeys<Schemas>];

/** The `$ref`s of `S` that json-schema-to-ts would not type as the validator reads them. */
type UnsoundReferences<S, Schemas> = RefsOf<S> extends infer Ref ? (Ref extends string ? (SoundReference<S, Schemas, Ref> extends true ? never : Ref) : never) : never;

type SoundReference<S, Schemas, Ref extends string> = string extends Ref
  ? false
  : Ref extends `#/${infer Pointer}`
    ? [Resolve<S, Pointer>] extends [never]
      ? false
      : Cyclic<S, Ref, never> extends true
        ? false
        : true
    : Ref extends `#${string}`
      ? false // the root, a cycle; or an anchor, which json-schema-to-ts reads as the root
      : Ref extends `${infer Id}#${infer Fragment}`
        ? SoundExternal<DocumentOf<S, Schemas, Id>, Fragment>
        : SoundExternal<DocumentOf<S, Schemas, Ref>, ''>;

/** A registered document is typed only when it has no `$ref` of its own (json-schema-to-ts would resolve them against the root). */
type SoundExternal<Document, Fragment extends string> = [Document] extends [never]
  ? false
  : [RefsOf<Document>] extends [never]
    ? Fragment extends ''
      ? true
      : Fragment extends `/${infer Pointer}`
        ? [Resolve<Document, Pointer>] extends [never]
          ? false
          : true
        : false
    : false;

/** The registered document json-schema-to-ts finds for `Id`: as written, else joined to the directory of the root's `$id`. */
type DocumentOf<S, Schemas, Id extends string> = [DocumentAt<Schemas, Id>] extends [never]
  ? S extends {readonly $id: infer RootId extends string}
    ? DocumentAt<Schemas, `${DirectoryOf<RootId>}${Id}`>
    : never
  : DocumentAt<Schemas, Id>;

type DocumentAt<Schemas, Id extends string> = Id extends KnownKeys<Schemas> ? Schemas[Id] : Extract<Schemas[KnownKeys<Schemas>], {readonly $id: Id}>;

/** json-schema-to-ts's directory of an `$id`: up to its last `/`, included; `/` when it has none. */
type DirectoryOf<Id extends string, Directory extends string = ''> = Id extends `${infer Segment}/${infer Rest}`
  ? DirectoryOf<Rest, `${Directory}${Segment}/`>
  : Directory extends ''
    ? '/'
    : Directory;

/** The value at a JSON pointer's tokens (without its leading `/`), as json-schema-to-ts looks it up; `never` if absent. */
type Resolve<Node, Pointer extends string> = Pointer extends `${infer Token}/${infer Rest}`
  ? Token extends keyof Node
    ? Resolve<Node[Token], Rest>
    : never
  : Pointer extends keyof Node
    ? Node[Pointer]
    : never;

/** Whether following `Ref` within `S` leads back to a reference already followed. */
type Cyclic<S, Ref extends string, Followed extends string> = Ref extends Followed
  ? true
  : Ref extends `#/${infer Pointer}`
    ? true extends CyclicAny<S, Extract<RefsOf<Resolve<S, Pointer>>, `#${string}`>, Followed | Ref>
      ? true
      : false
    : false;

type CyclicAny<S, Refs extends string, Followed extends string> = Refs extends string ? Cyclic<S, Refs, Followed> : never;

/**
 * Every `$ref` value in a schema (one in a `const` or `default` too: taking it for a reference
 * only costs a type), walked level by level so that TypeScript's tail recursion carries it. A type
 * that is no written schema (`JSONSchema` itself, a recursive type) counts as a reference to
 * anything, `string`.
 */
type RefsOf<S> = RefsIn<S, never, []>;

type RefsIn<Level, Found, Depth extends unknown[]> = [Level] extends [never]
  ? Found
  : Depth['length'] extends 64
    ? string
    : RefsIn<ChildrenOf<Level>, Found | RefOf<Level>, [...Depth, unknown]>;

type RefOf<Node> = Node extends {readonly $ref?: infer Ref} ? Extract<Ref, string> : never;

type ChildrenOf<Node> = Node extends readonly unknown[] ? Node[number] : Node extends object ? Node[keyof Node] : never;
