// `pattern` (2020-12 validation §6.3.3): a string instance must match the ECMA-262 regular
// expression, unanchored. The string must be whole before the expression runs.

import {STRING, type KeywordDefinition} from '../schema.js';
import {compilePattern} from './shapes.js';

export const pattern: KeywordDefinition<RegExp> = {
  name: 'pattern',
  compile: (value, context) => compilePattern(value, context),
  scalar(run, keyword) {
    if (run.kind === STRING && !keyword.value.test(run.evaluator.text)) {
      run.fail(keyword, `must match pattern "${keyword.value.source}"`, {pattern: keyword.value.source});
    }
  },
};
