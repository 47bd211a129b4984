// src/keywords/properties.ts: each listed property's value validates against its schema; the
// member's run starts as the key arrives.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {invalid, onlyError, refusalByte, schemaError, summary, valid} from './check.js';

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
