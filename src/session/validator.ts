// compile() and the Validator it returns: value mode, text, and sessions over one compiled schema.

import type {JSONSchema} from 'json-schema-to-ts';

import {optionsArgument} from './options.js';
import {ArgumentError} from '../output/errors.js';
import {compileSchema} from '../compile/compile.js';
import {AmendPlans} from '../engine/amender.js';
import {KeyPlans} from '../engine/keyPlan.js';
import type {SchemaNode} from '../schema/node.js';
import {CheckerCache} from '../engine/checkerCache.js';
import {defaultLimits} from '../json/limits.js';
import {standardResult} from './standard-schema.js';
import type {
  CompileOptions,
  Draft,
  Limits,
  Result,
  SchemaWarning,
  SchemaInput,
  SchemaOutput,
  Session,
  SessionOptions,
  StandardSchemaProps,
  TypingOptions,
  Validator,
  ValueResult,
} from '../types.js';
import {Document, type CompiledParts} from './document.js';

/**
 * The brand every validator made by `compile` carries. A registered symbol, so that two copies of
 * the package (its source and its build, or two installs) still know each other's validators; a
 * validator is never recognised by the methods it happens to have.
 */
const VALIDATOR_BRAND: unique symbol = Symbol.for('stream-schema.validator') as never;
/**
 * CompiledValidator's judgement of a range for NDJSON readers (see its method), found on validators
 * that wrap one too. Not registered, unlike the brand: a validator of another copy of stream-schema
 * is judged by its public methods, whatever its internals are.
 */
export const JUDGE_TEXT_RANGE: unique symbol = Symbol('stream-schema.judgeTextRange') as never;

/**
 * A session option of the doors that hand on JSON.parse of the text a session judged without
 * assembling it (adapters/json-body.ts): its numbers are judged as the doubles of that value, as
 * `parse: true` judges them (HeldScalar.numbersAsDoubles). Not registered, as JUDGE_TEXT_RANGE.
 */
export const HANDS_ON_VALUE: unique symbol = Symbol('stream-schema.handsOnValue') as never;

/**
 * validateText's result for `text.slice(from, to)`, or with `parse` parseText's, given `bytes`
 * (the slice's own bytes) where the text is not their true length.
 */
export type TextRangeJudge = (text: string, from: number, to: number, parse: boolean, bytes?: Uint8Array) => Result;

/** `validator`'s judgement of a range (see CompiledValidator), bound, or undefined where it has none. */
export function textRangeJudgeOf(validator: Validator): TextRangeJudge | undefined {
  const judge = (validator as {[JUDGE_TEXT_RANGE]?: TextRangeJudge})[JUDGE_TEXT_RANGE];
  return typeof judge === 'function' ? judge.bind(validator) : undefined;
}

/** True for a validator made by `compile` (of this or another copy of stream-schema). */
export function isValidator(candidate: unknown): candidate is Validator {
  return typeof candidate === 'object' && candidate !== null && (candidate as {[VALIDATOR_BRAND]?: unknown})[VALIDATOR_BRAND] === true;
}

/**
 * Compile a schema once. Throws SchemaError when the schema is broken, and TypeError for a value
 * that is no JSON Schema at all: a validator (it is compiled already), a function, or an object
 * that JSON cannot hold (a class instance, a Map). Such a value would otherwise be read as an
 * object with no keywords, the schema that accepts everything.
 *
 * An `as const` schema types the validator's results through json-schema-to-ts: `Output`, a valid
 * value (its `default`s present with `useDefaults: true`), and `Input`, what it takes as valid
 * (`default`ed properties optional). External `$ref`s are typed from the `schemas` given here
 * (`as const` or written inline), and `unknown` where the types cannot see their document.
 */
export function compile<
  const S extends JSONSchema,
  const Schemas extends Record<string, unknown> = {},
  const Defaults extends boolean | 'empty' = false,
  Output = SchemaOutput<S, Schemas, Defaults>,
  Input = SchemaInput<S, Schemas>,
>(schema: S, options?: CompileOptions & TypingOptions<Schemas, Defaults>): Validator<Output, Input>;
export function compile(schema: unknown, options?: CompileOptions): Validator;
export function compile(schema: unknown, given?: CompileOptions): Validator {
  assertSchemaValue(schema);
  const options = optionsArgument(given, 'compile');
  const {root, draft, warnings} = compileSchema(schema, options);
  if (options.strict === 'warn') for (const warning of warnings) console.warn(`stream-schema: ${warning.message}`);
  const amends = amendsValues(options);
  const features: CompiledFeatures = {warnings, annotations: options.annotations === true, amends, validAsSentIsUnchanged: amends && !changesValidDocuments(schema, options)};
  return new CompiledValidator(root, draft, options.allErrors ?? false, limitsOf(options.limits), features);
}

/**
 * The limits a validator enforces: the defaults, with `limits` over them. A bound that is not a
 * number of at least 0 (Infinity: none) is a TypeError here: a string would compare false and
 * let any input through, and the bounds are written into generated code (src/engine/programs.ts).
 */
function limitsOf(limits: Limits | undefined): Required<Limits> {
  const merged: Record<string, unknown> = {...defaultLimits};
  for (const name of Object.keys(defaultLimits)) {
    const bound = (limits as Record<string, unknown> | undefined)?.[name];
    if (bound === undefined) continue;
    if (name === 'inexactNumbers' ? bound !== 'allow' && bound !== 'reject' : typeof bound !== 'number' || !(bound >= 0)) {
      const wanted = name === 'inexactNumbers' ? "'allow' or 'reject'" : 'a number of at least 0 (Infinity for none)';
      throw new ArgumentError(`limits.${name} must be ${wanted}, got ${typeof bound === 'string' ? JSON.stringify(bound) : String(bound)}`);
    }
    merged[name] = bound;
  }
  return merged as Required<Limits>;
}

/** What a validator does beyond judging, as its compile options asked. */
interface CompiledFeatures {
  readonly warnings?: readonly SchemaWarning[];
  /** Collect annotations (`annotations: true`). */
  readonly annotations?: boolean;
  /** Some value option is on: documents go through the amender (src/engine/amender.ts). */
  readonly amends?: boolean;
  /** Those options change no document valid as sent (see changesValidDocuments). */
  readonly validAsSentIsUnchanged?: boolean;
}

/**
 * Whether the value options may change a document the schema accepts as sent. Coercion changes a
 * value only where its `type` refuses it, and `removeAdditional` (but `'all'`) only a member its
 * `additionalProperties` refuses; the amender changes nothing inside branches (`anyOf`, `if`...:
 * src/engine/amender.ts). So a valid document changes only by a default filled in, or under
 * `'all'`. Defaults are looked for in the schemas as written: any `default` key, or a reference
 * that may lead elsewhere (a meta-schema has defaults), counts; a false alarm costs only speed.
 */
function changesValidDocuments(schema: unknown, {useDefaults, removeAdditional, schemas}: CompileOptions): boolean {
  if (removeAdditional === 'all') return true;
  if (useDefaults === undefined || useDefaults === false) return false;
  const pending: unknown[] = [schema, ...Object.values(schemas ?? {})];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
      continue;
    }
    for (const [key, member] of Object.entries(value)) {
      if (key === 'default') return true;
      if ((key === '$ref' || key === '$dynamicRef' || key === '$recursiveRef') && (typeof member !== 'string' || !member.startsWith('#'))) return true;
      pending.push(member);
    }
  }
  return false;
}

/** `coerceTypes`, `useDefaults` or `removeAdditional` is on. */
function amendsValues({coerceTypes, useDefaults, removeAdditional}: CompileOptions): boolean {
  return (coerceTypes !== undefined && coerceTypes !== false) || (useDefaults !== undefined && useDefaults !== false) || (removeAdditional !== undefined && removeAdditional !== false);
}

/** A JSON Schema is a boolean or an object (2020-12 core §4.3.1); one that JSON can hold, here. */
function assertSchemaValue(schema: unknown): void {
  if (isValidator(schema)) throw new ArgumentError('compile() was given a validator that compile() made already: use that validator itself');
  if (typeof schema === 'function') throw new ArgumentError(`compile() was given a function${schema.name === '' ? '' : ` (${schema.name})`}, not a JSON Schema`);
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return; // a SchemaError, from the compiler
  const prototype: unknown = Object.getPrototypeOf(schema);
  if (prototype !== Object.prototype && prototype !== null) {
    const name = (prototype as {constructor?: {name?: unknown}}).constructor?.name;
    throw new ArgumentError(`compile() was given ${typeof name === 'string' && name !== '' ? `a ${name}` : 'an object with a prototype'}, not a JSON Schema (a plain object or a boolean)`);
  }
  // An object of methods (another library's validator, a hand-made stand-in for ours) is no schema
  // either, though its prototype is Object's.
  for (const [name, value] of Object.entries(schema)) {
    if (typeof value === 'function') throw new ArgumentError(`compile() was given an object whose "${name}" is a function, not a JSON Schema`);
  }
}

/** A compiled schema; its type parameters are the types `compile` read from the schema, unchecked here. */
export class CompiledValidator<Output = unknown, Input = Output> implements Validator<Output, Input> {
  readonly [VALIDATOR_BRAND] = true;
  /** Standard Schema V1: value mode, with the standard's result (src/session/standard-schema.ts). */
  readonly '~standard': StandardSchemaProps<Input, Output>;
  private readonly parts: CompiledParts;
  /**
   * A document to reuse, with its frames (a third of the time on small documents went to setting
   * up a fresh evaluator): the whole-document calls take it and give it back before they return.
   */
  private idle: Document | null = null;
  /** What the schema holds that compiled but is likely a mistake (unknown keywords). */
  readonly warnings: readonly SchemaWarning[];

  constructor(
    root: SchemaNode,
    readonly draft: Draft,
    readonly allErrors: boolean,
    limits: Required<Limits>,
    {warnings = [], annotations = false, amends = false, validAsSentIsUnchanged = false}: CompiledFeatures = {},
  ) {
    this.warnings = warnings;
    const keyPlans = new KeyPlans();
    const checkerCache = new CheckerCache();
    // Annotations come from the evaluator's runs: the checker, which makes none, cannot give them.
    if (annotations) checkerCache.usable = false;
    this.parts = {root, allErrors, annotations, limits, keyPlans, checkerCache, amendPlans: amends ? new AmendPlans(root, keyPlans, checkerCache.documentScope) : null, validAsSentIsUnchanged, idleCheckers: []};
    this['~standard'] = {version: 1, vendor: 'stream-schema', validate: (value) => standardResult(this.validate(value), value)};
  }

  /** Validator.changesValues: the amender's plans exist exactly when some value option is on. */
  get changesValues(): boolean {
    return this.parts.amendPlans !== null;
  }

  /** A document for one whole-document call: the idle one, or a new one while that is in use. */
  private take(): Document {
    const document = this.idle;
    if (document === null) return new Document(this.parts);
    this.idle = null;
    return document;
  }

  /** `call` on a document of its own, given back when it returns (or throws). */
  private withDocument<A, R>(call: (document: Document, argument: A) => R, argument: A): R {
    const document = this.take();
    try {
      return call(document, argument);
    } finally {
      this.idle = document;
    }
  }

  validate(value: unknown): ValueResult<Output> {
    return this.withDocument(validateValue, value) as ValueResult<Output>;
  }

  validateText(text: string | Uint8Array): Result<Output> {
    return this.withDocument(validateText, text) as Result<Output>;
  }

  parseText(text: string | Uint8Array): ValueResult<Output> {
    return this.withDocument(parseText, text) as ValueResult<Output>;
  }

  /** Internal (NDJSON readers): validateText or parseText of text.slice(from, to), sliced only if need be (Document.judgeTextRange). */
  [JUDGE_TEXT_RANGE](text: string, from: number, to: number, parse: boolean, bytes?: Uint8Array): Result {
    return this.withDocument(judgeTextRange, {text, from, to, parse, bytes});
  }

  session(options: SessionOptions & {parse: true}): Session<ValueResult<Output>>;
  session(options?: SessionOptions): Session<Result<Output>>;
  session(given?: SessionOptions): Session {
    const options = optionsArgument(given, 'session');
    const document = new Document(this.parts);
    const parse = options.parse ?? false;
    document.beginText(parse, !parse && !this.allErrors, true, parse || (options as {[HANDS_ON_VALUE]?: unknown})[HANDS_ON_VALUE] === true);
    return document;
  }

  is(value: unknown): value is Output {
    const result = this.validate(value);
    // A valid value replaced rather than changed in place (a coerced root scalar) is not of the type.
    return result.valid && Object.is(result.value, value);
  }

  /** A document of its own, for one given as tokens (see `tokenValidator`). */
  document(): Document {
    return new Document(this.parts);
  }
}

// The whole-document calls, as functions of the document (no closure made per call).
const validateValue = (document: Document, value: unknown): ValueResult => document.validateValue(value);
const validateText = (document: Document, text: string | Uint8Array): Result => document.validateText(text);
const parseText = (document: Document, text: string | Uint8Array): ValueResult => document.parseText(text);
const judgeTextRange = (document: Document, range: {text: string; from: number; to: number; parse: boolean; bytes: Uint8Array | undefined}): Result =>
  document.judgeTextRange(range.text, range.from, range.to, range.parse, range.bytes);
