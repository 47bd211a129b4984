// Bounds on how many properties an object has or items an array has (2020-12 validation §6.4.1-2,
// §6.5.1-2). What `minProperties`, `maxProperties`, `minItems` and `maxItems` share, told to both
// engines from one statement: the evaluator fails a maximum at the member that is one too many and
// a minimum at the close; the checker counts members against the same bounds.

import {ARRAY, OBJECT, type CompiledKeyword, type KeywordDefinition, type Run} from '../../schema/node.js';
import {expectNonNegativeInteger} from './expect.js';

type Counted = 'properties' | 'items';

/** At most `value` properties or items: the one too many fails as it arrives. */
export function maximumCount(name: string, counted: Counted): KeywordDefinition<number> {
  const tooMany = (run: Run, keyword: CompiledKeyword<number>): void => run.fail(keyword, `must NOT have more than ${keyword.value} ${counted}`, {limit: keyword.value});
  if (counted === 'properties') {
    return {
      name,
      compile: expectNonNegativeInteger,
      outline: (keyword, outline) => outline.propertyCount(0, keyword.value),
      key(run, keyword) {
        if (run.evaluator.count() === keyword.value + 1) tooMany(run, keyword);
      },
    };
  }
  return {
    name,
    compile: expectNonNegativeInteger,
    outline: (keyword, outline) => outline.itemCount(0, keyword.value),
    item(run, keyword, index) {
      if (index === keyword.value) tooMany(run, keyword);
    },
  };
}

/** At least `value` properties or items: known only at the close. */
export function minimumCount(name: string, counted: Counted): KeywordDefinition<number> {
  const kind = counted === 'properties' ? OBJECT : ARRAY;
  return {
    name,
    // A minimum of 0 asks nothing.
    compile: (value, context) => expectNonNegativeInteger(value, context) || undefined,
    outline(keyword, outline) {
      if (counted === 'properties') outline.propertyCount(keyword.value, Infinity);
      else outline.itemCount(keyword.value, Infinity);
    },
    end(run, keyword) {
      if (run.kind === kind && run.evaluator.count() < keyword.value) {
        run.fail(keyword, `must NOT have fewer than ${keyword.value} ${counted}`, {limit: keyword.value});
      }
    },
  };
}
