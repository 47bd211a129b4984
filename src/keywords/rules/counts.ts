// Bounds on how many properties an object has or items an array has (2020-12 validation §6.4.1-2,
// §6.5.1-2), or how many of its items match a subschema (`contains`, core §10.3.1.3, with
// `minContains`/`maxContains`, validation §6.4.4-5). What those keywords share, told to both
// engines from one statement, the bounds: the evaluator fails a maximum at the member that is one
// too many and a minimum at the close; the checker counts against the same bounds.

import {ARRAY, OBJECT, type CompiledKeyword, type KeywordContext, type KeywordDefinition, type Run, type SchemaNode} from '../../schema/node.js';
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

/** From `min` to `max` items match `node`. */
export interface Matches {
  readonly node: SchemaNode;
  readonly min: number;
  readonly max: number;
}

/** ajv's params: both bounds, `maxContains` only when there is one. */
function containsParams({min, max}: Matches): Record<string, unknown> {
  return max === Infinity ? {minContains: min} : {minContains: min, maxContains: max};
}

class MatchCount {
  matches = 0;
}

const newMatchCount = (): MatchCount => new MatchCount();

/**
 * A keyword that counts the items matching its subschema. Each item is tried; only whether it
 * matched matters, so the tries record no errors. One match too many fails at that item; too few
 * can only be known at the close. `annotates`: the matching indices are evaluated items for
 * `unevaluatedItems` (2020-12 core §10.3.1.3).
 */
export function matchCount(name: string, annotates: boolean, compile: (value: unknown, context: KeywordContext) => Matches | undefined): KeywordDefinition<Matches> {
  const path = '/' + name;
  return {
    name,
    discardsErrors: () => true,
    annotatesMatchedItems: annotates,
    subschemas: 'schema',
    compile,
    outline: (keyword, outline) => outline.tally(keyword.value.node, keyword.value.min, keyword.value.max, annotates),
    begin(run, keyword) {
      if (run.kind === ARRAY) run.state(keyword, newMatchCount);
    },
    item(run, keyword, index) {
      run.applyToMember(keyword.value.node, keyword, index, path);
    },
    result(run, keyword, child) {
      if (child.failed) return;
      const {max} = keyword.value;
      const count = run.state(keyword, newMatchCount);
      count.matches++;
      if (annotates) run.evaluatedItems?.add(child.slot);
      run.mergeAnnotations(child);
      if (count.matches === max + 1) run.fail(keyword, `must contain at most ${max} valid item(s)`, containsParams(keyword.value));
    },
    end(run, keyword) {
      if (run.kind !== ARRAY) return;
      const {min} = keyword.value;
      if (run.state(keyword, newMatchCount).matches < min) run.fail(keyword, `must contain at least ${min} valid item(s)`, containsParams(keyword.value));
    },
  };
}
