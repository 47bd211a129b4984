// Numeric bounds (2020-12 validation §6.2): `minimum`, `maximum`, `exclusiveMinimum`,
// `exclusiveMaximum`, `multipleOf`. Decided on the number's text: doubles settle every case where
// they differ, the exact decimal the rest (see src/json/numbers.ts). Draft 4 spelled exclusivity as a
// boolean beside `minimum`/`maximum`; that is a different keyword module, below.

import {isMultipleOf, parseDecimal, type Decimal} from '../json/numbers.js';
import {NUMBER, type CompiledKeyword, type Kind, type KeywordDefinition, type Scalar} from '../schema/node.js';
import {scalarCheck} from './rules/scalarCheck.js';
import {expectNumber} from './rules/expect.js';

interface Bound {
  readonly limit: number;
  readonly decimal: Decimal | undefined;
  /** Which comparison results fail: -1 below, 0 equal, 1 above. */
  readonly failsBelow: boolean;
  readonly failsEqual: boolean;
  readonly failsAbove: boolean;
  /** What a number within the bound is to the limit (`>=`, `>`, `<=`, `<`): ajv's `params.comparison`. */
  readonly comparison: string;
  readonly message: string;
}

type Fails = 'below' | 'below-or-equal' | 'above' | 'above-or-equal';

const comparisons: Readonly<Record<Fails, string>> = {'below': '>=', 'below-or-equal': '>', 'above': '<=', 'above-or-equal': '<'};

function bound(limit: number, fails: Fails): Bound {
  const comparison = comparisons[fails];
  return {
    limit,
    decimal: parseDecimal(String(limit)),
    failsBelow: fails === 'below' || fails === 'below-or-equal',
    failsEqual: fails === 'below-or-equal' || fails === 'above-or-equal',
    failsAbove: fails === 'above' || fails === 'above-or-equal',
    comparison,
    message: `must be ${comparison} ${limit}`,
  };
}

function withinBound(keyword: CompiledKeyword<Bound>, kind: Kind, scalar: Scalar): boolean {
  if (kind !== NUMBER) return true;
  const value = keyword.value;
  const order = scalar.compareNumber(value.limit, value.decimal);
  return !((order < 0 && value.failsBelow) || (order === 0 && value.failsEqual) || (order > 0 && value.failsAbove));
}

/** Every string passes a numeric keyword. */
const passesStrings = (): number => -1;

const boundFailure = (keyword: CompiledKeyword<Bound>): [string, Record<string, unknown>] => [
  keyword.value.message,
  {comparison: keyword.value.comparison, limit: keyword.value.limit},
];

function boundKeyword(name: string, fails: Fails): KeywordDefinition<Bound> {
  return scalarCheck<Bound>({
    name,
    compile: (value, context) => bound(expectNumber(value, context), fails),
    accepts: withinBound,
    failure: boundFailure,
    stringsAlikePast: passesStrings,
  });
}

export const minimum = boundKeyword('minimum', 'below');
export const maximum = boundKeyword('maximum', 'above');
export const exclusiveMinimum = boundKeyword('exclusiveMinimum', 'below-or-equal');
export const exclusiveMaximum = boundKeyword('exclusiveMaximum', 'above-or-equal');

/** Draft 4: `minimum`/`maximum` read the boolean `exclusiveMinimum`/`exclusiveMaximum` beside them. */
function draft4BoundKeyword(name: 'minimum' | 'maximum', exclusiveName: string): KeywordDefinition<Bound> {
  const lower = name === 'minimum';
  return scalarCheck<Bound>({
    name,
    compile(value, context) {
      const limit = expectNumber(value, context);
      const exclusive = context.schema[exclusiveName];
      if (exclusive === true) return bound(limit, lower ? 'below-or-equal' : 'above-or-equal');
      return bound(limit, lower ? 'below' : 'above');
    },
    accepts: withinBound,
    failure: boundFailure,
    stringsAlikePast: passesStrings,
  });
}

export const draft4Minimum = draft4BoundKeyword('minimum', 'exclusiveMinimum');
export const draft4Maximum = draft4BoundKeyword('maximum', 'exclusiveMaximum');

/** Draft 4 `exclusiveMinimum`/`exclusiveMaximum`: booleans that only modify their sibling. */
function draft4Exclusive(name: string): KeywordDefinition<never> {
  return {
    name,
    compile(value, context) {
      if (typeof value !== 'boolean') throw context.fail('must be a boolean in draft 4');
      return undefined;
    },
  };
}

export const draft4ExclusiveMinimum = draft4Exclusive('exclusiveMinimum');
export const draft4ExclusiveMaximum = draft4Exclusive('exclusiveMaximum');

interface Divisor {
  readonly number: number;
  readonly decimal: Decimal;
}

export const multipleOf = scalarCheck<Divisor>({
  name: 'multipleOf',
  compile(value, context) {
    const divisor = expectNumber(value, context);
    if (divisor <= 0) throw context.fail('must be a number greater than 0');
    return {number: divisor, decimal: parseDecimal(String(divisor))!};
  },
  stringsAlikePast: passesStrings,
  accepts: (keyword, kind, scalar) =>
    kind !== NUMBER || isMultipleOf(scalar.numberText(), scalar.number(), keyword.value.decimal, keyword.value.number),
  failure: (keyword) => [`must be a multiple of ${keyword.value.number}`, {multipleOf: keyword.value.number}],
});
