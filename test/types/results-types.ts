// Type-level test, compiled by `tsc -p tsconfig.types-test.json` (test/express.test.ts runs it).
// Nothing here runs: each line either type-checks or is marked @ts-expect-error.
//
// A validator compiled from an `as const` schema types every result it gives: `validate`,
// `parseText`, `validateText`, `session()`, the `is` guard and `~standard`.

import {compile} from '../../src/index.js';
import type {Result, StandardSchemaV1, Validator, ValueResult} from '../../src/types.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<T extends true>(): T | void {}
// What a Standard Schema consumer infers (the standard's InferInput and InferOutput).
type InputOf<V extends StandardSchemaV1> = NonNullable<V['~standard']['types']>['input'];
type OutputOf<V extends StandardSchemaV1> = NonNullable<V['~standard']['types']>['output'];

const userSchema = {
  type: 'object',
  properties: {
    name: {type: 'string'},
    age: {type: 'integer'},
    role: {enum: ['user', 'admin'], default: 'user'},
  },
  required: ['name'],
  additionalProperties: false,
} as const;

type User = {name: string; age?: number; role?: 'user' | 'admin'};
type UserWithDefaults = {name: string; age?: number; role: 'user' | 'admin'};

const users = compile(userSchema);

// ---- validate, parseText, validateText: a discriminated union on `valid` ----

const validated = users.validate(JSON.parse('{"name": "Ada"}'));
expectType<Equal<typeof validated, ValueResult<User>>>();
if (validated.valid) {
  expectType<Equal<typeof validated.value, User>>();
  const name: string = validated.value.name;
  // @ts-expect-error no such property in the schema
  void validated.value.email;
  void name;
} else {
  // An invalid result's value is not the schema's type.
  expectType<Equal<typeof validated.value, unknown>>();
  const where: string = validated.errors[0]!.instanceLocation;
  const never: false = validated.errors[0]!.valid;
  void where, never;
}
// @ts-expect-error the value is there only once `valid` says so
void validated.value.name;

const parsed = users.parseText('{"name": "Ada"}');
expectType<Equal<typeof parsed, ValueResult<User>>>();
if (parsed.valid) expectType<Equal<typeof parsed.value, User>>();

// validateText gives no value: the value is optional even when valid.
const checked = users.validateText('{"name": "Ada"}');
expectType<Equal<typeof checked, Result<User>>>();
if (checked.valid) {
  expectType<Equal<typeof checked.value, User | undefined>>();
  // @ts-expect-error possibly undefined
  void checked.value.name;
}

// ---- session(): the value when asked to parse ----

const parsing = users.session({parse: true});
parsing.write('{"name": "Ada"}');
const ended = parsing.end();
expectType<Equal<typeof ended, ValueResult<User>>>();
if (ended.valid) expectType<Equal<typeof ended.value.name, string>>();

const streaming = users.session();
const verdict = streaming.end();
expectType<Equal<typeof verdict, Result<User>>>();

// ---- the type guard ----

const body: unknown = JSON.parse('{"name": "Ada"}');
if (users.is(body)) {
  expectType<Equal<typeof body, User>>();
} else {
  // @ts-expect-error not narrowed
  void body.name;
}

// ---- defaults: optional in the input, present in the output with useDefaults ----

const filling = compile(userSchema, {useDefaults: true});
const filled = filling.validate(body);
if (filled.valid) {
  expectType<Equal<typeof filled.value, UserWithDefaults>>();
  const role: 'user' | 'admin' = filled.value.role;
  void role;
}
expectType<Equal<InputOf<typeof filling>, User>>();
expectType<Equal<OutputOf<typeof filling>, UserWithDefaults>>();

const emptyFilling = compile(userSchema, {useDefaults: 'empty'});
if (emptyFilling.is(body)) expectType<Equal<typeof body, UserWithDefaults>>();

// Without useDefaults, `default` fills nothing: the property may be absent.
const notFilled = users.parseText('{"name": "Ada"}');
if (notFilled.valid) {
  // @ts-expect-error role may be absent
  void notFilled.value.role.length;
}
// An option that may be off (a boolean, not `true`) promises nothing.
const maybe: boolean = Math.random() > 0.5;
const maybeFilling = compile(userSchema, {useDefaults: maybe});
expectType<Equal<OutputOf<typeof maybeFilling>, User>>();

// ---- Standard Schema ----

const standard: StandardSchemaV1<User, User> = users;
const outcome = users['~standard'].validate(body);
if (outcome.issues === undefined) expectType<Equal<typeof outcome.value, User>>();
else {
  const path: ReadonlyArray<string | number> = outcome.issues[0]!.path;
  void path;
}
void standard;

// ---- external $ref: resolved through `schemas`, never `never` ----

const addressSchema = {
  $id: 'https://example.com/address.json',
  type: 'object',
  properties: {city: {type: 'string'}, zip: {type: 'string'}},
  required: ['city'],
  additionalProperties: false,
} as const;

const orderSchema = {
  type: 'object',
  properties: {ship: {$ref: 'https://example.com/address.json'}, bill: {$ref: 'https://example.com/address.json'}},
  required: ['ship'],
  additionalProperties: false,
} as const;

type Address = {city: string; zip?: string};
type Order = {ship: Address; bill?: Address};

// Registered under its key.
const orders = compile(orderSchema, {schemas: {'https://example.com/address.json': addressSchema}});
expectType<Equal<OutputOf<typeof orders>, Order>>();
// Registered under another key, found by its own $id (as the validator finds it).
const byId = compile(orderSchema, {schemas: {'https://example.com/bundle.json': addressSchema}});
expectType<Equal<OutputOf<typeof byId>, Order>>();
// A relative reference, against the root's $id.
const relative = compile(
  {$id: 'https://example.com/order.json', type: 'object', properties: {ship: {$ref: 'address.json'}}, required: ['ship'], additionalProperties: false} as const,
  {schemas: {'https://example.com/address.json': addressSchema}},
);
expectType<Equal<OutputOf<typeof relative>, {ship: Address}>>();
// A pointer into a registered document.
const pointed = compile(
  {type: 'object', properties: {city: {$ref: 'https://example.com/address.json#/properties/city'}}, required: ['city'], additionalProperties: false} as const,
  {schemas: {'https://example.com/address.json': addressSchema}},
);
expectType<Equal<OutputOf<typeof pointed>, {city: string}>>();

// What the types cannot see is `unknown`, to be narrowed, never `never` (which would let any
// property access compile, or claim an optional property is always absent).
const unregistered = compile(orderSchema);
expectType<Equal<OutputOf<typeof unregistered>, unknown>>();
const notAsConst: Record<string, unknown> = {'https://example.com/address.json': addressSchema};
const wideSchemas = compile(orderSchema, {schemas: notAsConst});
expectType<Equal<OutputOf<typeof wideSchemas>, unknown>>();
// A registered document with references of its own: json-schema-to-ts would resolve them against the root.
const bundled = compile(orderSchema, {
  schemas: {'https://example.com/address.json': {type: 'object', properties: {city: {$ref: '#/$defs/name'}}, $defs: {name: {type: 'string'}}}},
});
expectType<Equal<OutputOf<typeof bundled>, unknown>>();
// A pointer to nothing.
const dangling = compile({type: 'object', properties: {a: {$ref: '#/$defs/missing'}}} as const);
expectType<Equal<OutputOf<typeof dangling>, unknown>>();

// ---- internal references ----

const withDefs = compile({type: 'object', properties: {n: {$ref: '#/$defs/count'}}, required: ['n'], $defs: {count: {type: 'integer'}}} as const);
expectType<Equal<OutputOf<typeof withDefs>, {[key: string]: unknown; n: number}>>();
// A recursive schema compiles (no TS2589) and types as unknown.
const tree = compile({type: 'object', properties: {children: {type: 'array', items: {$ref: '#'}}}} as const);
expectType<Equal<OutputOf<typeof tree>, unknown>>();
const mutual = compile({$defs: {a: {items: {$ref: '#/$defs/b'}}, b: {items: {$ref: '#/$defs/a'}}}, $ref: '#/$defs/a'} as const);
expectType<Equal<OutputOf<typeof mutual>, unknown>>();
// An $anchor reference: json-schema-to-ts would read it as the root.
const anchored = compile({type: 'object', properties: {n: {$ref: '#count'}}, $defs: {count: {$anchor: 'count', type: 'integer'}}} as const);
expectType<Equal<OutputOf<typeof anchored>, unknown>>();

// ---- schemas the types cannot read ----

const loaded: object = JSON.parse('{"type": "object"}');
const fromFile = compile(loaded);
expectType<Equal<typeof fromFile, Validator<unknown, unknown>>>();
const untyped: unknown = JSON.parse('true');
const fromUnknown = compile(untyped);
expectType<Equal<typeof fromUnknown, Validator>>();
const asAny = compile(JSON.parse('{}'));
expectType<Equal<OutputOf<typeof asAny>, unknown>>();

// A typed validator is still a Validator.
const plain: Validator = users;
void plain;

// ---- custom keywords and errorMessage: options, and keywords of one's own in the schema, keep the types ----

const evenNames = compile(
  {type: 'object', properties: {names: {type: 'array', items: {type: 'string'}, even: true}}, required: ['names'], errorMessage: {required: 'names, please'}} as const,
  {keywords: [{keyword: 'even', type: 'array', validate: (_schemaValue: boolean, data: unknown[]) => data.length % 2 === 0, message: 'an even number of names'}], errorMessages: true, useDefaults: true},
);
const evenResult = evenNames.validate(JSON.parse('{"names": []}'));
if (evenResult.valid) expectType<Equal<typeof evenResult.value, {names: string[]; [key: string]: unknown}>>();
// @ts-expect-error a keyword definition needs a validate function
compile({}, {keywords: [{keyword: 'even'}]});
// @ts-expect-error type names are JSON's
compile({}, {keywords: [{keyword: 'even', type: 'list', validate: () => true}]});

// ---- nullable: json-schema-to-ts reads `nullable: true` as ajv does, null joining the type ----

const notes = compile({type: 'object', properties: {note: {type: 'string', nullable: true}}, required: ['note'], additionalProperties: false} as const, {nullable: true});
const note = notes.parseText('{"note": null}');
if (note.valid) expectType<Equal<typeof note.value, {note: string | null}>>();
