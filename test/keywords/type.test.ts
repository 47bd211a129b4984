// src/keywords/type.ts: the JSON type check, `integer` decided on the number's text.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {invalid, onlyError, refusalByte, schemaError, summary, valid, verdictOfText} from './check.js';

const samples: Record<string, unknown[]> = {
  object: [{}, {a: 1}],
  array: [[], [1]],
  string: ['', 'x'],
  number: [0, -1.5, 1e300],
  boolean: [true, false],
  null: [null],
};

describe('type', () => {
  test('each type name accepts its own kind and rejects every other', () => {
    for (const name of Object.keys(samples)) {
      for (const [kind, values] of Object.entries(samples)) {
        for (const value of values) {
          if (kind === name) valid({type: name}, value);
          else invalid({type: name}, value);
        }
      }
    }
  });

  test('integer is a number whose value is whole, judged on the text as written', () => {
    for (const text of ['0', '-0', '1', '1.0', '1e2', '1.5e1', '-12345678901234567890', '12345678901234567890.000']) {
      assert.equal(verdictOfText({type: 'integer'}, text), true, text);
    }
    for (const text of ['1.5', '1e-1', '0.1', '-2.25', '12345678901234567890.5']) {
      assert.equal(verdictOfText({type: 'integer'}, text, {textOnly: true}), false, text);
    }
    // Beyond double range: still a whole number, and still a number.
    assert.equal(verdictOfText({type: 'integer'}, '1e400', {textOnly: true}), true);
    assert.equal(verdictOfText({type: 'number'}, '1e400', {textOnly: true}), true);
    assert.equal(verdictOfText({type: 'integer'}, '1.0000000000000000000001', {textOnly: true}), false);
    assert.equal(verdictOfText({items: {type: 'integer'}}, '[1, 2.0, 3e0]'), true);
  });

  test('number includes integers; integer excludes other kinds', () => {
    valid({type: 'number'}, 7);
    invalid({type: 'integer'}, '7');
    invalid({type: 'integer'}, true);
  });

  test('a list accepts any of its kinds', () => {
    const schema = {type: ['string', 'null']};
    valid(schema, 'a');
    valid(schema, null);
    invalid(schema, 0);
    valid({type: ['integer', 'string']}, 3);
    invalid({type: ['integer', 'string']}, 3.5);
  });

  test('an empty list accepts nothing (from draft 6; draft 4 forbids it)', () => {
    for (const value of [null, 0, 'a', [], {}]) invalid({type: []}, value);
  });

  test('the error names the expected types, as the schema lists them (ajv\'s params)', () => {
    assert.deepEqual(summary(onlyError({type: ['string', 'null']}, [1])), {
      keyword: 'type',
      keywordLocation: '/type',
      instanceLocation: '',
      params: {type: ['string', 'null']},
      error: 'must be string or null',
    });
    assert.deepEqual(summary(onlyError({properties: {n: {type: 'integer'}}}, {n: 1.5})), {
      keyword: 'type',
      keywordLocation: '/properties/n/type',
      instanceLocation: '/n',
      params: {type: 'integer'},
      error: 'must be integer',
    });
  });

  test('streaming: a container of the wrong type fails at its opening bracket, a scalar when it is whole', () => {
    const schema = {properties: {a: {type: 'string'}}};
    const text = '{"a": {"b": 1}}';
    assert.equal(refusalByte(schema, text), text.indexOf('{"b"'));
    const number = '{"a": 12345}';
    // A number is whole only when a character that cannot continue it arrives.
    assert.equal(refusalByte(schema, number), number.indexOf('}'));
    const integer = '[1.5]';
    assert.equal(refusalByte({items: {type: 'integer'}}, integer), integer.indexOf(']'));
  });

  test('compile: unknown names, repeats, and draft 4 empty lists are SchemaErrors at the entry', () => {
    assert.equal(schemaError({type: 'objekt'}).schemaLocation, '/type');
    assert.equal(schemaError({type: ['string', 'int']}).schemaLocation, '/type/1');
    assert.equal(schemaError({type: ['string', 'string']}).schemaLocation, '/type/1');
    assert.equal(schemaError({type: 3}).code, 'schema.keyword.invalid');
    assert.equal(schemaError({type: []}, {draft: 'draft4'}).schemaLocation, '/type');
  });
});
