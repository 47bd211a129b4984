// The evaluator's verdict alone, the reference the fast verdicts (the text checker, value mode's
// generated code) must never contradict.

import {compileSchema} from '../../src/compile/compile.js';
import {ApplicationCount, Evaluator} from '../../src/engine/evaluator.js';
import {Scope} from '../../src/engine/dynamicScope.js';
import {KeyPlans} from '../../src/engine/keyPlan.js';
import {defaultLimits} from '../../src/json/limits.js';
import {walkValue} from '../../src/json/walker.js';

type Options = Parameters<typeof compileSchema>[1];

/**
 * The evaluator's verdict alone on a parsed value (its events, as src/json/walker.ts makes them),
 * without the checker that `validate` asks first. A value that is not JSON within the limits fails.
 */
export function eventsVerdictOf(schema: unknown, options: Options = {}): (value: unknown) => boolean {
  const {root} = compileSchema(schema, options);
  const limits = {...defaultLimits, ...options.limits};
  const evaluator = new Evaluator(root, false, new KeyPlans(), new Scope(null, null), new ApplicationCount(limits.maxApplications), 'document');
  return (value) => {
    evaluator.reset(null);
    try {
      walkValue(value, evaluator, limits);
    } catch {
      return false;
    }
    return !evaluator.failed;
  };
}
