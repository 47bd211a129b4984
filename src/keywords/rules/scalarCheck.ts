// Keywords that only judge scalar values (`pattern`, `format`, lengths, numeric bounds) are one
// predicate each. The predicate is the keyword's `accepts` (the evaluator's run-free path for leaf
// members) and its `scalar` hook reports a failure of that same predicate.

import type {CompiledKeyword, Kind, KeywordContext, KeywordDefinition, Scalar} from '../../schema/node.js';

export interface ScalarCheck<V> {
  readonly name: string;
  compile(value: unknown, context: KeywordContext): V | undefined;
  /** The verdict on a scalar of `kind` (the text is `scalar.text`); other kinds pass. */
  accepts(keyword: CompiledKeyword<V>, kind: Kind, scalar: Scalar): boolean;
  /** The message and params of a failure. */
  failure(keyword: CompiledKeyword<V>): [message: string, params: Record<string, unknown>];
  /** KeywordDefinition.callsCaller. */
  callsCaller?(keyword: CompiledKeyword<V>): boolean;
  /** KeywordDefinition.stringsAlikePast. */
  stringsAlikePast?(keyword: CompiledKeyword<V>): number | undefined;
}

export function scalarCheck<V>(check: ScalarCheck<V>): KeywordDefinition<V> {
  return {
    name: check.name,
    compile: check.compile,
    accepts: check.accepts,
    callsCaller: check.callsCaller,
    stringsAlikePast: check.stringsAlikePast,
    scalar(run, keyword) {
      if (check.accepts(keyword, run.kind as Kind, run.evaluator)) return;
      const [message, params] = check.failure(keyword);
      run.fail(keyword, message, params);
    },
  };
}
