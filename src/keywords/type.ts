// `type` (2020-12 validation §6.1.1): the instance's JSON type must be one of those listed.
// `integer` is a number whose value is whole, decided on the literal text (1.0, 1e2, 2^64).
// Under `coerceTypes` (ajv's option) a value of none of the types becomes one of them first, by
// ajv's table (`coercionOf`); the amender applies it before any keyword judges the value.
// Under the `nullable` option a sibling `nullable: true` lists null too (nullable.ts).

import {
  ARRAY, BOOLEAN, INTEGER, NULL, NUMBER, OBJECT, STRING, WRAP_IN_ARRAY, kindNames,
  type Coerced, type Coercion, type CompiledKeyword, type Kind, type KeywordDefinition, type Scalar,
} from '../schema/node.js';
import {withNullable} from './nullable.js';

const typeBits: Readonly<Record<string, number>> = {
  object: OBJECT,
  array: ARRAY,
  string: STRING,
  number: NUMBER,
  integer: INTEGER,
  boolean: BOOLEAN,
  null: NULL,
};

interface TypeValue {
  readonly mask: number;
  readonly message: string;
  /** The keyword's value as written (a name or an array of names): ajv's `params.type`. */
  readonly expected: string | readonly string[];
  /** Under `coerceTypes`, when some listed type is one ajv coerces to; else null. */
  readonly coercion: Coercion | null;
}

/** The value's kind is one of `mask`'s (a whole number counts as `integer`). */
function hasType(mask: number, kind: Kind, scalar: Scalar): boolean {
  if ((mask & kind) !== 0) return true;
  return kind === NUMBER && (mask & INTEGER) !== 0 && scalar.isInteger();
}

/**
 * A string's number as ajv reads it (`s !== '' && s == +s`: JavaScript's Number, so " 5 " and
 * "0x10" count), when finite: a JSON number cannot be Infinity, so "1e999" stays a string.
 */
function numberOfString(text: string): number | undefined {
  if (text === '') return undefined;
  const number = +text;
  return Number.isFinite(number) ? number : undefined;
}

/** One row of ajv's coercion table: the scalar as type `name`, or undefined. */
function coerceTo(name: string, kind: Kind, scalar: Scalar): Coerced {
  switch (name) {
    case 'string':
      if (kind === NUMBER) return String(scalar.number());
      if (kind === BOOLEAN) return String(scalar.booleanValue);
      return kind === NULL ? '' : undefined;
    case 'number':
    case 'integer': {
      if (kind === BOOLEAN) return scalar.booleanValue ? 1 : 0;
      if (kind === NULL) return 0;
      if (kind !== STRING) return undefined;
      const number = numberOfString(scalar.text);
      return number !== undefined && (name === 'number' || Number.isInteger(number)) ? number : undefined;
    }
    case 'boolean':
      if (kind === NULL || (kind === STRING && scalar.text === 'false') || (kind === NUMBER && scalar.number() === 0)) return false;
      return (kind === STRING && scalar.text === 'true') || (kind === NUMBER && scalar.number() === 1) ? true : undefined;
    case 'null':
      return (kind === STRING && scalar.text === '') || (kind === NUMBER && scalar.number() === 0) || (kind === BOOLEAN && !scalar.booleanValue) ? null : undefined;
    case 'array':
      return WRAP_IN_ARRAY;
    default:
      return undefined;
  }
}

/** The types ajv coerces to (ajv's COERCIBLE, and `array` under `'array'`), in the order written. */
const coercible = new Set(['string', 'number', 'integer', 'boolean', 'null']);

function coercionOf(names: readonly string[], mask: number, mode: boolean | 'array' | undefined): Coercion | null {
  if (mode === undefined || mode === false) return null;
  const targets = names.filter((name) => coercible.has(name) || (mode === 'array' && name === 'array'));
  // ajv coerces nothing, and unwraps nothing, where no listed type is one it coerces to.
  if (targets.length === 0) return null;
  // ajv checks an unwrapped item against the listed types all at once (`checkDataTypes` joins
  // them with "and", `number` standing for `integer`): with more than one, no item has them all,
  // and only the table's rows can keep it.
  const itemTypes = names.includes('number') ? names.filter((name) => name !== 'integer') : names;
  return {
    accepts: (kind, scalar) => hasType(mask, kind, scalar),
    acceptsUnwrapped: (kind, scalar) => itemTypes.length === 1 && hasType(mask, kind, scalar),
    coerce(kind, scalar) {
      for (const name of targets) {
        const coerced = coerceTo(name, kind, scalar);
        if (coerced !== undefined) return coerced;
      }
      return undefined;
    },
    unwraps: mode === 'array',
  };
}

export const type: KeywordDefinition<TypeValue> = {
  name: 'type',
  compile(value, context) {
    const written = Array.isArray(value) ? value : [value];
    if (Array.isArray(value) && value.length === 0 && context.draft.name === 'draft4') throw context.fail('must not be an empty array');
    let mask = 0;
    const seen = new Set<string>();
    written.forEach((name, index) => {
      const at = Array.isArray(value) ? '/' + index : '';
      if (typeof name !== 'string' || typeBits[name] === undefined) {
        context.fail(`unknown type ${JSON.stringify(name)} (expected one of ${Object.keys(typeBits).join(', ')})`, at);
      }
      if (seen.has(name)) throw context.fail(`type "${name}" is listed twice`, at);
      seen.add(name);
      mask |= typeBits[name];
    });
    const names = withNullable(written as string[], context);
    mask |= names.includes('null') ? NULL : 0;
    return {mask, message: `must be ${names.join(' or ')}`, expected: value as string | readonly string[], coercion: coercionOf(names as string[], mask, context.options.coerceTypes)};
  },
  accepts: (keyword, kind, scalar) => hasType(keyword.value.mask, kind, scalar),
  // A string is of the type or not, whatever it says.
  stringsAlikePast: () => -1,
  outline: (keyword, outline) => outline.kinds(keyword.value.mask),
  amend(keyword: CompiledKeyword<TypeValue>, amendments) {
    if (keyword.value.coercion !== null) amendments.coerce(keyword.value.coercion);
  },
  begin(run, keyword) {
    // Containers are judged as they open; scalars in `scalar`, once their value is known.
    const kind = run.kind;
    if ((kind === OBJECT || kind === ARRAY) && !type.accepts!(keyword, kind, run.evaluator)) run.fail(keyword, keyword.value.message, {type: keyword.value.expected});
  },
  scalar(run, keyword) {
    if (type.accepts!(keyword, run.kind as Kind, run.evaluator)) return;
    run.fail(keyword, keyword.value.message, {type: keyword.value.expected});
  },
};
