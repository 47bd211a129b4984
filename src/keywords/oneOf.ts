// `oneOf` (2020-12 core §10.2.1.3): exactly one subschema must validate. A second passing branch
// fails the keyword at once; otherwise the verdict comes when every branch has settled.

import type {KeywordDefinition} from '../schema/node.js';
import {beginBranches, compileBranches, tallyBranch, type Branches} from './rules/branches.js';

export const oneOf: KeywordDefinition<Branches> = {
  name: 'oneOf',
  annotatesInPlace: true,
  startsRunsOnScalars: true,
  subschemas: 'schemaArray',
  compile: (value, context) => compileBranches(value, context, 'oneOf'),
  outline: (keyword, outline) => outline.some(keyword.value.nodes, true),
  begin: beginBranches,
  result(run, keyword, child) {
    const tally = tallyBranch(run, keyword, child, 'must match exactly one schema in oneOf');
    if (child.failed || run.settled) return;
    if (tally.passed === 1) run.mergeAnnotations(child);
    else if (tally.passed === 2) run.fail(keyword, 'must match exactly one schema in oneOf', {passingSchemas: 2});
  },
};
