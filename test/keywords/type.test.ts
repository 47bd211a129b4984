// src/keywords/type.ts: the JSON type check, `integer` decided on the number's text; under
// `coerceTypes`, ajv's coercion table.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {Ajv} from 'ajv';
import {compile} from '../../src/index.js';
import {amended, invalid, onlyError, refusalByte, schemaError, summary, valid, verdictOfText} from './check.js';

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

/** One ajv per options: making one compiles its meta-schemas. */
const ajvs = new Map<string, Ajv>();

/** ajv's verdict and the value it leaves, its root value reached through a holder (where a coercion lands). */
function ajvAmended(schema: object, value: unknown, options: object): {valid: boolean; value: unknown} {
  const key = JSON.stringify(options);
  let ajv = ajvs.get(key);
  if (ajv === undefined) ajvs.set(key, (ajv = new Ajv({...options, strict: false})));
  const validate = ajv.compile(schema);
  const holder = {value: structuredClone(value)};
  const valid = validate(holder.value, {instancePath: '', parentData: holder, parentDataProperty: 'value', rootData: holder, dynamicAnchors: {}});
  return {valid, value: holder.value};
}

describe('type under coerceTypes', () => {
  // Each type against values of every kind: what ajv's table makes of them, and what it refuses.
  const values: unknown[] = ['5', '-1.5', ' 7 ', '0x1F', '1e3', '', 'abc', 'true', 'false', 'null', 0, 1, 2.5, -0, 1e21, true, false, null];
  for (const name of ['string', 'number', 'integer', 'boolean', 'null']) {
    test(`to ${name}: ajv's table, row by row, in every mode`, () => {
      for (const value of values) {
        const text = JSON.stringify(value);
        const ours = amended({type: name}, text, {coerceTypes: true});
        const theirs = ajvAmended({type: name}, JSON.parse(text), {coerceTypes: true});
        assert.equal(ours.valid, theirs.valid, `${text} as ${name}`);
        if (ours.valid) assert.deepEqual(ours.value, theirs.value, `${text} as ${name}`);
      }
    });
  }

  test('a coerced scalar is judged as its coerced value', () => {
    assert.deepEqual(amended({type: 'integer', minimum: 3}, '"5"', {coerceTypes: true}), {valid: true, value: 5, errors: []});
    const tooSmall = amended({type: 'integer', minimum: 10}, '"5"', {coerceTypes: true});
    assert.equal(tooSmall.valid, false);
    assert.deepEqual(tooSmall.errors.map((unit) => unit.keyword), ['minimum']);
    assert.deepEqual(amended({type: 'string', maxLength: 1}, '12', {coerceTypes: true}).errors.map((unit) => unit.keyword), ['maxLength']);
    assert.deepEqual(amended({properties: {on: {type: 'boolean', const: true}}}, '{"on": "true"}', {coerceTypes: true}).value, {on: true});
  });

  test('types are tried in the order written', () => {
    assert.deepEqual(amended({type: ['boolean', 'number']}, '"1"', {coerceTypes: true}).value, 1);
    assert.deepEqual(amended({type: ['string', 'boolean']}, '1', {coerceTypes: true}).value, '1');
    assert.deepEqual(amended({type: ['boolean', 'string']}, '1', {coerceTypes: true}).value, true);
    assert.deepEqual(amended({type: ['null', 'number']}, '""', {coerceTypes: true}).value, null);
    assert.deepEqual(amended({type: ['number', 'null']}, '""', {coerceTypes: true}).value, null);
  });

  test("'array': a scalar into an array where array is a listed type, and a one-item array out of it where it is not", () => {
    const options = {coerceTypes: 'array'} as const;
    assert.deepEqual(amended({type: 'array', items: {type: 'integer'}}, '"5"', options).value, [5]);
    assert.deepEqual(amended({type: 'integer'}, '["5"]', options).value, 5);
    assert.deepEqual(amended({properties: {tags: {type: 'array', items: {type: 'string'}}}}, '{"tags": 7}', options).value, {tags: ['7']});
    assert.deepEqual(amended({type: ['array', 'number']}, '"5"', options).value, ['5']);
    assert.deepEqual(amended({type: ['number', 'array']}, '"5"', options).value, 5);
    assert.deepEqual(amended({type: ['number', 'array']}, '"abc"', options).value, ['abc']);
    assert.equal(amended({type: 'integer'}, '["5", "6"]', options).valid, false);
    assert.equal(amended({type: 'integer'}, '[]', options).valid, false);
    assert.equal(amended({type: 'integer'}, '[[5]]', options).valid, false);
    // Without 'array', arrays stay arrays.
    assert.equal(amended({type: 'integer'}, '["5"]', {coerceTypes: true}).valid, false);
    assert.equal(amended({type: 'array'}, '"5"', {coerceTypes: true}).valid, false);
  });

  test("'array': an unwrapped item is kept only when one type is listed, or when the table turns it into one, as in ajv", () => {
    // ajv checks the item against all listed types at once: with two, none holds, and "5" is no
    // null; so ajv reports a type error, and so do we.
    for (const [schema, text] of [
      [{type: ['string', 'null']}, '["a"]'],
      [{type: ['string', 'object']}, '["5"]'],
      [{type: ['object', 'null']}, '[{}]'],
    ] as const) {
      const theirs = ajvAmended(schema, JSON.parse(text), {coerceTypes: 'array'});
      assert.equal(theirs.valid, false, 'ajv still refuses these: if it no longer does, follow it');
      assert.equal(amended(schema, text, {coerceTypes: 'array'}).valid, false, `${JSON.stringify(schema)} ${text}`);
    }
    assert.deepEqual(amended({type: ['number', 'object']}, '["5"]', {coerceTypes: 'array'}).value, 5);
    assert.deepEqual(amended({type: ['number', 'integer']}, '[5]', {coerceTypes: 'array'}).value, 5);
  });

  test('a string whose number is not finite stays a string (ajv would make it Infinity, which JSON cannot hold)', () => {
    for (const text of ['"1e999"', '"Infinity"', '"-Infinity"']) {
      const outcome = amended({type: 'number'}, text, {coerceTypes: true});
      assert.equal(outcome.valid, false, text);
      assert.deepEqual(outcome.errors.map((unit) => unit.keyword), ['type']);
    }
    assert.equal(ajvAmended({type: 'number'}, '1e999', {coerceTypes: true}).value, Infinity);
  });

  test('a number is coerced from its double, as ajv reads it after JSON.parse', () => {
    assert.deepEqual(amended({type: 'string'}, '1.0', {coerceTypes: true}).value, '1');
    assert.deepEqual(amended({type: 'boolean'}, '1.0', {coerceTypes: true}).value, true);
    assert.deepEqual(amended({type: 'null'}, '0e5', {coerceTypes: true}).value, null);
    // A number not coerced is judged as without the option: as written by validateText, and by
    // parseText as the double it hands on (9007199254740992, within the maximum).
    const exact = compile({type: 'integer', maximum: 9007199254740992}, {coerceTypes: true});
    assert.equal(exact.validateText('9007199254740993').valid, false);
    assert.equal(exact.parseText('9007199254740993').valid, true);
    assert.equal(exact.parseText('9007199254740993').value, 9007199254740992);
  });

  test('where the coerced value goes: positions of its errors are those of the scalar as sent', () => {
    const text = '{"n": "5"}';
    const [unit] = compileAndStream({properties: {n: {type: 'integer', minimum: 10}}}, text);
    assert.equal(unit?.offset, text.indexOf('"5"') + 2);
    assert.equal(unit?.instanceLocation, '/n');
  });

  test('coerceTypes off (the default) coerces nothing, and a value it does not take is a SchemaError', () => {
    assert.equal(amended({type: 'integer'}, '"5"', {}).valid, false);
    assert.equal(schemaError({type: 'integer'}, {coerceTypes: 'yes' as never}).code, 'schema.option.coerceTypes');
  });
});

function compileAndStream(schema: object, text: string) {
  return compile(schema, {coerceTypes: true}).validateText(text).errors;
}
