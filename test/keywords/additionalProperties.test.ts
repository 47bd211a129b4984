// src/keywords/additionalProperties.ts: properties matched by neither `properties` nor
// `patternProperties` of the same schema object validate against it; `false` fails at the key.
// Under `removeAdditional`, such properties are taken out of the value instead.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {compile} from '../../src/index.js';
import type {Result, Validator} from '../../src/types.js';
import {amended, invalid, onlyError, refusalByte, schemaError, summary, valid} from './check.js';

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

describe('additionalProperties under removeAdditional', () => {
  const closed = {type: 'object', properties: {a: {}}, patternProperties: {'^x-': {}}, additionalProperties: false};
  const typed = {type: 'object', properties: {a: {}}, additionalProperties: {type: 'integer'}};
  const open = {type: 'object', properties: {a: {}}, additionalProperties: true};

  test('true: only where additionalProperties is false', () => {
    assert.deepEqual(amended(closed, '{"a": 1, "x-y": 2, "b": {"c": [3]}, "d": null}', {removeAdditional: true}), {valid: true, value: {a: 1, 'x-y': 2}, errors: []});
    assert.equal(amended(typed, '{"a": 1, "b": "no"}', {removeAdditional: true}).valid, false);
    assert.deepEqual(amended(open, '{"a": 1, "b": 2}', {removeAdditional: true}).value, {a: 1, b: 2});
  });

  test("'all': every additional property, whatever additionalProperties says", () => {
    for (const schema of [closed, typed, open]) assert.deepEqual(amended(schema, '{"a": 1, "b": "no"}', {removeAdditional: 'all'}).value, {a: 1}, JSON.stringify(schema));
  });

  test("'failing': where it is false, and those whose value fails it", () => {
    assert.deepEqual(amended(typed, '{"a": 1, "b": "no", "c": 2}', {removeAdditional: 'failing'}).value, {a: 1, c: 2});
    assert.deepEqual(amended(closed, '{"a": 1, "b": 2}', {removeAdditional: 'failing'}).value, {a: 1});
    assert.deepEqual(amended(open, '{"a": 1, "b": 2}', {removeAdditional: 'failing'}).value, {a: 1, b: 2});
    // Judged as the value options would change it: "2" is an integer under coerceTypes, and stays.
    assert.deepEqual(amended(typed, '{"b": "2", "c": "x"}', {removeAdditional: 'failing', coerceTypes: true}).value, {b: 2});
  });

  test("'failing': a kept member is judged as ajv judges it, as a composite rule (no defaults in it)", () => {
    const schema = {additionalProperties: {type: 'object', properties: {d: {default: 1}}}};
    assert.deepEqual(amended(schema, '{"b": {}, "c": 5}', {removeAdditional: 'failing', useDefaults: true}).value, {b: {}});
    assert.deepEqual(amended(schema, '{"b": {}}', {removeAdditional: true, useDefaults: true}).value, {b: {d: 1}});
  });

  test('names declared elsewhere (allOf) are additional here, as the keyword itself says', () => {
    const schema = {allOf: [{properties: {b: {}}}], properties: {a: {}}, additionalProperties: false};
    assert.deepEqual(amended(schema, '{"a": 1, "b": 2}', {removeAdditional: true}).value, {a: 1});
  });

  test('a repeated key is refused where the member is removed too, in every mode that reads text', () => {
    for (const text of ['{"b": 1, "b": 2}', '{"b": {"c": 1, "c": 2}}', '{"a": 1, "b": [{"c": 1, "c": 2}]}']) {
      for (const mode of [true, 'all', 'failing'] as const) {
        const validator = compile(closed, {removeAdditional: mode});
        for (const result of [validator.validateText(text), validator.parseText(text), streamed(validator, text)]) {
          assert.equal(result.valid, false, `${text} (${mode})`);
          assert.equal(result.errors[0]?.params?.code, 'syntax.duplicateKey', `${text} (${mode})`);
        }
      }
    }
    const failing = compile(typed, {removeAdditional: 'failing'});
    assert.equal(failing.validateText('{"b": "no", "b": 2}').errors[0]?.params?.code, 'syntax.duplicateKey');
    assert.equal(failing.validateText('{"b": {"x": 1, "x": 2}}').errors[0]?.params?.code, 'syntax.duplicateKey');
  });

  test('removeAdditional off (the default) removes nothing, and a value it does not take is a SchemaError', () => {
    assert.equal(amended(closed, '{"b": 1}', {}).valid, false);
    assert.equal(schemaError({}, {removeAdditional: 'some' as never}).code, 'schema.option.removeAdditional');
  });
});

function streamed(validator: Validator, text: string): Result {
  const session = validator.session({parse: true});
  for (const character of text) session.write(character);
  return session.end();
}
