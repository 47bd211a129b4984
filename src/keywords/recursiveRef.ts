// `$recursiveRef` (2019-09 core §8.2.4.2): like `$ref: "#"`, but when the current resource's root has
// `$recursiveAnchor: true`, the target is the outermost resource root in the dynamic scope that also
// has `$recursiveAnchor: true` (rules/references.ts reads the dynamic scope).

import type {Resource, SchemaNode} from '../schema/node.js';
import {compileReference, referenceApplicator} from './rules/references.js';

export const recursiveRef = referenceApplicator<SchemaNode>({
  name: '$recursiveRef',
  compile: compileReference,
  target(initial: SchemaNode, scope: Iterable<Resource>): SchemaNode {
    if (!initial.resource.recursiveAnchor) return initial;
    // The outermost resource root in the dynamic scope that also has `$recursiveAnchor: true`.
    let found = initial;
    for (const resource of scope) if (resource.recursiveAnchor && resource.root !== undefined) found = resource.root;
    return found;
  },
});
