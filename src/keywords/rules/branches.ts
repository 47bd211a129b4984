// In-place branches (2020-12 core §10.2.1): the subschemas of `allOf`, `anyOf` and `oneOf`, each
// applied at the keyword's own location, in parallel over the same events. What those keywords
// share: compiling the branches, starting them, and counting how they settled.

import type {CompiledKeyword, KeywordContext, KeywordDefinition, Run, SchemaNode} from '../../schema/node.js';
import {expectSchemaArray} from './expect.js';

export interface Branches {
  readonly nodes: readonly SchemaNode[];
  readonly paths: readonly string[];
}

/** The subschemas of `allOf`/`anyOf`/`oneOf`, compiled with their keyword-location paths. */
export function compileBranches(value: unknown, context: KeywordContext, name: string): Branches {
  expectSchemaArray(value, context);
  return {
    nodes: value.map((schema, index) => context.subschema(schema, '/' + index)),
    paths: value.map((_, index) => `/${name}/${index}`),
  };
}

/** For applicators whose subschema must pass at this location: its errors or its annotations become ours. */
export function requireSubschema(run: Run, _keyword: unknown, child: Run): void {
  if (child.failed) run.failWith(child);
  else run.mergeAnnotations(child);
}

export class BranchTally {
  passed = 0;
  settled = 0;
  readonly failures: Run[] = [];
}

const newTally = (): BranchTally => new BranchTally();

/** Start every branch, with a tally for `anyOf`/`oneOf` to count them in. */
export function beginBranches(run: Run, keyword: CompiledKeyword<Branches>): void {
  run.state(keyword, newTally);
  const {nodes, paths} = keyword.value;
  for (let i = 0; i < nodes.length; i++) {
    run.applyInPlace(nodes[i]!, keyword, i, paths[i]!);
    if (run.settled) return;
  }
}

/**
 * Count a settled branch. When it was the last one and none passed, the keyword fails with every
 * branch's errors. Returns the tally (its `passed` includes this branch).
 */
export function tallyBranch(run: Run, keyword: CompiledKeyword<Branches>, child: Run, message: string): BranchTally {
  const tally = run.state(keyword, newTally);
  tally.settled++;
  if (!child.failed) tally.passed++;
  else tally.failures.push(child);
  if (tally.settled === keyword.value.nodes.length && tally.passed === 0) {
    for (const failure of tally.failures) run.collectErrors(failure);
    run.fail(keyword, message, {passingSchemas: 0});
  }
  return tally;
}
