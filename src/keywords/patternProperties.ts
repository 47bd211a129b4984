// `patternProperties` (2020-12 core §10.3.2.2): every property whose name matches a pattern
// (ECMA-262, unanchored) must validate against that pattern's schema.

import {escapePointerToken} from '../json/pointer.js';
import {requireMember} from './rules/members.js';
import type {KeywordDefinition, SchemaNode} from '../schema/node.js';
import {compilePattern, expectSchemaMap, isSchema} from './rules/expect.js';

export interface PatternSchema {
  readonly pattern: RegExp;
  readonly node: SchemaNode;
  readonly path: string;
}

export const patternProperties: KeywordDefinition<readonly PatternSchema[]> = {
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
  classify(keyword, name) {
    const matching = keyword.value.filter((entry) => entry.pattern.test(name));
    return matching.length === 0 ? undefined : matching;
  },
  outline(keyword, outline) {
    outline.members((name) => (patternProperties.classify!(keyword, name) as readonly PatternSchema[] | undefined)?.map((entry) => entry.node));
  },
  key(run, keyword, name, matching: readonly PatternSchema[]) {
    run.evaluatedProperties?.add(name);
    for (let i = 0; i < matching.length; i++) {
      run.applyToMember(matching[i].node, keyword, i, matching[i].path);
      if (run.settled) return;
    }
  },
  result: requireMember,
  ignoresPassingMembers: true,
};
