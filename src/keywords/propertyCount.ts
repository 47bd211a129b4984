// `minProperties` / `maxProperties` (2020-12 validation §6.5.1-2). `maxProperties` fails at the key
// that is one too many; `minProperties` can only be decided at the close.

import {OBJECT, type KeywordDefinition} from '../schema/node.js';
import {expectNonNegativeInteger} from './rules/expect.js';

export const maxProperties: KeywordDefinition<number> = {
  name: 'maxProperties',
  compile: expectNonNegativeInteger,
  outline: (keyword, outline) => outline.propertyCount(0, keyword.value),
  key(run, keyword) {
    if (run.evaluator.count() === keyword.value + 1) run.fail(keyword, `must NOT have more than ${keyword.value} properties`, {limit: keyword.value});
  },
};

export const minProperties: KeywordDefinition<number> = {
  name: 'minProperties',
  compile: (value, context) => expectNonNegativeInteger(value, context) || undefined,
  outline: (keyword, outline) => outline.propertyCount(keyword.value, Infinity),
  end(run, keyword) {
    if (run.kind === OBJECT && run.evaluator.count() < keyword.value) {
      run.fail(keyword, `must NOT have fewer than ${keyword.value} properties`, {limit: keyword.value});
    }
  },
};
