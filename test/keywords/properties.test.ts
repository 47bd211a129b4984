// src/keywords/properties.ts: each listed property's value validates against its schema; the
// member's run starts as the key arrives. Under `useDefaults`, a missing listed property gets its
// subschema's `default`; under `removeAdditional: 'all'`, unlisted properties go.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {compile} from '../../src/index.js';
import {amended, invalid, onlyError, refusalByte, schemaError, summary, valid} from './check.js';

describe('properties', () => {
  const schema = {properties: {name: {type: 'string'}, age: {type: 'integer', minimum: 0}}};

  test('listed properties validate; absent and unlisted ones are not judged', () => {
    valid(schema, {name: 'Ada', age: 36});
    valid(schema, {});
    valid(schema, {other: [1, 2]});
    invalid(schema, {name: 1});
    invalid(schema, {age: -1});
    valid(schema, ['name', 1]);
  });

  test('boolean subschemas: false forbids the property, true allows anything', () => {
    invalid({properties: {a: false}}, {a: null});
    valid({properties: {a: false}}, {b: null});
    valid({properties: {a: true}}, {a: {deep: [1]}});
  });

  test('names are matched exactly, including Object.prototype names and pointer characters', () => {
    const proto = JSON.parse('{"properties": {"__proto__": {"type": "string"}, "constructor": {"type": "string"}}}');
    valid(proto, JSON.parse('{"__proto__": "x", "constructor": "y"}'));
    invalid(proto, JSON.parse('{"__proto__": 1}'));
    invalid(proto, {constructor: 1});
    valid({properties: {toString: {type: 'string'}}}, {});
    assert.deepEqual(summary(onlyError({properties: {'a/b~c': {type: 'string'}}}, {'a/b~c': 1})), {
      keyword: 'type',
      keywordLocation: '/properties/a~1b~0c/type',
      instanceLocation: '/a~1b~0c',
      params: {type: 'string'},
      error: 'must be string',
    });
  });

  test('the error is the subschema error, located at the member', () => {
    assert.deepEqual(summary(onlyError({properties: {p: {properties: {q: {maxLength: 1}}}}}, {p: {q: 'xy'}})), {
      keyword: 'maxLength',
      keywordLocation: '/properties/p/properties/q/maxLength',
      instanceLocation: '/p/q',
      params: {limit: 1},
      error: 'must NOT have more than 1 characters',
    });
  });

  test('streaming: a bad value fails at that value, before the rest of the object', () => {
    const text = '{"name": ["not", "a", "string"], "age": 3}';
    assert.equal(refusalByte(schema, text), text.indexOf('['));
    const falseSchema = '{"b": 1, "a": 2}';
    // A false subschema fails at the key itself.
    assert.equal(refusalByte({properties: {a: false}}, falseSchema), falseSchema.indexOf('a"') + 1);
  });

  test('compile: an object whose values are schemas', () => {
    assert.equal(schemaError({properties: []}).schemaLocation, '/properties');
    assert.equal(schemaError({properties: {a: {}, 'b/c': 1}}).schemaLocation, '/properties/b~1c');
    assert.equal(schemaError({properties: {a: {type: 'nope'}}}).schemaLocation, '/properties/a/type');
  });
});

describe('properties under useDefaults', () => {
  const schema = {
    type: 'object',
    properties: {name: {type: 'string'}, role: {enum: ['user', 'admin'], default: 'user'}, tags: {type: 'array', default: []}},
    required: ['name', 'role'],
  };

  test('a missing property gets its default, before any keyword judges the object; a present one keeps its value', () => {
    assert.deepEqual(amended(schema, '{"name": "a"}', {useDefaults: true}), {valid: true, value: {name: 'a', role: 'user', tags: []}, errors: []});
    assert.deepEqual(amended(schema, '{"name": "a", "role": "admin"}', {useDefaults: true}).value, {name: 'a', role: 'admin', tags: []});
    // `required` sees the default; without the option the property is missing.
    assert.equal(amended(schema, '{"name": "a"}', {}).valid, false);
  });

  test("a property that is null or \"\" keeps its value, unless 'empty'", () => {
    assert.equal(amended(schema, '{"name": "a", "role": null}', {useDefaults: true}).valid, false);
    assert.deepEqual(amended(schema, '{"name": "a", "role": null}', {useDefaults: 'empty'}).value, {name: 'a', role: 'user', tags: []});
    assert.deepEqual(amended(schema, '{"name": "a", "role": ""}', {useDefaults: 'empty'}).value, {name: 'a', role: 'user', tags: []});
    assert.deepEqual(amended(schema, '{"name": "a", "role": "", "tags": null}', {useDefaults: 'empty'}).value, {name: 'a', role: 'user', tags: []});
  });

  test('a default comes after the properties that were sent, in the order `properties` lists them', () => {
    const {value} = amended({properties: {z: {default: 1}, a: {default: 2}, m: {}}}, '{"m": 0}', {useDefaults: true});
    assert.deepEqual(Object.keys(value as object), ['m', 'z', 'a']);
  });

  test('each document gets a default of its own', () => {
    const validator = compile({properties: {list: {default: []}}}, {useDefaults: true});
    const first = validator.validate({}).value as {list: unknown[]};
    first.list.push(1);
    assert.deepEqual(validator.validate({}).value, {list: []});
    assert.deepEqual(validator.parseText('{}').value, {list: []});
  });

  test('a default is judged, coerced and given defaults of its own, as if it had been sent', () => {
    const nested = {properties: {settings: {type: 'object', properties: {theme: {default: 'dark'}, size: {type: 'integer'}}, default: {size: '12'}}}};
    assert.deepEqual(amended(nested, '{}', {useDefaults: true, coerceTypes: true}).value, {settings: {size: 12, theme: 'dark'}});
    const wrong = amended({properties: {n: {type: 'integer', default: 'x'}}}, '{}', {useDefaults: true});
    assert.equal(wrong.valid, false);
    assert.equal(wrong.errors[0]?.instanceLocation, '/n');
  });

  test('the first default for a name wins; a subschema applied in place gives its defaults before its parent (ajv order)', () => {
    const schema = {allOf: [{properties: {a: {default: 'from allOf'}}}], properties: {a: {default: 'own'}, b: {default: 'own'}}};
    assert.deepEqual(amended(schema, '{}', {useDefaults: true}).value, {a: 'from allOf', b: 'own'});
    const referenced = {$ref: '#/$defs/base', properties: {a: {default: 'own'}}, $defs: {base: {properties: {a: {default: 'base'}, c: {default: 'base'}}}}};
    assert.deepEqual(amended(referenced, '{}', {useDefaults: true}).value, {a: 'base', c: 'base'});
  });

  test('only where the value is an object: another kind gets no defaults', () => {
    assert.deepEqual(amended({properties: {a: {default: 1}}}, '[]', {useDefaults: true}).value, []);
    assert.deepEqual(amended({properties: {a: {default: 1}}}, '"x"', {useDefaults: true}).value, 'x');
  });

  test('not inside anyOf, oneOf, not, if/then/else or dependentSchemas, as in ajv (a branch may be tried and dropped)', () => {
    const branch = {properties: {a: {default: 1}}};
    for (const schema of [{anyOf: [branch]}, {oneOf: [branch]}, {not: {not: branch}}, {if: branch, then: branch, else: branch}, {dependentSchemas: {x: branch}}]) {
      assert.deepEqual(amended(schema, '{"x": 0}', {useDefaults: true}).value, {x: 0}, JSON.stringify(schema));
    }
  });

  test("a default whose schema gives it a default of itself ends at the depth limit, with a limit error", () => {
    const outcome = compile({properties: {next: {$ref: '#', default: {}}}}, {useDefaults: true, limits: {maxDepth: 50}});
    for (const result of [outcome.validate({}), outcome.validateText('{}'), outcome.parseText('{}')]) {
      assert.equal(result.valid, false);
      assert.equal(result.errors[0]?.keyword, 'limit');
    }
  });

  test('useDefaults off (the default) adds nothing, and a value it does not take is a SchemaError', () => {
    assert.deepEqual(amended({properties: {a: {default: 1}}}, '{}', {}).value, {});
    assert.equal(schemaError({}, {useDefaults: 'always' as never}).code, 'schema.option.useDefaults');
  });
});

describe("properties under removeAdditional: 'all'", () => {
  test('properties it does not list go, even without additionalProperties beside it (as ajv does)', () => {
    const schema = {properties: {a: {}}, patternProperties: {'^x-': {}}};
    assert.deepEqual(amended(schema, '{"a": 1, "x-y": 2, "b": 3}', {removeAdditional: 'all'}).value, {a: 1, 'x-y': 2});
    // Only `properties` and `additionalProperties` remove: patternProperties alone does not.
    assert.deepEqual(amended({patternProperties: {'^x-': {}}}, '{"a": 1}', {removeAdditional: 'all'}).value, {a: 1});
    assert.deepEqual(amended(schema, '{"a": 1, "b": 3}', {removeAdditional: true}).value, {a: 1, b: 3});
  });
});
