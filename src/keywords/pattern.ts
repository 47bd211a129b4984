// `pattern` (2020-12 validation §6.3.3): a string instance must match the ECMA-262 regular
// expression, unanchored. The string must be whole before the expression runs.

import {STRING, type StringPattern} from '../schema/node.js';
import {scalarCheck} from './rules/scalarCheck.js';
import {compilePattern} from './rules/expect.js';
import {inPlaceTwin} from './rules/inPlacePattern.js';

export const pattern = scalarCheck<StringPattern>({
  name: 'pattern',
  compile: (value, context) => {
    const regExp = compilePattern(value, context);
    return {regExp, inPlace: inPlaceTwin(regExp)};
  },
  accepts: (keyword, kind, scalar) => kind !== STRING || scalar.matches(keyword.value),
  failure: (keyword) => [`must match pattern "${keyword.value.regExp.source}"`, {pattern: keyword.value.regExp.source}],
});
