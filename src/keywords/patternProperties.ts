// `patternProperties` (2020-12 core §10.3.2.2): every property whose name matches a pattern
// (ECMA-262, unanchored) must validate against that pattern's schema. A name may match several;
// the regexes run once per distinct name (rules/members.ts, key plans).

import {escapePointerToken} from '../json/pointer.js';
import type {SchemaNode} from '../schema/node.js';
import {propertyApplicator} from './rules/members.js';
import {compilePattern, expectSchemaMap, isSchema} from './rules/expect.js';

export interface PatternSchema {
  readonly pattern: RegExp;
  readonly node: SchemaNode;
  readonly path: string;
}

export const patternProperties = propertyApplicator<readonly PatternSchema[]>({
  name: 'patternProperties',
  subschemas: 'schemaMap',
  compile(value, context) {
    expectSchemaMap(value, context);
    return Object.entries(value).map(([source, schema]) => {
      const path = '/' + escapePointerToken(source);
      if (!isSchema(schema)) throw context.fail('must be an object whose values are schemas', path);
      return {pattern: compilePattern(source, context, path), node: context.subschema(schema, path), path: '/patternProperties' + path};
    });
  },
  select: (patterns, name, match) => patterns.filter((entry) => match(entry.pattern, name)),
});
