// `if` / `then` / `else` (2020-12 core §10.2.2, from draft 7). All three start together on the same
// events; `then` and `else` are speculative until `if` settles, and the loser is abandoned (its
// errors never reported). `then` and `else` without `if` do nothing, so they compile to nothing.

import type {KeywordDefinition, SchemaNode, Run} from '../schema/node.js';
import {expectSchema} from './rules/expect.js';

interface Conditional {
  readonly condition: SchemaNode;
  readonly then: SchemaNode | undefined;
  readonly otherwise: SchemaNode | undefined;
}

const IF = 0;
const THEN = 1;
const ELSE = 2;

class ConditionalState {
  condition: Run | undefined;
  then: Run | undefined;
  otherwise: Run | undefined;
}

const newState = (): ConditionalState => new ConditionalState();

/** The branch that counts once `if` has settled. */
function chosen(state: ConditionalState): Run | undefined {
  return state.condition!.failed ? state.otherwise : state.then;
}

export const ifThenElse: KeywordDefinition<Conditional> = {
  name: 'if',
  annotatesInPlace: true,
  startsRunsOnScalars: true,
  discardsErrors: (slot) => slot === IF,
  speculative: (slot) => slot !== IF,
  subschemas: 'schema',
  compile(value, context) {
    expectSchema(value, context);
    return {
      condition: context.subschema(value, ''),
      then: context.schema.then === undefined ? undefined : context.sibling('then'),
      otherwise: context.schema.else === undefined ? undefined : context.sibling('else'),
    };
  },
  outline: (keyword, outline) => outline.conditional(keyword.value.condition, keyword.value.then, keyword.value.otherwise),
  begin(run, keyword) {
    const state = run.state(keyword, newState);
    const {condition, then, otherwise} = keyword.value;
    state.condition = run.applyInPlace(condition, keyword, IF, '/if');
    if (then !== undefined && !run.settled) state.then = run.applyInPlace(then, keyword, THEN, '/then');
    if (otherwise !== undefined && !run.settled) state.otherwise = run.applyInPlace(otherwise, keyword, ELSE, '/else');
    if (!run.settled && state.condition.settled) decide(run, state);
  },
  result(run, keyword, child) {
    const state = run.state(keyword, newState);
    if (child.slot === IF) {
      // Runs started after `if` are not known yet while `begin` is still creating them.
      if (state.condition !== undefined) decide(run, state);
      return;
    }
    if (!child.failed || state.condition === undefined || !state.condition.settled) return;
    if (chosen(state) === child) run.failWith(child);
  },
  end(run, keyword) {
    const state = run.state(keyword, newState);
    if (state.condition === undefined || state.condition.failed) {
      if (state.otherwise !== undefined) run.mergeAnnotations(state.otherwise);
      return;
    }
    run.mergeAnnotations(state.condition);
    if (state.then !== undefined) run.mergeAnnotations(state.then);
  },
};

/** `if` has settled: drop the losing branch, and fail now if the winner already failed. */
function decide(run: Run, state: ConditionalState): void {
  const loser = state.condition!.failed ? state.then : state.otherwise;
  loser?.abandon();
  const winner = chosen(state);
  if (winner !== undefined && winner.settled && winner.failed) run.failWith(winner);
}
