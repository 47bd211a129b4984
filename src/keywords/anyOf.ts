// `anyOf` (2020-12 core §10.2.1.2): at least one subschema must validate. Branches run in parallel
// over the same events; the keyword fails when the last of them has failed. Every passing branch
// contributes annotations, so branches keep running when someone collects them.

import type {KeywordDefinition} from '../schema/node.js';
import {beginBranches, compileBranches, tallyBranch, type Branches} from './rules/branches.js';

export const anyOf: KeywordDefinition<Branches> = {
  name: 'anyOf',
  annotatesInPlace: true,
  startsRunsOnScalars: true,
  subschemas: 'schemaArray',
  compile: (value, context) => compileBranches(value, context, 'anyOf'),
  outline: (keyword, outline) => outline.some(keyword.value.nodes, false),
  begin: beginBranches,
  result(run, keyword, child) {
    tallyBranch(run, keyword, child, 'must match a schema in anyOf');
    run.mergeAnnotations(child);
  },
};
