// In-place branches (2020-12 core §10.2.1): the subschemas of `allOf`, `anyOf`, `oneOf` and `not`,
// each applied at the keyword's own location, in parallel over the same events. What those
// keywords share, told to both engines: to the evaluator as runs started at `begin` and counted as
// they settle, to the checker as the outline's `all`, `some` and `none`.

import type {CompiledKeyword, KeywordContext, KeywordDefinition, Run, SchemaNode} from '../../schema/node.js';
import {compileSchema, expectSchemaArray} from './expect.js';

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
  /** The index of the first branch that passed. */
  firstPassed = -1;
  settled = 0;
  readonly failures: Run[] = [];
}

const newTally = (): BranchTally => new BranchTally();

/** Start every branch at this location, until one settles the keyword's run. */
function startBranches(run: Run, keyword: CompiledKeyword<Branches>): void {
  const {nodes, paths} = keyword.value;
  for (let i = 0; i < nodes.length; i++) {
    run.applyInPlace(nodes[i]!, keyword, i, paths[i]!);
    if (run.settled) return;
  }
}

/** Start every branch, with a tally for `anyOf`/`oneOf` to count them in. */
export function beginBranches(run: Run, keyword: CompiledKeyword<Branches>): void {
  run.state(keyword, newTally);
  startBranches(run, keyword);
}

/** What every branch keyword is: in place, on any value, compiled from an array of schemas. */
function branchKeyword(name: string): Pick<KeywordDefinition<Branches>, 'name' | 'annotatesInPlace' | 'startsRunsOnScalars' | 'subschemas' | 'compile'> {
  return {
    name,
    annotatesInPlace: true,
    startsRunsOnScalars: true,
    subschemas: 'schemaArray',
    compile: (value, context) => compileBranches(value, context, name),
  };
}

/**
 * Count a settled branch. When it was the last one and none passed, the keyword fails with every
 * branch's errors. Returns the tally (its `passed` includes this branch).
 */
export function tallyBranch(run: Run, keyword: CompiledKeyword<Branches>, child: Run, message: string): BranchTally {
  const tally = run.state(keyword, newTally);
  tally.settled++;
  if (child.failed) tally.failures.push(child);
  else if (tally.passed++ === 0) tally.firstPassed = child.slot;
  if (tally.settled === keyword.value.nodes.length && tally.passed === 0) {
    for (const failure of tally.failures) run.collectErrors(failure);
    // ajv's params: no branch passed.
    run.fail(keyword, message, {passingSchemas: null});
  }
  return tally;
}

/** Every branch applies here: the first to fail fails the keyword, at once (`allOf`). */
export function everyBranch(name: string): KeywordDefinition<Branches> {
  return {
    ...branchKeyword(name),
    outline(keyword, outline) {
      for (const node of keyword.value.nodes) outline.all(node);
    },
    begin: startBranches,
    result: requireSubschema,
  };
}

/**
 * At least one branch passes (`anyOf`), or, `exactly`, one and only one (`oneOf`): a second
 * passing branch fails the keyword at once. Every branch runs to its end, since each passing one
 * brings its annotations.
 */
export function someBranches(name: string, exactly: boolean): KeywordDefinition<Branches> {
  const message = exactly ? `must match exactly one schema in ${name}` : `must match a schema in ${name}`;
  return {
    ...branchKeyword(name),
    outline: (keyword, outline) => outline.some(keyword.value.nodes, exactly),
    begin: beginBranches,
    result(run, keyword, child) {
      const tally = tallyBranch(run, keyword, child, message);
      if (!exactly) {
        run.mergeAnnotations(child);
        return;
      }
      if (child.failed || run.settled) return;
      if (tally.passed === 1) run.mergeAnnotations(child);
      // ajv's params: the two branches that passed, in order (they may settle in any).
      else if (tally.passed === 2) run.fail(keyword, message, {passingSchemas: [Math.min(tally.firstPassed, child.slot), Math.max(tally.firstPassed, child.slot)]});
    },
  };
}

/**
 * The one subschema must fail (`not`, §10.2.1.4). Only whether it failed matters, so its errors are
 * never recorded, and its annotations never count, whatever the outcome.
 */
export function noBranch(name: string, message: string): KeywordDefinition<SchemaNode> {
  const path = '/' + name;
  return {
    name,
    startsRunsOnScalars: true,
    discardsErrors: () => true,
    subschemas: 'schema',
    compile: compileSchema,
    outline: (keyword, outline) => outline.none(keyword.value),
    begin(run, keyword) {
      run.applyInPlace(keyword.value, keyword, 0, path);
    },
    result(run, keyword, child) {
      if (!child.failed) run.fail(keyword, message);
    },
  };
}
