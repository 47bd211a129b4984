// `unevaluatedItems` (2020-12 core §11.2): items that no successful subschema at this location
// evaluated must validate against it. Like `unevaluatedProperties`, the verdict waits for the close;
// the subschema runs speculatively on each candidate item and only failed candidates are remembered.

import type {Run} from '../evaluator.js';
import type {KeywordDefinition, SchemaNode} from '../schema.js';
import {expectSchema} from './shapes.js';

const newFailures = (): Map<number, Run> => new Map();

export const unevaluatedItems: KeywordDefinition<SchemaNode> = {
  name: 'unevaluatedItems',
  subschemas: 'schema',
  compile(value, context) {
    expectSchema(value, context);
    return context.subschema(value, '');
  },
  item(run, keyword, index) {
    if (run.evaluatedItems!.has(index)) return;
    run.applyToMember(keyword.value, keyword, index, '/unevaluatedItems');
  },
  result(run, keyword, child) {
    if (child.failed) run.state(keyword, newFailures).set(child.slot, child);
    else run.evaluatedItems!.add(child.slot);
  },
  end(run, keyword) {
    const failures = run.peekState<Map<number, Run>>(keyword);
    if (failures === undefined) return;
    for (const [index, child] of failures) {
      if (run.evaluatedItems!.has(index)) continue;
      if (keyword.value.bool === false) run.fail(keyword, `must NOT have unevaluated item ${index}`, {unevaluatedItem: index}, String(index));
      else run.failWith(child);
      if (run.settled) return;
    }
  },
};
