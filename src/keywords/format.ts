// `format` (2020-12 validation §7): an annotation by default; with the option `formats: 'assert'`
// (or a meta-schema that enables the format-assertion vocabulary) a string must have the format,
// or a number, for a custom NumberFormat (§7.1: a format applies to the type it is defined for).
// The formats are the draft's own (src/formats/) and the caller's `customFormats`. Asserting a
// format that is neither would let every string pass where a check was asked for: refused at
// compile time, unless `unknownFormats: 'ignore'` says to let it pass unchecked.

import {SchemaError} from '../output/errors.js';
import type {FormatCheck} from '../formats/index.js';
import {NUMBER, STRING, type Kind} from '../schema/node.js';
import type {CompileOptions, NumberFormat} from '../types.js';
import {scalarCheck} from './rules/scalarCheck.js';

interface Format {
  readonly name: string;
  /** The one kind of value the check judges; the others pass. */
  readonly kind: Kind;
  /** Given the string, or a number's JSON text. */
  readonly check: FormatCheck;
  /** One of `customFormats`: the caller's function, which may answer differently another time. */
  readonly fromCaller: boolean;
}

/** The checks made from NumberFormats, which are given a number's text rather than a string. */
const numberChecks = new WeakSet<FormatCheck>();
/** The checks made from `customFormats`. */
const callerChecks = new WeakSet<FormatCheck>();

export const format = scalarCheck<Format>({
  name: 'format',
  compile(value, context) {
    if (typeof value !== 'string') throw context.fail('must be a string');
    // Its name is its annotation, whether or not it is asserted (§7.1).
    context.annotate(value);
    if (context.options.formats !== 'assert' && !context.assertFormats) return undefined;
    const check = context.formats.get(value);
    if (check !== undefined) return {name: value, kind: numberChecks.has(check) ? NUMBER : STRING, check, fromCaller: callerChecks.has(check)};
    if (context.options.unknownFormats === 'ignore') return undefined;
    throw new SchemaError(
      'schema.format.unknown',
      context.location,
      `unknown format "${value}": neither a format of ${context.draft.name} nor one of options.customFormats, so it cannot be asserted; add it to customFormats, or set unknownFormats: 'ignore' to let it pass unchecked`,
    );
  },
  accepts: (keyword, kind, scalar) => kind !== keyword.value.kind || keyword.value.check(kind === NUMBER ? scalar.numberText() : scalar.text),
  failure: (keyword) => [`must match format "${keyword.value.name}"`, {format: keyword.value.name}],
  callsCaller: (keyword) => keyword.value.fromCaller,
  // A number's format (int32, double...) passes every string.
  stringsAlikePast: (keyword) => (keyword.value.kind !== STRING ? -1 : undefined),
});

/**
 * The checks of `options.customFormats`, by name; throws SchemaError for an entry that is neither
 * a RegExp, a function nor a NumberFormat. A RegExp is copied without the `g` and `y` flags, whose
 * `lastIndex` would make one string's verdict depend on the string tested before it. A function
 * passes a value only by returning `true`.
 */
export function customFormatChecks(options: Readonly<CompileOptions>): ReadonlyMap<string, FormatCheck> {
  const checks = new Map<string, FormatCheck>();
  const custom: unknown = options.customFormats;
  if (custom === undefined) return checks;
  if (typeof custom !== 'object' || custom === null || Array.isArray(custom)) {
    throw new SchemaError('schema.option.customFormats', '', 'options.customFormats must be an object of format names to RegExps, functions or NumberFormats');
  }
  for (const [name, format] of Object.entries(custom as Record<string, unknown>)) {
    const check = customFormatCheck(name, format);
    callerChecks.add(check);
    checks.set(name, check);
  }
  return checks;
}

function customFormatCheck(name: string, format: unknown): FormatCheck {
  if (format instanceof RegExp) {
    const pattern = new RegExp(format.source, format.flags.replace(/[gy]/g, ''));
    return (value) => pattern.test(value);
  }
  if (typeof format === 'function') {
    const test = format as (value: string) => unknown;
    return (value) => test(value) === true;
  }
  if (isNumberFormat(format)) {
    const validate = format.validate.bind(format) as (value: number) => unknown;
    const check: FormatCheck = (text) => validate(Number(text)) === true;
    numberChecks.add(check);
    return check;
  }
  throw new SchemaError('schema.option.customFormats', '', `options.customFormats["${name}"] must be a RegExp, a function (value: string) => boolean, or {type: 'number', validate(value: number): boolean}`);
}

function isNumberFormat(format: unknown): format is NumberFormat {
  if (typeof format !== 'object' || format === null) return false;
  const {type, validate} = format as Partial<Record<keyof NumberFormat, unknown>>;
  return type === 'number' && typeof validate === 'function';
}
