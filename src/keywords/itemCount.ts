// `minItems` / `maxItems` (2020-12 validation §6.4.1-2). `maxItems` fails at the item that is one
// too many; `minItems` at the close.

import {ARRAY, type KeywordDefinition} from '../schema/node.js';
import {expectNonNegativeInteger} from './rules/expect.js';

export const maxItems: KeywordDefinition<number> = {
  name: 'maxItems',
  compile: expectNonNegativeInteger,
  outline: (keyword, outline) => outline.itemCount(0, keyword.value),
  item(run, keyword, index) {
    if (index === keyword.value) run.fail(keyword, `must NOT have more than ${keyword.value} items`, {limit: keyword.value});
  },
};

export const minItems: KeywordDefinition<number> = {
  name: 'minItems',
  compile: (value, context) => expectNonNegativeInteger(value, context) || undefined,
  outline: (keyword, outline) => outline.itemCount(keyword.value, Infinity),
  end(run, keyword) {
    if (run.kind === ARRAY && run.evaluator.count() < keyword.value) {
      run.fail(keyword, `must NOT have fewer than ${keyword.value} items`, {limit: keyword.value});
    }
  },
};
