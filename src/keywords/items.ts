// Array applicators: `prefixItems` and `items` (2020-12 core §10.3.1), the older `items` (schema or
// array) with `additionalItems` (draft 4 to 2019-09). Each item's run starts as the item starts,
// so a wrong item fails at that item. Evaluated indices are annotations for `unevaluatedItems`.

import type {KeywordDefinition, Outline, SchemaNode} from '../schema/node.js';
import {requireMember} from './rules/members.js';
import {expectSchema, isSchema} from './rules/expect.js';

interface ItemSchemas {
  /** Schemas by position (`prefixItems`, or `items` as an array). */
  readonly positional: readonly SchemaNode[];
  readonly paths: readonly string[];
}

function compilePositional(value: unknown, context: Parameters<KeywordDefinition['compile']>[1], name: string): ItemSchemas {
  if (!Array.isArray(value)) throw context.fail('must be an array of schemas');
  value.forEach((schema, index) => {
    if (!isSchema(schema)) throw context.fail('must be an array of schemas', '/' + index);
  });
  return {
    positional: value.map((schema, index) => context.subschema(schema, '/' + index)),
    paths: value.map((_, index) => `/${name}/${index}`),
  };
}

/** The text checker's terms (KeywordDefinition.outline): the i-th schema applies to the i-th item. */
function outlinePositional(value: ItemSchemas, outline: Outline): void {
  const nodes = value.positional.map((node) => [node]);
  outline.items((index) => nodes[index]);
}

/** The text checker's terms: the schema applies to every item from `from` on (`false`: there is none). */
function outlineRest(value: RestItems, outline: Outline): void {
  const nodes = [value.node];
  outline.items((index) => (index >= value.from ? nodes : undefined));
}

/** 2020-12 `prefixItems`: the i-th schema applies to the i-th item. */
export const prefixItems: KeywordDefinition<ItemSchemas> = {
  name: 'prefixItems',
  subschemas: 'schemaArray',
  compile: (value, context) => compilePositional(value, context, 'prefixItems'),
  outline: (keyword, outline) => outlinePositional(keyword.value, outline),
  item(run, keyword, index) {
    const node = keyword.value.positional[index];
    if (node === undefined) return;
    run.evaluatedItems?.add(index);
    run.applyToMember(node, keyword, index, keyword.value.paths[index]);
  },
  result: requireMember,
  ignoresPassingMembers: true,
};

interface RestItems {
  readonly node: SchemaNode;
  /** Items before this index belong to `prefixItems` / the `items` array. */
  readonly from: number;
  readonly path: string;
  /** `false`: the first extra item fails, with a message that says so. */
  readonly forbidden: boolean;
}

function positionalLength(value: unknown): number {
  return Array.isArray(value) ? value.length : 0;
}

function restItem(run: Parameters<NonNullable<KeywordDefinition['item']>>[0], keyword: Parameters<NonNullable<KeywordDefinition<RestItems>['item']>>[1], index: number): void {
  const {node, from, path, forbidden} = keyword.value;
  if (index < from) return;
  if (forbidden) {
    run.fail(keyword, `must NOT have more than ${from} items`, {limit: from}, String(index));
    return;
  }
  run.evaluatedItems?.add(index);
  run.applyToMember(node, keyword, index, path);
}

/** 2020-12 `items`: one schema for every item after `prefixItems`. */
export const items: KeywordDefinition<RestItems> = {
  name: 'items',
  subschemas: 'schema',
  compile(value, context) {
    expectSchema(value, context);
    return {node: context.subschema(value, ''), from: positionalLength(context.schema.prefixItems), path: '/items', forbidden: value === false};
  },
  outline: (keyword, outline) => outlineRest(keyword.value, outline),
  item: restItem,
  result: requireMember,
  ignoresPassingMembers: true,
};

/** Draft 4 to 2019-09 `items`: a schema for every item, or an array of schemas by position. */
export const legacyItems: KeywordDefinition<ItemSchemas | RestItems> = {
  name: 'items',
  subschemas: 'schemaOrSchemaArray',
  compile(value, context) {
    if (Array.isArray(value)) return compilePositional(value, context, 'items');
    expectSchema(value, context);
    return {node: context.subschema(value, ''), from: 0, path: '/items', forbidden: false};
  },
  outline(keyword, outline) {
    const schemas = keyword.value;
    if ('positional' in schemas) outlinePositional(schemas, outline);
    else outlineRest(schemas, outline);
  },
  item(run, keyword, index) {
    if ('positional' in keyword.value) prefixItems.item!(run, keyword as never, index);
    else restItem(run, keyword as never, index);
  },
  result: requireMember,
  ignoresPassingMembers: true,
};

/** Draft 4 to 2019-09 `additionalItems`: items past an `items` array. Ignored unless `items` is an array. */
export const additionalItems: KeywordDefinition<RestItems> = {
  name: 'additionalItems',
  subschemas: 'schema',
  compile(value, context) {
    expectSchema(value, context);
    if (!Array.isArray(context.schema.items)) return undefined;
    return {node: context.subschema(value, ''), from: context.schema.items.length, path: '/additionalItems', forbidden: value === false};
  },
  outline: (keyword, outline) => outlineRest(keyword.value, outline),
  item: restItem,
  result: requireMember,
  ignoresPassingMembers: true,
};
