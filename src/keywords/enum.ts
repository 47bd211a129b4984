// `enum` and `const` (2020-12 validation §6.1.2-3): the instance equals one of the literals
// (rules/literal.ts).

import {SchemaError} from '../output/errors.js';
import {compileLiterals, literalApplicator} from './rules/literal.js';

/**
 * Most objects and arrays one `enum` may list. Each is a literal node (rules/literal.ts) that runs in
 * place on every object or array instance, so a value's cost grows with their number (~3.5 µs
 * each), and each costs nodes at compile: a million took 35 s and 4 GB to compile, then seconds
 * per value. Strings and numbers are looked up in sets and have no such bound.
 */
export const MAX_CONTAINER_LITERALS = 1000;

function countContainers(values: readonly unknown[]): number {
  let count = 0;
  for (const value of values) if (typeof value === 'object' && value !== null) count++;
  return count;
}

export const enumKeyword = literalApplicator('enum', (value, context) => {
  if (!Array.isArray(value)) throw context.fail('must be an array');
  if (value.length === 0 && (context.draft.name === 'draft4' || context.draft.name === 'draft6')) throw context.fail('must have at least one element');
  const containers = countContainers(value);
  if (containers > MAX_CONTAINER_LITERALS) {
    throw new SchemaError('schema.enum.tooLarge', context.location, `"enum": ${containers} objects and arrays, more than the ${MAX_CONTAINER_LITERALS} allowed`);
  }
  return compileLiterals(value, context, {message: 'must be equal to one of the allowed values', params: {allowedValues: value}}, (index) => '/' + index);
});

export const constKeyword = literalApplicator('const', (value, context) =>
  compileLiterals([value], context, {message: 'must be equal to the constant', params: {allowedValue: value}}, () => ''),
);
