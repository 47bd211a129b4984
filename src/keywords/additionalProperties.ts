// `additionalProperties` (2020-12 core §10.3.2.3): properties matched by neither `properties` nor
// `patternProperties` of the same schema object must validate against it. It sees only its own
// siblings, so names declared in `allOf` subschemas are "additional" here.

import {requireMember} from './rules/members.js';
import type {KeywordDefinition, SchemaNode} from '../schema/node.js';
import {compilePattern, expectSchema, isObject} from './rules/expect.js';

interface AdditionalProperties {
  readonly node: SchemaNode;
  /** `additionalProperties: false`: fail at the key with a message that names it. */
  readonly forbidden: boolean;
  readonly declared: ReadonlySet<string>;
  readonly patterns: readonly RegExp[];
}

export const additionalProperties: KeywordDefinition<AdditionalProperties> = {
  name: 'additionalProperties',
  subschemas: 'schema',
  compile(value, context) {
    expectSchema(value, context);
    const siblings = context.schema;
    const declared = new Set(isObject(siblings.properties) ? Object.keys(siblings.properties) : []);
    const patterns = isObject(siblings.patternProperties)
      ? Object.keys(siblings.patternProperties).map((source) => compilePattern(source, context))
      : [];
    return {node: context.subschema(value, ''), forbidden: value === false, declared, patterns};
  },
  classify(keyword, name) {
    const {declared, patterns} = keyword.value;
    if (declared.has(name) || patterns.some((pattern) => pattern.test(name))) return undefined;
    return true;
  },
  outline(keyword, outline) {
    const nodes = [keyword.value.node];
    outline.members((name) => (additionalProperties.classify!(keyword, name) === undefined ? undefined : nodes));
  },
  key(run, keyword, name) {
    if (keyword.value.forbidden) {
      run.fail(keyword, `must NOT have additional property "${name}"`, {additionalProperty: name}, name);
      return;
    }
    run.evaluatedProperties?.add(name);
    run.applyToMember(keyword.value.node, keyword, 0, '/additionalProperties');
  },
  result: requireMember,
  ignoresPassingMembers: true,
};
