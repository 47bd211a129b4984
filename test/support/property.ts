// fast-check settings shared by the property tests: a fixed seed and bounded runs in `npm test`,
// so a failure replays exactly; `npm run fuzz` (FUZZ=1) runs many more, from a fresh seed that
// the failure report prints.

import type {Parameters} from 'fast-check';

/** True under `npm run fuzz`. */
export const fuzzing = process.env.FUZZ === '1';

const FIXED_SEED = 20261123;

/** Parameters for `fc.assert`: `runs` in `npm test`, `runs * FUZZ_FACTOR` (default 100) under fuzz. */
export function property<T>(runs: number): Parameters<T> {
  if (!fuzzing) return {seed: FIXED_SEED, numRuns: runs};
  const factor = Number(process.env.FUZZ_FACTOR ?? 100);
  return {numRuns: runs * factor, verbose: 1};
}
