// `properties` (2020-12 core §10.3.2.1): each listed property's value must validate against its
// schema. Decided per key: the member's run starts as the key arrives.

import {escapePointerToken} from '../json/pointer.js';
import {requireMember} from './rules/members.js';
import type {KeywordDefinition, SchemaNode} from '../schema/node.js';
import {expectSchemaMap, isSchema} from './rules/expect.js';

export interface PropertySchema {
  readonly node: SchemaNode;
  readonly path: string;
}

export const properties: KeywordDefinition<ReadonlyMap<string, PropertySchema>> = {
  name: 'properties',
  subschemas: 'schemaMap',
  compile(value, context) {
    expectSchemaMap(value, context);
    const map = new Map<string, PropertySchema>();
    for (const [name, schema] of Object.entries(value)) {
      const path = '/' + escapePointerToken(name);
      if (!isSchema(schema)) throw context.fail('must be an object whose values are schemas', path);
      map.set(name, {node: context.subschema(schema, path), path: '/properties' + path});
    }
    return map;
  },
  classify: (keyword, name) => keyword.value.get(name),
  outline(keyword, outline) {
    outline.members((name) => {
      const property = keyword.value.get(name);
      return property === undefined ? undefined : [property.node];
    });
  },
  key(run, keyword, name, property: PropertySchema) {
    run.evaluatedProperties?.add(name);
    run.applyToMember(property.node, keyword, 0, property.path);
  },
  result: requireMember,
  ignoresPassingMembers: true,
};
