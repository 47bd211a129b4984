// Standard Schema V1 (https://standardschema.dev): a validator's result in the standard's shape,
// for the libraries that take any Standard Schema (Hono's @hono/standard-validator, tRPC, ...).

import {pathOfPointer} from '../json/pointer.js';
import type {StandardResult, ValueResult} from '../types.js';

/**
 * The standard's result for `value` validated in value mode: the valid value, or one issue per
 * error unit, its path the keys of the unit's `instanceLocation` (array indices as numbers).
 */
export function standardResult<T>(result: ValueResult<T>, value: unknown): StandardResult<T> {
  if (result.valid) return {value: result.value};
  return {issues: result.errors.map((unit) => ({message: unit.error, path: pathOfPointer(value, unit.instanceLocation)}))};
}
