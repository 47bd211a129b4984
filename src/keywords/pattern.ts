// `pattern` (2020-12 validation §6.3.3): a string instance must match the ECMA-262 regular
// expression, unanchored. The string must be whole before the expression runs.

import {STRING} from '../schema/node.js';
import {scalarCheck} from './rules/scalarCheck.js';
import {compilePattern} from './rules/expect.js';

export const pattern = scalarCheck<RegExp>({
  name: 'pattern',
  compile: (value, context) => compilePattern(value, context),
  accepts: (keyword, kind, scalar) => kind !== STRING || scalar.matches(keyword.value),
  failure: (keyword) => [`must match pattern "${keyword.value.source}"`, {pattern: keyword.value.source}],
});
