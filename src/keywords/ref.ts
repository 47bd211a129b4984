// `$ref` (2020-12 core §8.2.3.1): the referenced schema applies at this location. Resolved once at
// compile time to a node (cycles allowed: recursion follows the instance, one level per member).
// Before 2019-09 `$ref` hides its siblings; the draft table's `identifiers.hidesSiblings` says so.

import {requireSubschema} from './rules/branches.js';
import type {KeywordContext, KeywordDefinition, SchemaNode} from '../schema/node.js';

/** A reference keyword's value: a URI reference, resolved against the current base to a node. */
export function compileReference(value: unknown, context: KeywordContext): SchemaNode {
  if (typeof value !== 'string') throw context.fail('must be a string (a URI reference)');
  return context.reference(value);
}

export const ref: KeywordDefinition<SchemaNode> = {
  name: '$ref',
  annotatesInPlace: true,
  startsRunsOnScalars: true,
  compile: compileReference,
  outline: (keyword, outline) => outline.all(keyword.value),
  begin(run, keyword) {
    run.applyInPlace(keyword.value, keyword, 0, '/$ref');
  },
  result: requireSubschema,
};
