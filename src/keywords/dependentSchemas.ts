// `dependentSchemas` (2019-09 core §9.2.2.4, 2020-12 §10.2.2.4): when the trigger property is
// present, its schema applies to the whole object, as `allOf` would. The trigger may arrive after
// other keys, so the schema runs from the object's start and counts once the trigger turns up
// (rules/conditions.ts).

import {compileDependentSchemas, dependentApplicator} from './rules/conditions.js';
import {expectSchemaMap} from './rules/expect.js';

export const dependentSchemas = dependentApplicator('dependentSchemas', 'schemaMap', (value, context) => {
  expectSchemaMap(value, context);
  const schemas = compileDependentSchemas(Object.entries(value), context, '/dependentSchemas');
  return schemas === undefined ? undefined : {requirements: undefined, schemas};
});
