// Shared by the keyword tests: run a schema in the three modes (value, validateText, a session fed
// one byte at a time), insist that they agree, and hand back what they agreed on.

import assert from 'node:assert/strict';
import {SchemaError, compile} from '../../src/index.js';
import type {CompileOptions, OutputUnit, Result, Validator} from '../../src/types.js';
import {byteChunks, feed} from '../support/chunks.js';

const encoder = new TextEncoder();

/** Pass as `value` to skip value mode (text JSON.parse cannot keep: 1e400, 12345678901234567890). */
export const TEXT_ONLY = Symbol('text only');

export interface Input {
  /** The JSON text; default JSON.stringify(value). */
  text?: string;
  /** The value for value mode; default JSON.parse(text). */
  value?: unknown;
}

function inputOf(data: unknown): {text: string; value: unknown} {
  if (typeof data === 'string') return {text: data, value: JSON.parse(data)};
  const input = data as Input;
  const text = input.text ?? JSON.stringify(input.value);
  return {text, value: 'value' in input ? input.value : JSON.parse(text)};
}

/** Errors without stream positions, which only streaming mode has. */
function comparable(errors: readonly OutputUnit[]): OutputUnit[] {
  return errors.map(({offset: _offset, line: _line, column: _column, ...unit}) => unit);
}

export interface Outcome {
  valid: boolean;
  /** The errors all modes agreed on (value mode's, without positions). */
  errors: OutputUnit[];
  /** The streaming errors with positions (validateText). */
  streamed: OutputUnit[];
  /** 0-based byte at which a 1-byte-chunk session's write first said false; -1 if never. */
  refusedAt: number;
}

/**
 * Run `data` (JSON text, or `{text, value}`) through every mode and assert that the verdicts and the
 * errors agree. `data` as a string is JSON text; anything else is given as `{value}`.
 */
export function run(validator: Validator | unknown, data: string | Input, options: CompileOptions = {}): Outcome {
  const compiled = isValidator(validator) ? validator : compile(validator, options);
  const {text, value} = inputOf(data);
  const whole = compiled.validateText(text);
  const session = feed(compiled, byteChunks(encoder.encode(text)));
  const label = `${text}`;
  assert.equal(session.valid, whole.valid, `session and validateText disagree on ${label}`);
  assert.deepEqual(session.errors, whole.errors, `session and validateText report different errors on ${label}`);
  if (value !== TEXT_ONLY) {
    const parsed: Result = compiled.validate(value);
    assert.equal(parsed.valid, whole.valid, `value mode and streaming disagree on ${label}`);
    assert.deepEqual(comparable(parsed.errors), comparable(whole.errors), `value mode and streaming report different errors on ${label}`);
  }
  return {valid: whole.valid, errors: comparable(whole.errors), streamed: whole.errors, refusedAt: session.refusedAt};
}

function isValidator(value: unknown): value is Validator {
  return typeof value === 'object' && value !== null && typeof (value as Validator).validateText === 'function';
}

/** `data` as a JavaScript value (JSON.stringify'd for the text modes). */
export function valueOf(value: unknown): Input {
  return {value};
}

export function valid(schema: unknown, data: unknown, options?: CompileOptions): void {
  const outcome = run(schema, valueOf(data), options);
  assert.equal(outcome.valid, true, `${JSON.stringify(schema)} should accept ${JSON.stringify(data)}: ${JSON.stringify(outcome.errors)}`);
}

export function invalid(schema: unknown, data: unknown, options?: CompileOptions): Outcome {
  const outcome = run(schema, valueOf(data), options);
  assert.equal(outcome.valid, false, `${JSON.stringify(schema)} should reject ${JSON.stringify(data)}`);
  return outcome;
}

/** Verdict on JSON text (numbers as written), in all modes whose input can hold it. */
export function verdictOfText(schema: unknown, text: string, options?: CompileOptions & {textOnly?: boolean}): boolean {
  const {textOnly, ...compileOptions} = options ?? {};
  return run(schema, textOnly ? {text, value: TEXT_ONLY} : text, compileOptions).valid;
}

/** The one error of an invalid document (asserts there is exactly one). */
export function onlyError(schema: unknown, data: unknown, options?: CompileOptions): OutputUnit {
  const outcome = invalid(schema, data, options);
  assert.equal(outcome.errors.length, 1, `expected one error, got ${JSON.stringify(outcome.errors)}`);
  return outcome.errors[0];
}

/** The byte index at which a 1-byte-chunk session first refuses `text` (-1: never). */
export function refusalByte(schema: unknown, text: string, options?: CompileOptions): number {
  return run(schema, {text, value: TEXT_ONLY}, options).refusedAt;
}

/** compile() must throw a SchemaError; returns it. */
export function schemaError(schema: unknown, options: CompileOptions = {}): SchemaError {
  try {
    compile(schema, options);
  } catch (error) {
    assert.ok(error instanceof SchemaError, `expected a SchemaError, got ${String(error)}`);
    return error;
  }
  assert.fail(`compile accepted ${JSON.stringify(schema)}`);
}

/** The index just past the n-th (1-based) occurrence of `needle`, minus one: its last byte (ASCII text). */
export function lastByteOf(text: string, needle: string, occurrence = 1): number {
  let at = -1;
  for (let i = 0; i < occurrence; i++) {
    at = text.indexOf(needle, at + 1);
    assert.notEqual(at, -1, `"${needle}" not found in ${text}`);
  }
  return at + needle.length - 1;
}

/** The fields of an error a keyword test pins down. */
export function summary(unit: OutputUnit): Pick<OutputUnit, 'keyword' | 'keywordLocation' | 'instanceLocation' | 'params' | 'error'> {
  const {keyword, keywordLocation, instanceLocation, params, error} = unit;
  return params === undefined ? {keyword, keywordLocation, instanceLocation, error} : {keyword, keywordLocation, instanceLocation, params, error};
}

/** What the value options made of a document, agreed on by every mode. */
export interface Amended {
  valid: boolean;
  /** The value handed on (validate's Result.value): for a valid document, every mode's. */
  value: unknown;
  errors: OutputUnit[];
}

/**
 * JSON `text` through every mode under value `options` (coerceTypes, useDefaults,
 * removeAdditional): verdicts and errors agree (see run), and for a valid document so does the
 * value handed on — validate's, which changes the caller's value in place; parseText's; and a
 * parsing session's, fed one byte at a time.
 */
export function amended(schema: unknown, text: string, options: CompileOptions): Amended {
  const validator = compile(schema, options);
  const outcome = run(validator, text);
  const given: unknown = JSON.parse(text);
  const result = validator.validate(given);
  // Without value options, validate hands nothing on: the value is the caller's, unchanged.
  const validated = 'value' in result ? result : {...result, value: given};
  const parsed = validator.parseText(text);
  const session = validator.session({parse: true});
  for (const chunk of byteChunks(encoder.encode(text))) session.write(chunk);
  const streamed = session.end();
  assert.equal(parsed.valid, outcome.valid, `parseText and validateText disagree on ${text}`);
  assert.equal(streamed.valid, outcome.valid, `a parsing session and validateText disagree on ${text}`);
  if (outcome.valid) {
    assert.deepEqual(parsed.value, validated.value, `parseText and validate hand on different values for ${text}`);
    assert.deepEqual(streamed.value, validated.value, `a parsing session and validate hand on different values for ${text}`);
    // Changed in place: the caller's object or array is the value handed on, unless it changed kind.
    if (typeof given === 'object' && given !== null && Array.isArray(given) === Array.isArray(validated.value)) assert.equal(validated.value, given);
  }
  return {valid: outcome.valid, value: validated.value, errors: outcome.errors};
}
