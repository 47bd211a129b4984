// `anyOf` (2020-12 core §10.2.1.2): at least one subschema must validate. Branches run in parallel
// over the same events; the keyword fails when the last of them has failed. Every passing branch
// contributes annotations, so branches keep running when someone collects them.

import type {CompiledKeyword, KeywordDefinition, Run} from '../schema/node.js';
import {compileBranches, type Branches} from './allOf.js';

export class BranchTally {
  passed = 0;
  settled = 0;
  readonly failures: Run[] = [];
}

export const newTally = (): BranchTally => new BranchTally();

export function beginBranches(run: Run, keyword: Parameters<NonNullable<KeywordDefinition<Branches>['begin']>>[1]): void {
  run.state(keyword, newTally);
  const {nodes, paths} = keyword.value;
  for (let i = 0; i < nodes.length; i++) {
    run.applyInPlace(nodes[i], keyword, i, paths[i]);
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

export const anyOf: KeywordDefinition<Branches> = {
  name: 'anyOf',
  annotatesInPlace: true,
  startsRunsOnScalars: true,
  subschemas: 'schemaArray',
  compile: (value, context) => compileBranches(value, context, 'anyOf'),
  outline: (keyword, outline) => outline.some(keyword.value.nodes, false),
  begin: beginBranches,
  result(run, keyword, child) {
    tallyBranch(run, keyword, child, 'must match a schema in anyOf');
    run.mergeAnnotations(child);
  },
};
