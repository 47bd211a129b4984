// `properties` (2020-12 core §10.3.2.1): each listed property's value must validate against its
// schema. Decided per key: the member's run starts as the key arrives (rules/members.ts). Under
// `useDefaults` (ajv's option) a listed property that is missing gets its subschema's `default`;
// under `removeAdditional: 'all'` the properties it does not list are taken out even without an
// `additionalProperties` beside it, as ajv does.

import {escapePointerToken} from '../json/pointer.js';
import type {Removal} from '../schema/node.js';
import {additionalNames, propertyApplicator, type Selected} from './rules/members.js';
import {expectSchemaMap, isObject, isSchema} from './rules/expect.js';

interface Listed {
  /** Per listed name, its subschema (one entry, made once: a key selects it without allocating). */
  readonly selected: ReadonlyMap<string, readonly Selected[]>;
  /** Under `useDefaults`: the names whose subschema has a `default`, with it. */
  readonly defaults: ReadonlyMap<string, unknown>;
  readonly replacesEmpty: boolean;
  readonly removal: Removal | null;
}

export const properties = propertyApplicator<Listed>({
  name: 'properties',
  subschemas: 'schemaMap',
  compile(value, context) {
    expectSchemaMap(value, context);
    const selected = new Map<string, readonly Selected[]>();
    const defaults = new Map<string, unknown>();
    const {useDefaults, removeAdditional} = context.options;
    for (const [name, schema] of Object.entries(value)) {
      const path = '/' + escapePointerToken(name);
      if (!isSchema(schema)) throw context.fail('must be an object whose values are schemas', path);
      selected.set(name, [{node: context.subschema(schema, path), path: '/properties' + path}]);
      // ajv reads `default` off the subschema as written, whatever else it holds ($ref included).
      if (useDefaults !== undefined && useDefaults !== false && isObject(schema) && schema.default !== undefined) defaults.set(name, schema.default);
    }
    const removesAll = removeAdditional === 'all' && context.schema.additionalProperties === undefined;
    return {selected, defaults, replacesEmpty: useDefaults === 'empty', removal: removesAll ? {isAdditional: additionalNames(context), failing: null} : null};
  },
  select: (listed, name) => listed.selected.get(name),
  names: (listed) => listed.selected.keys(),
  amend({defaults, replacesEmpty, removal}, amendments) {
    for (const [name, value] of defaults) amendments.propertyDefault(name, value, replacesEmpty);
    if (removal !== null) amendments.remove(removal);
  },
});
