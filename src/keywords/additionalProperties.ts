// `additionalProperties` (2020-12 core §10.3.2.3): properties matched by neither `properties` nor
// `patternProperties` of the same schema object must validate against it. It sees only its own
// siblings, so names declared in `allOf` subschemas are "additional" here. `false` fails at the
// key, with a message that names it.

import {propertyApplicator, type Selected} from './rules/members.js';
import {compilePattern, expectSchema, isObject} from './rules/expect.js';

interface AdditionalProperties {
  readonly selected: readonly Selected[];
  readonly forbidden: boolean;
  readonly declared: ReadonlySet<string>;
  readonly patterns: readonly RegExp[];
}

export const additionalProperties = propertyApplicator<AdditionalProperties>({
  name: 'additionalProperties',
  subschemas: 'schema',
  compile(value, context) {
    expectSchema(value, context);
    const siblings = context.schema;
    const declared = new Set(isObject(siblings.properties) ? Object.keys(siblings.properties) : []);
    const patterns = isObject(siblings.patternProperties)
      ? Object.keys(siblings.patternProperties).map((source) => compilePattern(source, context))
      : [];
    return {selected: [{node: context.subschema(value, ''), path: '/additionalProperties'}], forbidden: value === false, declared, patterns};
  },
  select({selected, declared, patterns}, name, match) {
    return declared.has(name) || patterns.some((pattern) => match(pattern, name)) ? undefined : selected;
  },
  refuse: ({forbidden}, name) => (forbidden ? {message: `must NOT have additional property "${name}"`, params: {additionalProperty: name}} : undefined),
});
