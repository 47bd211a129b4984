// `unevaluatedItems` (2020-12 core §11.2): items that no successful subschema at this location
// evaluated must validate against it. Like `unevaluatedProperties`, the verdict waits for the close
// when a sibling applies subschemas in place (`contains` too, in 2020-12: it annotates the items it
// matches); the subschema runs speculatively on each candidate item and only failed candidates are
// remembered. Without such a sibling a failing candidate fails at once.

import type {CompiledKeyword, KeywordDefinition, SchemaNode, Run} from '../schema/node.js';
import {expectSchema, siblingsAnnotateInPlace} from './rules/expect.js';

const newFailures = (): Map<number, Run> => new Map();

interface Unevaluated {
  readonly node: SchemaNode;
  /** No sibling can evaluate an item later: a failing candidate fails the keyword at once. */
  readonly decidesAtItem: boolean;
}

function failFor(run: Run, keyword: CompiledKeyword<Unevaluated>, index: number, child: Run): void {
  if (keyword.value.node.bool === false) run.fail(keyword, `must NOT have unevaluated item ${index}`, {unevaluatedItem: index}, String(index));
  else run.failWith(child);
}

export const unevaluatedItems: KeywordDefinition<Unevaluated> = {
  name: 'unevaluatedItems',
  readsEvaluatedItems: true,
  keepsFailedMembers: true,
  speculative: () => true,
  subschemas: 'schema',
  compile(value, context) {
    expectSchema(value, context);
    const containsAnnotates = context.draft.name === 'draft2020-12' && context.schema.contains !== undefined;
    return {node: context.subschema(value, ''), decidesAtItem: !siblingsAnnotateInPlace(context) && !containsAnnotates};
  },
  outline: (keyword, outline) => outline.unevaluatedItems(keyword.value.node),
  item(run, keyword, index) {
    if (run.evaluatedItems!.has(index)) return;
    run.applyToMember(keyword.value.node, keyword, index, '/unevaluatedItems');
  },
  result(run, keyword, child) {
    if (!child.failed) run.evaluatedItems!.add(child.slot);
    else if (keyword.value.decidesAtItem) failFor(run, keyword, child.slot, child);
    else run.state(keyword, newFailures).set(child.slot, child);
  },
  end(run, keyword) {
    const failures = run.peekState<Map<number, Run>>(keyword);
    if (failures === undefined) return;
    for (const [index, child] of failures) {
      if (run.evaluatedItems!.has(index)) continue;
      failFor(run, keyword, index, child);
      if (run.settled) return;
    }
  },
};
