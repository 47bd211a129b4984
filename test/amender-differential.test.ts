// Differential property test of the value options (`coerceTypes`, `useDefaults`,
// `removeAdditional`, src/engine/amender.ts) against ajv with the same options: over generated
// schemas and documents, the same verdict and, for a valid document, the same resulting value, in
// every mode — `validate` (the value changed in place, and `Result.value`), `parseText`, a session
// with `parse` fed in generated chunks — and the same verdict from `validateText` and a session
// without `parse`.
//
// The schemas are those where ajv's answer does not depend on the order in which it happens to run
// its keywords over a value it is changing (the differences by design are named in
// test/amender.test.ts): no `anyOf`/`oneOf`/`not`/`if`/`dependentSchemas`/`contains`/`unevaluated*`
// (ajv changes the value inside a branch it merely tries); in-place subschemas (`allOf`) that judge
// scalars only and carry no `type` (ajv judges them before or after a sibling coerces); no `enum`
// or `const` on containers and no `uniqueItems` (ajv judges them before the members are coerced);
// under `removeAdditional`, no property counts, `propertyNames` or required undeclared names (ajv
// judges those before it removes). `$ref`s point forward through `$defs`, so defaults cannot nest
// without end. Strings that coerce to a number that is not finite are left out (not coerced here:
// a JSON number cannot be Infinity).
//
// Fixed seed and bounded runs in `npm test`; FUZZ=1 runs many more.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import fc from 'fast-check';
import {Ajv} from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import {compile} from '../src/index.js';
import type {CompileOptions, Validator} from '../src/types.js';
import {chunk, chunkingArbitrary, type Chunking} from './support/arbitraries.js';
import {property} from './support/property.js';

type Json = null | boolean | number | string | Json[] | {[key: string]: Json};
type Fragment = Record<string, unknown>;
type Draft = 'draft7' | 'draft2020-12';

/**
 * Names and patterns shared by schemas and documents, so documents reach what schemas say. No
 * pattern matches a name `properties` lists, nor two patterns one name: where two subschemas of
 * different types apply to one member, ajv judges each on the value as the one before left it.
 */
const declaredNames = ['a', 'n', 'c'];
const patternNames = ['b', 'x-1', '1'];
const names = [...declaredNames, ...patternNames];
const patterns = ['^x-', 'b$', '^[0-9]+$'];
/** Scalars, with the strings ajv's table coerces (and some it does not). */
const scalars: Json[] = [
  0, 1, -1, 5, 1.5, 1e21, true, false, null,
  '5', '1.5', '-3', '0', '1', 'true', 'false', '', ' ', '0x1F', '1e3', 'abc', 'null', 'x-1',
];
const types = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'];
const DEFS = 3;

interface ValueOptions {
  coerceTypes?: boolean | 'array';
  useDefaults?: boolean | 'empty';
  removeAdditional?: boolean | 'all' | 'failing';
}

const optionsArbitrary: fc.Arbitrary<ValueOptions> = fc
  .record({
    coerceTypes: fc.constantFrom(undefined, true, 'array' as const),
    useDefaults: fc.constantFrom(undefined, true, 'empty' as const),
    removeAdditional: fc.constantFrom(undefined, true, 'all' as const, 'failing' as const),
  })
  .filter((options) => Object.values(options).some((value) => value !== undefined))
  .map((options) => Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as ValueOptions);

const scalar = fc.constantFrom(...scalars);
const defaultValue: fc.Arbitrary<Json> = fc.oneof(
  {weight: 4, arbitrary: scalar},
  {weight: 1, arbitrary: fc.array(scalar, {maxLength: 2})},
  {weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...names), scalar, {maxKeys: 2})},
);

function withoutUndefined(fragment: Fragment): Fragment {
  return Object.fromEntries(Object.entries(fragment).filter(([, value]) => value !== undefined));
}

/**
 * Keywords that judge scalars only: what an `allOf` subschema may hold here. No `multipleOf`: ajv
 * decides it with parseInt, which reads 2e21 as 2.
 */
function scalarKeywords(): fc.Arbitrary<Fragment> {
  return fc.record(
    {
      minimum: fc.constantFrom(-1, 0, 2, 5),
      maximum: fc.constantFrom(0, 1, 5, 10),
      minLength: fc.constantFrom(0, 1, 2),
      maxLength: fc.constantFrom(0, 1, 3),
      pattern: fc.constantFrom('^[0-9]', 'a', '^$'),
      enum: fc.uniqueArray(scalar, {minLength: 1, maxLength: 4}),
    },
    {requiredKeys: []},
  ).map((fragment) => {
    const kept = Object.entries(fragment).slice(0, 2);
    return Object.fromEntries(kept);
  });
}

const scalarTypes = ['string', 'number', 'integer', 'boolean', 'null'];

/** Values of each type, for defaults a schema of that type takes. */
const typedValues: Readonly<Record<string, readonly Json[]>> = {
  integer: [0, 5], number: [1.5, 5], string: ['a', ''], boolean: [true, false], null: [null], object: [{}, {a: 1}], array: [[], [1]],
};

/** A default for `schema`: often of its (first) type, so that documents given it can be valid. */
function defaultFor(schema: Fragment): fc.Arbitrary<Json> {
  const type = Array.isArray(schema.type) ? (schema.type[0] as string) : (schema.type as string | undefined);
  const typed = type === undefined ? undefined : typedValues[type];
  return typed === undefined ? defaultValue : fc.oneof(fc.constantFrom(...typed), defaultValue);
}

/** Present `present` times for each `absent` times absent. */
function sometimes<T>(arbitrary: fc.Arbitrary<T>, present: number, absent: number): fc.Arbitrary<T | undefined> {
  return fc.oneof({weight: present, arbitrary}, {weight: absent, arbitrary: fc.constant(undefined)});
}

/** `type` for a schema of `kind`: the kind alone, with another type (either order), or absent. */
function typeFor(kind: 'object' | 'array'): fc.Arbitrary<string | string[] | undefined> {
  return fc.oneof(
    {weight: 4, arbitrary: fc.constant(kind)},
    {weight: 2, arbitrary: fc.tuple(fc.constantFrom(...scalarTypes), fc.boolean()).map(([other, first]) => (first ? [other, kind] : [kind, other]))},
    {weight: 1, arbitrary: fc.constant(undefined)},
  );
}

const scalarType: fc.Arbitrary<string | string[]> = fc.oneof(
  {weight: 3, arbitrary: fc.constantFrom(...scalarTypes)},
  {weight: 2, arbitrary: fc.uniqueArray(fc.constantFrom(...types), {minLength: 2, maxLength: 3})},
);

/** A schema object, `depth` levels from the bottom; `refs`: the `$defs` it may point at. */
function nodeArbitrary(draft: Draft, options: ValueOptions, depth: number, refs: readonly number[]): fc.Arbitrary<Fragment> {
  const removes = options.removeAdditional !== undefined;
  const scalarNode = fc
    .record({type: scalarType, scalars: sometimes(scalarKeywords(), 1, 2), allOf: sometimes(fc.array(scalarKeywords(), {minLength: 1, maxLength: 2}), 1, 5)})
    .map(({type, scalars: scalarPart, allOf}) => withoutUndefined({type, ...scalarPart, allOf}));
  if (depth === 0) return scalarNode;
  const sub = nodeArbitrary(draft, options, depth - 1, refs);
  const withDefault = sub.chain((schema) => fc.option(defaultFor(schema), {nil: undefined, freq: 2}).map((value) => (value === undefined ? schema : {...schema, default: value})));
  const name = fc.constantFrom(...declaredNames);
  const objectNode = fc
    .record({
      type: typeFor('object'),
      properties: sometimes(fc.uniqueArray(fc.tuple(name, withDefault), {minLength: 1, maxLength: 3, selector: ([key]) => key}).map((entries) => Object.fromEntries(entries)), 5, 1),
      patternProperties: sometimes(fc.uniqueArray(fc.tuple(fc.constantFrom(...patterns), sub), {minLength: 1, maxLength: 2, selector: ([key]) => key}).map((entries) => Object.fromEntries(entries)), 1, 2),
      additionalProperties: sometimes(fc.oneof(fc.constant(false), fc.constant(true), sub), 2, 1),
      required: sometimes(fc.uniqueArray(fc.constantFrom(...names), {minLength: 1, maxLength: 2}), 1, 3),
      minProperties: removes ? fc.constant(undefined) : sometimes(fc.constantFrom(1, 2), 1, 7),
      maxProperties: removes ? fc.constant(undefined) : sometimes(fc.constantFrom(1, 2), 1, 7),
    })
    .map((fragment) => {
      const schema = withoutUndefined(fragment);
      // Under removeAdditional, ajv checks `required` before it removes: only declared names here.
      if (removes && Array.isArray(schema.required)) {
        const declared = Object.keys((schema.properties as Fragment | undefined) ?? {});
        schema.required = (schema.required as string[]).filter((each) => declared.includes(each));
        if ((schema.required as string[]).length === 0) delete schema.required;
      }
      return schema;
    });
  const tuple = fc.array(sub, {minLength: 1, maxLength: 3}).chain((schemas) =>
    fc.boolean().chain((defaults) => (defaults ? fc.array(defaultValue, {minLength: schemas.length, maxLength: schemas.length}).map((values) => schemas.map((schema, index) => ({...schema, default: values[index]}))) : fc.constant(schemas))),
  );
  const counts = {minItems: sometimes(fc.constantFrom(1, 2), 1, 7), maxItems: sometimes(fc.constantFrom(1, 2), 1, 7)};
  const arrayNode = (
    draft === 'draft7'
      ? fc.record({type: typeFor('array'), items: sometimes(fc.oneof(sub, tuple), 5, 1), additionalItems: sometimes(fc.oneof(fc.constant(false), sub), 1, 2), ...counts})
      : fc.record({type: typeFor('array'), prefixItems: sometimes(fc.array(sub, {minLength: 1, maxLength: 2}), 1, 2), items: sometimes(fc.oneof(fc.constant(false), sub), 2, 1), ...counts})
  ).map((fragment) => withoutUndefined(fragment as Fragment));
  const choices = [
    {weight: 4, arbitrary: objectNode},
    {weight: 2, arbitrary: arrayNode},
    {weight: 3, arbitrary: scalarNode},
  ];
  if (refs.length > 0) choices.push({weight: 1, arbitrary: fc.constantFrom(...refs).map((index) => ({$ref: `#/$defs/d${index}`}))});
  return fc.oneof(...choices);
}

interface Case {
  readonly draft: Draft;
  readonly options: ValueOptions;
  readonly schema: Fragment;
}

const caseArbitrary: fc.Arbitrary<Case> = fc
  .record({draft: fc.constantFrom<Draft>('draft7', 'draft2020-12'), options: optionsArbitrary})
  .chain(({draft, options}) => {
    // d2 refers to nothing, d1 to d2, d0 to d1 and d2, the root to any: no cycle.
    const defs = [2, 1, 0].map((index) => nodeArbitrary(draft, options, 1, Array.from({length: DEFS - 1 - index}, (_, k) => index + 1 + k)));
    return fc.record({
      root: nodeArbitrary(draft, options, 2, [0, 1, 2]),
      d2: defs[0]!,
      d1: defs[1]!,
      d0: defs[2]!,
    }).map(({root, d0, d1, d2}) => ({draft, options, schema: {...root, $defs: {d0, d1, d2}}}));
  });

/** Documents built from the same names and scalars, one to three levels deep. */
const anyDocument: fc.Arbitrary<Json> = fc.letrec<{value: Json}>((tie) => ({
  value: fc.oneof(
    {depthSize: 'small', withCrossShrink: true},
    {weight: 3, arbitrary: scalar},
    {weight: 2, arbitrary: fc.dictionary(fc.constantFrom(...names), tie('value'), {maxKeys: 4})},
    {weight: 2, arbitrary: fc.array(tie('value'), {maxLength: 3})},
  ),
})).value;

/** Per type: values of it, and values ajv's table may turn into it (or may not). */
const aimedScalars: Readonly<Record<string, readonly Json[]>> = {
  integer: [5, 0, 1.5, '5', '-3', '1.5', '1e3', ' ', 'abc', true, false, null, ['5'], [7], ['x', 'y']],
  number: [5, 1.5, '1.5', '0x1F', '', 'abc', true, null, ['1.5'], []],
  string: ['a', '', 'x-1', 5, 1.5, 1e21, true, false, null, ['a'], [5]],
  boolean: [true, false, 'true', 'false', 'TRUE', 0, 1, 2, null, [true], ['false']],
  null: [null, '', 0, false, 'null', 1, [null], ['']],
};

/** A document aimed at `schema`: its names, its types, and values one coercion away from them. */
function aimedDocument(schema: unknown, defs: Readonly<Record<string, Fragment>>, depth: number): fc.Arbitrary<Json> {
  if (typeof schema !== 'object' || schema === null) return depth === 0 ? scalar : anyDocument;
  let node = schema as Fragment;
  if (typeof node.$ref === 'string') node = defs[node.$ref.slice('#/$defs/'.length)] ?? {};
  const listed = node.type === undefined ? [] : Array.isArray(node.type) ? (node.type as string[]) : [node.type as string];
  const choices: fc.Arbitrary<Json>[] = [scalar];
  for (const type of listed) if (aimedScalars[type] !== undefined) choices.push(fc.constantFrom(...aimedScalars[type]!));
  if (depth > 0 && (listed.length === 0 || listed.includes('object'))) choices.push(aimedObject(node, defs, depth - 1));
  if (depth > 0 && (listed.length === 0 || listed.includes('array'))) choices.push(aimedArray(node, defs, depth - 1));
  return fc.oneof(...choices);
}

function aimedObject(node: Fragment, defs: Readonly<Record<string, Fragment>>, depth: number): fc.Arbitrary<Json> {
  const properties = (node.properties as Record<string, unknown> | undefined) ?? {};
  const patternSchemas = Object.values((node.patternProperties as Record<string, unknown> | undefined) ?? {});
  const member = (name: string): fc.Arbitrary<Json> => {
    const schema = properties[name] ?? (patterns.some((source) => new RegExp(source, 'u').test(name)) ? patternSchemas[0] : node.additionalProperties);
    // null and "" for `useDefaults: 'empty'`.
    return fc.oneof({weight: 4, arbitrary: aimedDocument(schema, defs, depth)}, {weight: 1, arbitrary: fc.constantFrom<Json>(null, '')});
  };
  const candidates = [...new Set([...Object.keys(properties), ...names])];
  return fc.subarray(candidates, {maxLength: 4}).chain((chosen) => fc.tuple(...chosen.map(member)).map((values) => Object.fromEntries(chosen.map((name, index) => [name, values[index]!]))));
}

function aimedArray(node: Fragment, defs: Readonly<Record<string, Fragment>>, depth: number): fc.Arbitrary<Json> {
  const positional = (Array.isArray(node.prefixItems) ? node.prefixItems : Array.isArray(node.items) ? node.items : []) as unknown[];
  const rest = Array.isArray(node.items) ? node.additionalItems : node.items;
  const item = (index: number): fc.Arbitrary<Json> =>
    fc.oneof({weight: 4, arbitrary: aimedDocument(index < positional.length ? positional[index] : rest, defs, depth)}, {weight: 1, arbitrary: fc.constantFrom<Json>(null, '')});
  return fc.integer({min: 0, max: 3}).chain((length) => (length === 0 ? fc.constant([]) : fc.tuple(...Array.from({length}, (_, index) => item(index)))));
}

function documentsFor(testCase: Case): fc.Arbitrary<[Json, Chunking][]> {
  const defs = testCase.schema.$defs as Record<string, Fragment>;
  const document = fc.oneof({weight: 5, arbitrary: aimedDocument(testCase.schema, defs, 3)}, {weight: 1, arbitrary: anyDocument});
  return fc.array(fc.tuple(document, chunkingArbitrary), {minLength: 1, maxLength: 12});
}

// ---------------------------------------------------------------------------------------------
// ajv with the same options

type AjvValidate = ((data: unknown, context?: object) => boolean) & {errors?: unknown};
type AjvInstance = {compile(schema: object): AjvValidate; removeSchema(schema: object): void};

/** One ajv per draft and options: making one compiles its meta-schemas, ten times a schema's cost. */
const ajvs = new Map<string, AjvInstance>();

function ajvFor({draft, options}: Case): AjvInstance {
  const key = draft + JSON.stringify(options);
  let ajv = ajvs.get(key);
  if (ajv === undefined) {
    const settings = {...options, strict: false, allErrors: false, validateFormats: false};
    ajv = (draft === 'draft2020-12' ? new Ajv2020.default(settings) : new Ajv(settings)) as unknown as AjvInstance;
    ajvs.set(key, ajv);
  }
  return ajv;
}

/** ajv's verdict and the value it leaves (its root value through a holder, where a coercion lands). */
function ajvOutcome(validate: AjvValidate, document: Json): {valid: boolean; value: unknown} {
  const holder = {value: structuredClone(document)};
  const valid = validate(holder.value, {instancePath: '', parentData: holder, parentDataProperty: 'value', rootData: holder, dynamicAnchors: {}});
  return {valid, value: holder.value};
}

// ---------------------------------------------------------------------------------------------
// Every mode of ours

function session(validator: Validator, bytes: Uint8Array, chunking: Chunking, parse: boolean): {valid: boolean; value: unknown} {
  const running = validator.session({parse});
  for (const piece of chunk(bytes, chunking)) running.write(piece);
  const result = running.end();
  return {valid: result.valid, value: result.value};
}

function describeCase(testCase: Case, document: Json): string {
  return `options ${JSON.stringify(testCase.options)} (${testCase.draft})\nschema ${JSON.stringify(testCase.schema)}\ndocument ${JSON.stringify(document)}`;
}

function compare(testCase: Case, document: Json, chunking: Chunking, validators: {ours: Validator; ajv: AjvValidate}): void {
  const {ours, ajv} = validators;
  const expected = ajvOutcome(ajv, document);
  const context = (mode: string): string => `${mode} differs from ajv (ajv: ${expected.valid ? 'valid, ' + JSON.stringify(expected.value) : 'invalid'})\n${describeCase(testCase, document)}`;
  const text = JSON.stringify(document);
  const bytes = new TextEncoder().encode(text);

  const given = structuredClone(document);
  const validated = ours.validate(given);
  assert.equal(validated.valid, expected.valid, context('validate'));
  assert.equal(ours.validateText(text).valid, expected.valid, context('validateText'));
  const parsed = ours.parseText(text);
  assert.equal(parsed.valid, expected.valid, context('parseText'));
  assert.equal(session(ours, bytes, chunking, false).valid, expected.valid, context('session'));
  const streamed = session(ours, bytes, chunking, true);
  assert.equal(streamed.valid, expected.valid, context('session with parse'));
  if (!expected.valid) return;
  sameValue(validated.value, expected.value, context('validate: Result.value'));
  // In place: the caller's value itself, where the root stays an object or an array.
  if (typeof given === 'object' && given !== null && validated.value === given) sameValue(given, expected.value, context('validate: in place'));
  sameValue(parsed.value, expected.value, context('parseText: value'));
  sameValue(streamed.value, expected.value, context('session with parse: value'));
}

/** Equal values, with their keys in the same order (a default comes after the keys sent, in ajv's order). */
function sameValue(actual: unknown, expected: unknown, message: string): void {
  assert.deepEqual(actual, expected, message);
  assert.equal(JSON.stringify(actual), JSON.stringify(expected), message);
}

describe('value options against ajv with the same options', () => {
  test('same verdict in every mode, and the same value from validate, parseText and a parsing session', () => {
    fc.assert(
      fc.property(caseArbitrary.chain((testCase) => fc.tuple(fc.constant(testCase), documentsFor(testCase))), ([testCase, documents]) => {
        const ajv = ajvFor(testCase);
        const validate = ajv.compile(testCase.schema);
        const ours = compile(testCase.schema, {draft: testCase.draft, ...testCase.options} as CompileOptions);
        try {
          for (const [document, chunking] of documents) compare(testCase, document, chunking, {ours, ajv: validate});
        } finally {
          ajv.removeSchema(testCase.schema);
        }
      }),
      property(300),
    );
  });
});
