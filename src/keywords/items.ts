// Array applicators: `prefixItems` and `items` (2020-12 core §10.3.1), the older `items` (schema or
// array) with `additionalItems` (draft 4 to 2019-09). Each item's run starts as the item starts,
// so a wrong item fails at that item (rules/members.ts). Evaluated indices are annotations for
// `unevaluatedItems`. Under `useDefaults` (ajv's option) a missing item gets the `default` of the
// array-form `items` subschema at its position; ajv reads no defaults from `prefixItems`.

import type {Amendments, KeywordContext} from '../schema/node.js';
import {itemApplicator, type Refusal, type Selected} from './rules/members.js';
import {expectSchema, isObject, isSchema} from './rules/expect.js';

/** Schemas by position (`prefixItems`, or `items` as an array), each as what it selects. */
type Positional = readonly (readonly Selected[])[];

/** One schema for every item from `from` on (items before belong to a positional keyword). */
interface Rest {
  readonly selected: readonly Selected[];
  readonly from: number;
  /** `false`: the first extra item fails, with a message that says so. */
  readonly forbidden: boolean;
}

function compilePositional(value: unknown, context: KeywordContext, name: string): Positional {
  if (!Array.isArray(value)) throw context.fail('must be an array of schemas');
  value.forEach((schema, index) => {
    if (!isSchema(schema)) throw context.fail('must be an array of schemas', '/' + index);
  });
  return value.map((schema, index) => [{node: context.subschema(schema, '/' + index), path: `/${name}/${index}`}]);
}

function compileRest(value: unknown, context: KeywordContext, name: string, from: number): Rest {
  expectSchema(value, context);
  return {selected: [{node: context.subschema(value, ''), path: '/' + name}], from, forbidden: value === false};
}

const selectPositional = (positional: Positional, index: number): readonly Selected[] | undefined => positional[index];
const selectRest = ({selected, from}: Rest, index: number): readonly Selected[] | undefined => (index >= from ? selected : undefined);
const refuseRest = ({forbidden, from}: Rest): Refusal | undefined => (forbidden ? {message: `must NOT have more than ${from} items`, params: {limit: from}} : undefined);

function positionalLength(value: unknown): number {
  return Array.isArray(value) ? value.length : 0;
}

/** 2020-12 `prefixItems`: the i-th schema applies to the i-th item. */
export const prefixItems = itemApplicator<Positional>({
  name: 'prefixItems',
  subschemas: 'schemaArray',
  compile: (value, context) => compilePositional(value, context, 'prefixItems'),
  select: selectPositional,
  selectsAlikeFrom: (positional) => positional.length,
});

/** 2020-12 `items`: one schema for every item after `prefixItems`. */
export const items = itemApplicator<Rest>({
  name: 'items',
  subschemas: 'schema',
  compile: (value, context) => compileRest(value, context, 'items', positionalLength(context.schema.prefixItems)),
  select: selectRest,
  selectsAlikeFrom: ({from}) => from,
  refuse: refuseRest,
});

/** Draft 4 to 2019-09 `items` as an array, with the `default` of each position's subschema under `useDefaults`. */
interface Tuple {
  readonly positional: Positional;
  /** By position; undefined where the subschema has none (or `useDefaults` is off). */
  readonly itemDefaults: readonly unknown[];
  readonly replacesEmpty: boolean;
}

function compileTuple(value: unknown[], context: KeywordContext): Tuple {
  const {useDefaults} = context.options;
  const itemDefaults = useDefaults === undefined || useDefaults === false ? [] : value.map((schema) => (isObject(schema) ? schema.default : undefined));
  return {positional: compilePositional(value, context, 'items'), itemDefaults, replacesEmpty: useDefaults === 'empty'};
}

function amendTuple(schemas: Tuple | Rest, amendments: Amendments): void {
  if ('from' in schemas) return;
  schemas.itemDefaults.forEach((value, index) => {
    if (value !== undefined) amendments.itemDefault(index, value, schemas.replacesEmpty);
  });
}

/** Draft 4 to 2019-09 `items`: a schema for every item, or an array of schemas by position. */
export const legacyItems = itemApplicator<Tuple | Rest>({
  name: 'items',
  subschemas: 'schemaOrSchemaArray',
  compile: (value, context) => (Array.isArray(value) ? compileTuple(value, context) : compileRest(value, context, 'items', 0)),
  select: (schemas, index) => ('from' in schemas ? selectRest(schemas, index) : selectPositional(schemas.positional, index)),
  selectsAlikeFrom: (schemas) => ('from' in schemas ? schemas.from : schemas.positional.length),
  amend: amendTuple,
  // A schema that is `false` fails every item, as its run does: no separate refusal (the message
  // of `additionalItems` would be wrong here).
});

/** Draft 4 to 2019-09 `additionalItems`: items past an `items` array. Ignored unless `items` is an array. */
export const additionalItems = itemApplicator<Rest>({
  name: 'additionalItems',
  subschemas: 'schema',
  compile: (value, context) => (Array.isArray(context.schema.items) ? compileRest(value, context, 'additionalItems', context.schema.items.length) : (expectSchema(value, context), undefined)),
  select: selectRest,
  selectsAlikeFrom: ({from}) => from,
  refuse: refuseRest,
});
