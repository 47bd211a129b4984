// The options argument every public function takes, checked in one place. Destructured as it was
// given, `null` threw the runtime's own TypeError ("Cannot read properties of null"), and a number
// or a string was read as no options at all: an API used the wrong way must get a clear error.

import {ArgumentError} from '../output/errors.js';

/**
 * `options` as given to `caller`: undefined is no options (`{}`); anything but an object (null, a
 * number, a string, a boolean, an array, a function) is a TypeError that names the caller.
 */
export function optionsArgument<T extends object>(options: T | undefined, caller: string): T {
  if (options === undefined) return {} as T;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ArgumentError(`${caller}(): options must be an object, not ${argumentKind(options)}`);
  }
  return options;
}

/** What an argument of the wrong kind is, as an error names it: `null`, `an array`, `the string "x"`. */
export function argumentKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  return `${typeof value} ${String(value)}`;
}
