// `$recursiveRef` (2019-09 core §8.2.4.2): like `$ref: "#"`, but when the current resource's root has
// `$recursiveAnchor: true`, the target is the outermost resource root in the dynamic scope that also
// has `$recursiveAnchor: true`.

import type {Run} from '../evaluator.js';
import {requireSubschema} from './allOf.js';
import {compileReference} from './ref.js';
import type {KeywordDefinition, SchemaNode} from '../schema.js';

export const recursiveRef: KeywordDefinition<SchemaNode> = {
  name: '$recursiveRef',
  annotatesInPlace: true,
  startsRunsOnScalars: true,
  compile: compileReference,
  begin(run, keyword) {
    let target = keyword.value;
    if (target.resource.recursiveAnchor) {
      for (let scope: Run | null = run; scope !== null; scope = scope.parent) {
        const resource = scope.node.resource;
        if (resource.recursiveAnchor && resource.root !== undefined) target = resource.root;
      }
    }
    run.applyInPlace(target, keyword, 0, '/$recursiveRef');
  },
  result: requireSubschema,
};
