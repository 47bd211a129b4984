// `contains` (2020-12 core §10.3.1.3, from draft 6) with `minContains` / `maxContains` (validation
// §6.4.4-5, from 2019-09): from `minContains` (default 1) to `maxContains` items validate against
// the subschema (rules/counts.ts).

import type {KeywordContext, KeywordDefinition} from '../schema/node.js';
import {matchCount, type Matches} from './rules/counts.js';
import {compileSchema, expectNonNegativeInteger, isNonNegativeInteger} from './rules/expect.js';

function compileContains(value: unknown, context: KeywordContext): Matches {
  const bounded = context.draft.name === 'draft2019-09' || context.draft.name === 'draft2020-12';
  // minContains/maxContains check their own shape (and report it at their own location).
  const {minContains, maxContains} = context.schema;
  return {
    node: compileSchema(value, context),
    min: bounded && isNonNegativeInteger(minContains) ? minContains : 1,
    max: bounded && isNonNegativeInteger(maxContains) ? maxContains : Infinity,
  };
}

/** 2020-12: the indices that match are `contains`' annotation, evaluated items for `unevaluatedItems`. */
export const contains = matchCount('contains', true, compileContains);

/** Drafts 6 to 2019-09: the matches are not annotations. */
export const legacyContains = matchCount('contains', false, compileContains);

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
