// `dependencies` (draft 4 validation §5.4.5, until draft 7): one keyword for both dependency forms.
// An array value behaves as `dependentRequired`, a schema value as `dependentSchemas`; both are
// what applies when a property is present (rules/conditions.ts).

import {compileDependentRequired} from './dependentRequired.js';
import {compileDependentSchemas, dependentApplicator} from './rules/conditions.js';
import {isObject} from './rules/expect.js';

export const dependencies = dependentApplicator('dependencies', 'schemaOrStringArrayMap', (value, context) => {
  if (!isObject(value)) throw context.fail('must be an object whose values are schemas or arrays of strings');
  const entries = Object.entries(value);
  const requirements = compileDependentRequired(entries.filter(([, dependency]) => Array.isArray(dependency)), context);
  const schemas = compileDependentSchemas(entries.filter(([, dependency]) => !Array.isArray(dependency)), context, '/dependencies');
  return requirements === undefined && schemas === undefined ? undefined : {requirements, schemas};
});
