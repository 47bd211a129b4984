// `unevaluatedProperties` (2020-12 core §11.3): properties that no successful subschema at this
// location evaluated must validate against it. Annotations of failed subschemas do not count, so the
// verdict waits for the object's close; meanwhile the subschema runs speculatively on each candidate
// value, and only the names of candidates that failed are remembered.

import type {Run} from '../evaluator.js';
import type {KeywordDefinition, SchemaNode} from '../schema.js';
import {expectSchema} from './shapes.js';

interface Pending {
  /** Candidates whose value failed the subschema: fine only if someone else evaluated them. */
  failed: Map<string, Run>;
}

const newPending = (): Pending => ({failed: new Map()});

export const unevaluatedProperties: KeywordDefinition<SchemaNode> = {
  name: 'unevaluatedProperties',
  subschemas: 'schema',
  compile(value, context) {
    expectSchema(value, context);
    return context.subschema(value, '');
  },
  key(run, keyword, name) {
    // Keywords of this same node ran first (see the draft tables' order): what they took is settled.
    if (run.evaluatedProperties!.has(name)) return;
    run.applyToMember(keyword.value, keyword, 0, '/unevaluatedProperties');
  },
  result(run, keyword, child) {
    const name = run.evaluator.currentKey(child.depth);
    if (child.failed) run.state(keyword, newPending).failed.set(name, child);
    else run.evaluatedProperties!.add(name);
  },
  end(run, keyword) {
    const pending = run.peekState<Pending>(keyword);
    if (pending === undefined) return;
    for (const [name, child] of pending.failed) {
      if (run.evaluatedProperties!.has(name)) continue;
      if (keyword.value.bool === false) run.fail(keyword, `must NOT have unevaluated property "${name}"`, {unevaluatedProperty: name}, name);
      else run.failWith(child);
      if (run.settled) return;
    }
  },
};
