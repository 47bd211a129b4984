// src/keywords/additionalProperties.ts: properties matched by neither `properties` nor
// `patternProperties` of the same schema object validate against it; `false` fails at the key.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {invalid, onlyError, refusalByte, schemaError, summary, valid} from './check.js';

describe('additionalProperties', () => {
  test('false: only declared or pattern-matched names are allowed', () => {
    const schema = {properties: {a: {}}, patternProperties: {'^x-': {}}, additionalProperties: false};
    valid(schema, {a: 1, 'x-y': 2});
    valid(schema, {});
    invalid(schema, {b: 1});
    invalid(schema, {a: 1, 'y-x': 2});
    valid(schema, [1, 2]);
  });

  test('a schema applies to the additional properties only', () => {
    const schema = {properties: {a: {type: 'integer'}}, additionalProperties: {type: 'boolean'}};
    valid(schema, {a: 1, b: true});
    invalid(schema, {a: 1, b: 1});
    invalid(schema, {a: true});
  });

  test('it sees only its siblings: allOf declarations are additional here', () => {
    invalid({allOf: [{properties: {a: {}}}], additionalProperties: false}, {a: 1});
  });

  test('Object.prototype names are ordinary names', () => {
    invalid({additionalProperties: false}, JSON.parse('{"__proto__": 1}'));
    invalid({properties: {toString: {}}, additionalProperties: false}, {constructor: 1});
    valid(JSON.parse('{"properties": {"__proto__": {}}, "additionalProperties": false}'), JSON.parse('{"__proto__": 1}'));
  });

  test('the error of false names the property, at the property', () => {
    assert.deepEqual(summary(onlyError({properties: {a: {}}, additionalProperties: false}, {a: 1, 'b/c': 2})), {
      keyword: 'additionalProperties',
      keywordLocation: '/additionalProperties',
      instanceLocation: '/b~1c',
      params: {additionalProperty: 'b/c'},
      error: 'must NOT have additional property "b/c"',
    });
    assert.deepEqual(summary(onlyError({additionalProperties: {type: 'string'}}, {a: 1})), {
      keyword: 'type',
      keywordLocation: '/additionalProperties/type',
      instanceLocation: '/a',
      params: {type: 'string'},
      error: 'must be string',
    });
  });

  test('streaming: false fails at the closing quote of the key, a schema at the value', () => {
    const text = '{"a": 1, "admin": true, "z": 0}';
    assert.equal(refusalByte({properties: {a: {}}, additionalProperties: false}, text), text.indexOf('admin"') + 5);
    const value = '{"extra": [1, 2]}';
    assert.equal(refusalByte({additionalProperties: {type: 'string'}}, value), value.indexOf('['));
  });

  test('compile: a schema; sibling patterns must compile', () => {
    assert.equal(schemaError({additionalProperties: 'no'}).schemaLocation, '/additionalProperties');
    assert.equal(schemaError({additionalProperties: {type: 1}}).schemaLocation, '/additionalProperties/type');
  });
});
