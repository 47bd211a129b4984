// `allOf` (2020-12 core §10.2.1.1): every subschema applies at this location; the first to fail
// fails the keyword, at once.

import type {KeywordDefinition} from '../schema/node.js';
import {compileBranches, requireSubschema, type Branches} from './rules/branches.js';

export const allOf: KeywordDefinition<Branches> = {
  name: 'allOf',
  annotatesInPlace: true,
  startsRunsOnScalars: true,
  subschemas: 'schemaArray',
  compile: (value, context) => compileBranches(value, context, 'allOf'),
  outline(keyword, outline) {
    for (const node of keyword.value.nodes) outline.all(node);
  },
  begin(run, keyword) {
    const {nodes, paths} = keyword.value;
    for (let i = 0; i < nodes.length; i++) {
      run.applyInPlace(nodes[i]!, keyword, i, paths[i]!);
      if (run.settled) return;
    }
  },
  result: requireSubschema,
};
