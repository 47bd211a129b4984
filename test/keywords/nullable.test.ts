// src/keywords/nullable.ts: OpenAPI's `nullable` under the `nullable` option, as ajv reads it —
// null joins the types of the sibling `type`, and nothing else changes. Every verdict and value is
// checked in every mode (check.ts) and against ajv, which always knows the keyword.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {Ajv} from 'ajv';
import {compile} from '../../src/index.js';
import {amended, invalid, onlyError, schemaError, summary, valid} from './check.js';

const on = {nullable: true} as const;

/** ajv's verdict and the value it leaves, the root value reached through a holder (where a coercion lands). */
function ajvAmended(schema: object, value: unknown, options: object): {valid: boolean; value: unknown} {
  const validate = new Ajv({...options, strict: false}).compile(schema);
  const holder = {value: structuredClone(value)};
  const verdict = validate(holder.value, {instancePath: '', parentData: holder, parentDataProperty: 'value', rootData: holder, dynamicAnchors: {}});
  return {valid: verdict, value: holder.value};
}

describe('nullable', () => {
  test('nullable: true adds null to the types of type, in every mode', () => {
    valid({type: 'string', nullable: true}, null, on);
    valid({type: 'string', nullable: true}, 'x', on);
    invalid({type: 'string', nullable: true}, 1, on);
    valid({type: ['integer', 'boolean'], nullable: true}, null, on);
    valid({type: 'object', properties: {a: {type: 'number', nullable: true}}, nullable: true}, {a: null}, on);
    valid({type: 'object', nullable: true}, null, on);
    invalid({type: 'array', nullable: true}, {}, on);
  });

  test('nullable: false, and a type that lists null already, change nothing', () => {
    invalid({type: 'string', nullable: false}, null, on);
    valid({type: ['string', 'null'], nullable: true}, null, on);
  });

  test('enum and const still judge null as any value', () => {
    invalid({type: 'string', nullable: true, enum: ['a']}, null, on);
    valid({type: 'string', nullable: true, enum: ['a', null]}, null, on);
    invalid({type: 'string', nullable: true, const: 'a'}, null, on);
  });

  test("the error is type's, its params the type as written (ajv's)", () => {
    assert.deepEqual(summary(onlyError({type: 'string', nullable: true}, 1, on)), {
      keyword: 'type', keywordLocation: '/type', instanceLocation: '', params: {type: 'string'}, error: 'must be string or null',
    });
  });

  test('without the option it is an unknown keyword: ignored with a warning, refused when strict', () => {
    invalid({type: 'string', nullable: true}, null);
    assert.deepEqual(compile({type: 'string', nullable: true}).warnings.map((warning) => warning.keyword), ['nullable']);
    assert.equal(schemaError({type: 'string', nullable: true}, {strict: true}).code, 'schema.keyword.unknown');
    assert.deepEqual(compile({type: 'string', nullable: true}, on).warnings, []);
  });

  test('refused where ajv refuses it: without type, not a boolean, false beside a type that lists null', () => {
    for (const schema of [{nullable: true}, {nullable: false}, {enum: [null], nullable: true}, {type: 'string', nullable: 'true'}, {type: 'null', nullable: false}, {type: ['string', 'null'], nullable: false}]) {
      assert.throws(() => new Ajv().compile(schema), Error, JSON.stringify(schema));
      const error = schemaError({properties: {a: schema}}, on);
      assert.equal(error.schemaLocation, '/properties/a/nullable', JSON.stringify(schema));
    }
  });

  test('the option takes a boolean only, and a custom keyword cannot take the name while it is on', () => {
    assert.equal(schemaError({}, {nullable: 'yes' as never}).code, 'schema.option.nullable');
    const keyword = {keyword: 'nullable', validate: () => true};
    assert.equal(compile({nullable: 1}, {keywords: [keyword]}).validate(null).valid, true);
    assert.throws(() => compile({}, {...on, keywords: [keyword]}), /"nullable" is a keyword of JSON Schema already/);
  });
});

describe('nullable against ajv, every mode, with and without coerceTypes', () => {
  const schemas: object[] = [
    {type: 'string', nullable: true},
    {type: 'integer', nullable: true},
    {type: 'boolean', nullable: true},
    {type: ['number', 'string'], nullable: true},
    {type: 'string', nullable: true, enum: ['a', '']},
    {type: 'integer', nullable: true, enum: [1, null]},
    {type: 'array', nullable: true, items: {type: 'integer', nullable: true}},
    {type: 'object', nullable: true, properties: {a: {type: 'number', nullable: true}}},
    {type: 'string', nullable: false},
  ];
  const values: unknown[] = [null, '', 'null', 'a', '5', 0, 1, 2.5, false, true, [], [null], [''], ['5'], {}, {a: null}, {a: ''}, {a: '1'}];
  for (const coerceTypes of [false, true, 'array'] as const) {
    test(`coerceTypes ${JSON.stringify(coerceTypes)}: the same verdict and value as ajv's`, () => {
      for (const schema of schemas) {
        for (const value of values) {
          const text = JSON.stringify(value);
          const ours = amended(schema, text, {...on, coerceTypes});
          const theirs = ajvAmended(schema, value, {coerceTypes});
          const what = `${text} against ${JSON.stringify(schema)}`;
          assert.equal(ours.valid, theirs.valid, what);
          if (ours.valid) assert.deepEqual(ours.value, theirs.value, what);
        }
      }
    });
  }

  test('under coerceTypes "" becomes null where no type listed first takes it, and "null" stays a string', () => {
    assert.deepEqual(amended({type: 'integer', nullable: true}, '""', {...on, coerceTypes: true}).value, null);
    assert.deepEqual(amended({type: 'string', nullable: true}, '""', {...on, coerceTypes: true}).value, '');
    assert.equal(amended({type: 'integer', nullable: true}, '"null"', {...on, coerceTypes: true}).valid, false);
    assert.deepEqual(amended({type: 'boolean', nullable: true}, '""', {...on, coerceTypes: true}).value, null);
  });
});
