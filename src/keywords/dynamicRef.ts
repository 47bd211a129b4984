// `$dynamicRef` (2020-12 core §8.2.3.2). It resolves like `$ref`; but when its initial target is a
// `$dynamicAnchor` of the same name, the target becomes that anchor in the *outermost* schema
// resource of the dynamic scope that defines it (rules/references.ts reads the dynamic scope).

import type {Resource, SchemaNode} from '../schema/node.js';
import {splitFragment} from '../schema/uri.js';
import {compileReference, referenceApplicator} from './rules/references.js';

interface DynamicReference {
  readonly initial: SchemaNode;
  /** The fragment when it is a plain name (it may name a dynamic anchor); undefined otherwise. */
  readonly anchor: string | undefined;
}

export const dynamicRef = referenceApplicator<DynamicReference>({
  name: '$dynamicRef',
  compile(value, context) {
    const initial = compileReference(value, context);
    const {fragment} = splitFragment(context.resolve(value as string));
    return {initial, anchor: fragment !== '' && !fragment.startsWith('/') ? fragment : undefined};
  },
  target({initial, anchor}: DynamicReference, scope: Iterable<Resource>): SchemaNode {
    // Dynamic only when the initial target is itself a `$dynamicAnchor` (anchors are all known by now).
    if (anchor === undefined || initial.resource.dynamicAnchors.get(anchor) !== initial) return initial;
    // The outermost resource in the dynamic scope with a `$dynamicAnchor` of that name.
    let found = initial;
    for (const resource of scope) found = resource.dynamicAnchors.get(anchor) ?? found;
    return found;
  },
});
