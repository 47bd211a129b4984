// `$dynamicRef` (2020-12 core §8.2.3.2). It resolves like `$ref`; but when its initial target is a
// `$dynamicAnchor` of the same name, the target becomes that anchor in the *outermost* schema
// resource of the dynamic scope that defines it. The dynamic scope is the chain of runs that led
// here, so it is read off the evaluator's run parents, not kept anywhere else.

import {requireSubschema} from './rules/branches.js';
import {compileReference} from './ref.js';
import type {KeywordDefinition, Resource, SchemaNode, Run} from '../schema/node.js';
import {splitFragment} from '../schema/uri.js';

interface DynamicReference {
  readonly initial: SchemaNode;
  /** The fragment when it is a plain name (it may name a dynamic anchor); undefined otherwise. */
  readonly anchor: string | undefined;
}

/** The resources of a run's dynamic scope, innermost first. */
export function* runScope(run: Run): Generator<Resource> {
  for (let scope: Run | null = run; scope !== null; scope = scope.parent) yield scope.node.resource;
}

/** Where the reference leads, given the dynamic scope (innermost first). */
function target(reference: DynamicReference, scope: Iterable<Resource>): SchemaNode {
  const {initial, anchor} = reference;
  // Dynamic only when the initial target is itself a `$dynamicAnchor` (anchors are all known by now).
  if (anchor === undefined || initial.resource.dynamicAnchors.get(anchor) !== initial) return initial;
  // The outermost resource in the dynamic scope with a `$dynamicAnchor` of that name.
  let found = initial;
  for (const resource of scope) found = resource.dynamicAnchors.get(anchor) ?? found;
  return found;
}

export const dynamicRef: KeywordDefinition<DynamicReference> = {
  name: '$dynamicRef',
  followsDynamicScope: true,
  annotatesInPlace: true,
  startsRunsOnScalars: true,
  compile(value, context) {
    const initial = compileReference(value, context);
    const {fragment} = splitFragment(context.resolve(value as string));
    return {initial, anchor: fragment !== '' && !fragment.startsWith('/') ? fragment : undefined};
  },
  outline: (keyword, outline) => outline.dynamic((scope) => target(keyword.value, scope)),
  begin(run, keyword) {
    run.applyInPlace(target(keyword.value, runScope(run)), keyword, 0, '/$dynamicRef');
  },
  result: requireSubschema,
};
