// References (2020-12 core §8.2.3): a subschema found elsewhere applies at this location. What
// `$ref`, `$dynamicRef` and `$recursiveRef` share, told to both engines from one statement, the
// keyword's `target`: the evaluator starts a run on it at `begin`, whose failure or annotations
// become the keyword's; the checker applies it in place (`all`), or, for a target that depends
// on the dynamic scope, asks for it with the scope of each application (`dynamic`).

import type {KeywordContext, KeywordDefinition, Resource, SchemaNode} from '../../schema/node.js';
import {requireSubschema} from './branches.js';

/** A reference keyword's value: a URI reference, resolved against the current base to a node. */
export function compileReference(value: unknown, context: KeywordContext): SchemaNode {
  if (typeof value !== 'string') throw context.fail('must be a string (a URI reference)');
  return context.reference(value);
}

interface ReferenceRule<V> {
  readonly name: string;
  compile(value: unknown, context: KeywordContext): V | undefined;
  /** Where the reference leads, given the dynamic scope (innermost first); absent: `value` is the node. */
  target?(value: V, scope: Iterable<Resource>): SchemaNode;
}

export function referenceApplicator<V>(rule: ReferenceRule<V>): KeywordDefinition<V> {
  const {name, target} = rule;
  const path = '/' + name;
  return {
    name,
    followsDynamicScope: target !== undefined,
    annotatesInPlace: true,
    startsRunsOnScalars: true,
    compile: rule.compile,
    outline(keyword, outline) {
      if (target === undefined) outline.all(keyword.value as SchemaNode);
      else outline.dynamic((scope) => target(keyword.value, scope));
    },
    begin(run, keyword) {
      const node = target === undefined ? (keyword.value as SchemaNode) : target(keyword.value, run.dynamicScope());
      run.applyInPlace(node, keyword, 0, path);
    },
    result: requireSubschema,
  };
}
