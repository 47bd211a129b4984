// `$dynamicRef` (2020-12 core §8.2.3.2). It resolves like `$ref`; but when its initial target is a
// `$dynamicAnchor` of the same name, the target becomes that anchor in the *outermost* schema
// resource of the dynamic scope that defines it. The dynamic scope is the chain of runs that led
// here, so it is read off the evaluator's run parents, not kept anywhere else.

import type {Run} from '../evaluator.js';
import {requireSubschema} from './allOf.js';
import {compileReference} from './ref.js';
import type {KeywordDefinition, SchemaNode} from '../schema.js';
import {splitFragment} from '../uri.js';

interface DynamicReference {
  readonly initial: SchemaNode;
  /** The fragment when it is a plain name (it may name a dynamic anchor); undefined otherwise. */
  readonly anchor: string | undefined;
}

/** The outermost resource in the dynamic scope with a `$dynamicAnchor` named `anchor`. */
function dynamicTarget(run: Run, anchor: string, fallback: SchemaNode): SchemaNode {
  let target = fallback;
  for (let scope: Run | null = run; scope !== null; scope = scope.parent) {
    const found = scope.node.resource.dynamicAnchors.get(anchor);
    if (found !== undefined) target = found;
  }
  return target;
}

export const dynamicRef: KeywordDefinition<DynamicReference> = {
  name: '$dynamicRef',
  annotatesInPlace: true,
  startsRunsOnScalars: true,
  compile(value, context) {
    const initial = compileReference(value, context);
    const {fragment} = splitFragment(context.resolve(value as string));
    return {initial, anchor: fragment !== '' && !fragment.startsWith('/') ? fragment : undefined};
  },
  begin(run, keyword) {
    const {initial, anchor} = keyword.value;
    // Dynamic only when the initial target is itself a `$dynamicAnchor` (anchors are all known by now).
    const dynamic = anchor !== undefined && initial.resource.dynamicAnchors.get(anchor) === initial;
    const target = dynamic ? dynamicTarget(run, anchor, initial) : initial;
    run.applyInPlace(target, keyword, 0, '/$dynamicRef');
  },
  result: requireSubschema,
};
