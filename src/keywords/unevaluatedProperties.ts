// `unevaluatedProperties` (2020-12 core §11.3): properties that no successful subschema at this
// location evaluated must validate against it. Annotations of failed subschemas do not count, so
// when a sibling applies subschemas in place (allOf, $ref, if...) the verdict waits for the object's
// close; meanwhile the subschema runs speculatively on each candidate value, and only the names of
// candidates that failed are remembered. Without such a sibling nobody else can evaluate a key, and
// a failing candidate fails at once.

import type {CompiledKeyword, KeywordDefinition, SchemaNode, Run} from '../schema/node.js';
import {expectSchema, siblingsAnnotateInPlace} from './rules/expect.js';

interface Pending {
  /** Candidates whose value failed the subschema: fine only if someone else evaluated them. */
  failed: Map<string, Run>;
}

const newPending = (): Pending => ({failed: new Map()});

interface Unevaluated {
  readonly node: SchemaNode;
  /** No sibling can evaluate a key later: a failing candidate fails the keyword at once. */
  readonly decidesAtKey: boolean;
}

function failFor(run: Run, keyword: CompiledKeyword<Unevaluated>, name: string, child: Run): void {
  if (keyword.value.node.bool === false) run.fail(keyword, `must NOT have unevaluated property "${name}"`, {unevaluatedProperty: name}, name);
  else run.failWith(child);
}

export const unevaluatedProperties: KeywordDefinition<Unevaluated> = {
  name: 'unevaluatedProperties',
  readsEvaluatedProperties: true,
  keepsFailedMembers: true,
  speculative: () => true,
  subschemas: 'schema',
  compile(value, context) {
    expectSchema(value, context);
    return {node: context.subschema(value, ''), decidesAtKey: !siblingsAnnotateInPlace(context)};
  },
  outline: (keyword, outline) => outline.unevaluatedMembers(keyword.value.node),
  key(run, keyword, name) {
    // Keywords of this same node ran first (see the draft tables' order): what they took is settled.
    if (run.evaluatedProperties!.has(name)) return;
    run.applyToMember(keyword.value.node, keyword, 0, '/unevaluatedProperties');
  },
  result(run, keyword, child) {
    const name = run.evaluator.currentKey(child.depth);
    if (!child.failed) run.evaluatedProperties!.add(name);
    else if (keyword.value.decidesAtKey) failFor(run, keyword, name, child);
    else run.state(keyword, newPending).failed.set(name, child);
  },
  end(run, keyword) {
    const pending = run.peekState<Pending>(keyword);
    if (pending === undefined) return;
    for (const [name, child] of pending.failed) {
      if (run.evaluatedProperties!.has(name)) continue;
      failFor(run, keyword, name, child);
      if (run.settled) return;
    }
  },
};
