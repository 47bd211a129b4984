// `contains` (2020-12 core §10.3.1.3) with `minContains` / `maxContains` (validation §6.4.4-5, from
// 2019-09): count the items that validate. `maxContains` fails at the item that is one too many;
// too few can only be known at the array's close.

import {ARRAY, type KeywordDefinition, type SchemaNode, type Run} from '../schema/node.js';
import {expectNonNegativeInteger, expectSchema, isNonNegativeInteger} from './rules/expect.js';

interface Contains {
  readonly node: SchemaNode;
  readonly min: number;
  readonly max: number;
  /** 2020-12: matching indices are annotations for `unevaluatedItems`. */
  readonly annotates: boolean;
}

class Count {
  matches = 0;
}

const newCount = (): Count => new Count();

export const contains: KeywordDefinition<Contains> = {
  name: 'contains',
  discardsErrors: () => true,
  subschemas: 'schema',
  compile(value, context) {
    expectSchema(value, context);
    const bounded = context.draft.name === 'draft2019-09' || context.draft.name === 'draft2020-12';
    // minContains/maxContains check their own shape (and report it at their own location).
    const {minContains, maxContains} = context.schema;
    return {
      node: context.subschema(value, ''),
      min: bounded && isNonNegativeInteger(minContains) ? minContains : 1,
      max: bounded && isNonNegativeInteger(maxContains) ? maxContains : Infinity,
      annotates: context.draft.name === 'draft2020-12',
    };
  },
  outline: (keyword, outline) => outline.tally(keyword.value.node, keyword.value.min, keyword.value.max, keyword.value.annotates),
  begin(run, keyword) {
    if (run.kind === ARRAY) run.state(keyword, newCount);
  },
  item(run, keyword, index) {
    run.applyToMember(keyword.value.node, keyword, index, '/contains');
  },
  result(run: Run, keyword, child) {
    if (child.failed) return;
    const count = run.state(keyword, newCount);
    count.matches++;
    if (keyword.value.annotates) run.evaluatedItems?.add(child.slot);
    if (count.matches === keyword.value.max + 1) {
      run.fail(keyword, `must contain at most ${keyword.value.max} valid item(s)`, {maxContains: keyword.value.max});
    }
  },
  end(run, keyword) {
    if (run.kind !== ARRAY) return;
    const {min} = keyword.value;
    if (run.state(keyword, newCount).matches < min) {
      run.fail(keyword, `must contain at least ${min} valid item(s)`, {minContains: min});
    }
  },
};

/** `minContains` / `maxContains` act through `contains`; alone they only have their shape checked. */
export const minContains: KeywordDefinition<never> = {
  name: 'minContains',
  compile(value, context) {
    expectNonNegativeInteger(value, context);
    return undefined;
  },
};

export const maxContains: KeywordDefinition<never> = {
  name: 'maxContains',
  compile(value, context) {
    expectNonNegativeInteger(value, context);
    return undefined;
  },
};
