// `$recursiveRef` (2019-09 core §8.2.4.2): like `$ref: "#"`, but when the current resource's root has
// `$recursiveAnchor: true`, the target is the outermost resource root in the dynamic scope that also
// has `$recursiveAnchor: true`.

import {requireSubschema} from './rules/branches.js';
import {runScope} from './dynamicRef.js';
import {compileReference} from './ref.js';
import type {KeywordDefinition, Resource, SchemaNode} from '../schema/node.js';

/** Where the reference leads, given the dynamic scope (innermost first). */
function target(initial: SchemaNode, scope: Iterable<Resource>): SchemaNode {
  if (!initial.resource.recursiveAnchor) return initial;
  // The outermost resource root in the dynamic scope that also has `$recursiveAnchor: true`.
  let found = initial;
  for (const resource of scope) if (resource.recursiveAnchor && resource.root !== undefined) found = resource.root;
  return found;
}

export const recursiveRef: KeywordDefinition<SchemaNode> = {
  name: '$recursiveRef',
  followsDynamicScope: true,
  annotatesInPlace: true,
  startsRunsOnScalars: true,
  compile: compileReference,
  outline: (keyword, outline) => outline.dynamic((scope) => target(keyword.value, scope)),
  begin(run, keyword) {
    run.applyInPlace(target(keyword.value, runScope(run)), keyword, 0, '/$recursiveRef');
  },
  result: requireSubschema,
};
