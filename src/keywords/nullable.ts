// `nullable` (OpenAPI 3.0's keyword, as ajv reads it; no JSON Schema draft gives it a meaning, so
// it acts only under the `nullable` option): `nullable: true` adds null to the types its sibling
// `type` lists, and does nothing else — `enum` and `const` still judge null as any value.
// ajv (lib/compile/validate/dataType.ts, getSchemaTypes) refuses it beside no `type`, and
// `nullable: false` beside a `type` that lists null.

import type {KeywordContext, KeywordDefinition} from '../schema/node.js';

/** The types `type` lists (`names`, as written), and null where a sibling `nullable: true` adds it. */
export function withNullable(names: readonly string[], context: KeywordContext): readonly string[] {
  if (context.options.nullable !== true || context.schema['nullable'] !== true || names.includes('null')) return names;
  return [...names, 'null'];
}

export const nullable: KeywordDefinition<never> = {
  name: 'nullable',
  compile(value, context) {
    if (typeof value !== 'boolean') throw context.fail('must be a boolean');
    const type = context.schema['type'];
    if (type === undefined) throw context.fail('cannot be used without "type"');
    const listsNull = type === 'null' || (Array.isArray(type) && type.includes('null'));
    if (listsNull && !value) throw context.fail('false contradicts "type", which lists null');
    // `type` compiles the widening (withNullable): its mask, coercion and checks all follow from it.
    return undefined;
  },
};
