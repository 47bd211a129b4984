// `properties` (2020-12 core §10.3.2.1): each listed property's value must validate against its
// schema. Decided per key: the member's run starts as the key arrives (rules/members.ts).

import {escapePointerToken} from '../json/pointer.js';
import {propertyApplicator, type Selected} from './rules/members.js';
import {expectSchemaMap, isSchema} from './rules/expect.js';

/** Per listed name, its subschema (one entry, made once: a key selects it without allocating). */
type Listed = ReadonlyMap<string, readonly Selected[]>;

export const properties = propertyApplicator<Listed>({
  name: 'properties',
  subschemas: 'schemaMap',
  compile(value, context) {
    expectSchemaMap(value, context);
    const map = new Map<string, readonly Selected[]>();
    for (const [name, schema] of Object.entries(value)) {
      const path = '/' + escapePointerToken(name);
      if (!isSchema(schema)) throw context.fail('must be an object whose values are schemas', path);
      map.set(name, [{node: context.subschema(schema, path), path: '/properties' + path}]);
    }
    return map;
  },
  select: (listed, name) => listed.get(name),
});
