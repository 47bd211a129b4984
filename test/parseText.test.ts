// Validator.parseText: validateText's verdict and errors, and on success JSON.parse's value. Its
// fast way (a syntax pass, JSON.parse, value mode's fast verdict) may only be taken where the value
// says what the text says; these are the texts where it would not. The whole official suite runs
// through it too (test/suite.test.ts, mode "parse").

import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import {compile} from '../src/index.js';
import {isExactNumberText} from '../src/json/numbers.js';
import type {Result, Validator} from '../src/types.js';

const encoder = new TextEncoder();

function inSession(validator: Validator, pieces: readonly string[]): Result {
  const session = validator.session({parse: true});
  for (const piece of pieces) session.write(piece);
  return session.end();
}

/** parseText of the text and of its bytes, each checked against validateText and JSON.parse. */
function parsed(validator: Validator, text: string) {
  const expected = validator.validateText(text);
  for (const input of [text, encoder.encode(text)]) {
    const {value, ...result} = validator.parseText(input);
    assert.deepEqual(result, expected, `parseText reports what validateText reports for ${text}`);
    if (result.valid) assert.deepEqual(value, JSON.parse(text.replace(/^\uFEFF/, '')));
    else assert.equal(value, undefined);
  }
  return validator.parseText(text);
}

// A number JSON.parse rounds is judged, where a value is handed on, as the double handed on (as
// ajv and Fastify judge it): an outside attack had parseText pass 0.99999999999999999 under
// `exclusiveMaximum: 1` and hand on 1. validateText, which hands nothing on, judges it as written.
describe('numbers JSON.parse rounds are judged as the doubles a value hands on', () => {
  const cases: [schema: object, text: string, asWritten: boolean, asHandedOn: boolean][] = [
    [{type: 'object', properties: {price: {type: 'number', exclusiveMaximum: 1}}}, '{"price":0.99999999999999999}', true, false],
    [{properties: {ids: {uniqueItems: true}}}, '{"ids":[1, 1.00000000000000001]}', true, false],
    [{not: {const: 1}}, '1.00000000000000001', true, false],
    [{not: {enum: [0.3]}}, '0.30000000000000001', true, false],
    [{exclusiveMinimum: 9007199254740992}, '9007199254740992.5', true, false],
    [{exclusiveMinimum: 0}, '1e-400', true, false],
    [{const: 1}, '1.00000000000000001', false, true],
    [{enum: [0.1]}, '0.10000000000000001', false, true],
    [{multipleOf: 2}, '9007199254740993', false, true],
    [{type: 'integer', maximum: 9007199254740992}, '9007199254740993', false, true],
    [{type: 'integer'}, '1.0000000000000000001', false, true],
    [{maximum: 0}, '1e-400', false, true],
    [{minimum: 1}, '1.00000000000000001', true, true],
    // No double holds it: the text decides (inexactNumbers says whether it passes at all).
    [{maximum: 1e308}, '1e400', false, false],
    [{minimum: 0}, '1e400', true, true],
  ];
  for (const [schema, text, asWritten, asHandedOn] of cases) {
    it(`${JSON.stringify(schema)}, ${text}: ${asWritten ? 'valid' : 'invalid'} as written, ${asHandedOn ? 'valid' : 'invalid'} as handed on`, () => {
      const validator = compile(schema);
      assert.equal(validator.validateText(text).valid, asWritten, 'validateText');
      const handedOn: [string, Result][] = [
        ['parseText', validator.parseText(text)],
        ['parseText of bytes', validator.parseText(encoder.encode(text))],
        ['a session with parse, whole', inSession(validator, [text])],
        ['a session with parse, a character at a time', inSession(validator, [...text])],
      ];
      for (const [how, result] of handedOn) {
        assert.equal(result.valid, asHandedOn, how);
        if (!result.valid) assert.equal(result.errors[0]?.kind, 'validation', how);
      }
      // Value mode judges the same double; Infinity is no JSON value to it.
      if (!text.includes('e400')) assert.equal(validator.validate(JSON.parse(text)).valid, asHandedOn, 'validate of the value');
    });
  }

  it('isExactNumberText: short texts at once, long ones by their shortest decimal', () => {
    for (const text of ['0', '-0', '19.99', '123456789012345', '-1.5', '0.000001', '10.990000000000002', '1e21', '1.5E-7', '123456789012345680000']) {
      assert.equal(isExactNumberText(text), true, text);
    }
    for (const text of ['1.00000000000000001', '9007199254740993', '1e400', '-1e400', '1e-400', '0.10000000000000001', '12345678901234567890']) {
      assert.equal(isExactNumberText(text), false, text);
    }
  });
});

describe('parseText', () => {
  const validator = compile({
    type: 'object',
    properties: {name: {type: 'string', maxLength: 5}, tags: {type: 'array', items: {type: 'string'}}},
    additionalProperties: {type: 'number'},
  });

  it('gives JSON.parse’s value for a valid text, __proto__ as an own property', () => {
    const result = parsed(validator, '{"name":"Ada","tags":["x"],"__proto__":1,"n":2.5}');
    assert.equal(result.valid, true);
    assert.ok(Object.hasOwn(result.value as object, '__proto__'));
    assert.equal(Object.getPrototypeOf(result.value), Object.prototype);
  });

  it('reports a schema violation with validateText’s location and position', () => {
    const result = parsed(validator, '{\n  "name": "Grace Hopper"\n}');
    assert.equal(result.valid, false);
    assert.equal(result.errors[0]?.instanceLocation, '/name');
    assert.equal(result.errors[0]?.line, 2);
  });

  it('rejects a repeated key, which JSON.parse would resolve to the last', () => {
    const result = parsed(validator, '{"name":"Ada","name":"Grace Hopper"}');
    assert.equal(result.valid, false);
    assert.equal(result.errors[0]?.params?.code, 'syntax.duplicateKey');
    assert.equal(parsed(validator, '{"n":1,"n":2}').valid, false);
    // Past 24 keys the keys are kept as fingerprints; sibling objects may share keys.
    const many = Array.from({length: 30}, (_, i) => `"k${i}":${i}`);
    const anything = compile({});
    assert.equal(parsed(anything, `[{${many.join(',')},"k3":0}]`).errors[0]?.params?.code, 'syntax.duplicateKey');
    assert.equal(parsed(anything, `[{${many.join(',')}},{${many.join(',')}},{"a":{"a":{"a":1}}}]`).valid, true);
  });

  it('reports malformed, empty and trailing text as syntax errors, never throwing', () => {
    for (const text of ['{"name":', '', '  ', '{} {}', '{"name":"Ada",}', '{"n":1e}', 'nul']) {
      const result = parsed(validator, text);
      assert.equal(result.valid, false, text);
      assert.equal(result.errors[0]?.kind, 'syntax', text);
    }
  });

  it('takes a leading byte order mark, as validateText does', () => {
    assert.deepEqual(parsed(validator, '\uFEFF{"name":"Ada"}').value, {name: 'Ada'});
  });

  it('keeps the limits', () => {
    const limited = compile({type: 'array'}, {limits: {maxDepth: 3, maxStringLength: 4}});
    assert.equal(parsed(limited, '[[["x"]]]').valid, true);
    assert.equal(parsed(limited, '[[[["x"]]]]').errors[0]?.kind, 'limit');
    assert.equal(parsed(limited, '["xxxxx"]').errors[0]?.kind, 'limit');
  });

  it('decodes text split nowhere the same as a session would: multibyte characters and bad bytes', () => {
    const unicode = compile({type: 'object', additionalProperties: {type: 'string', maxLength: 2}});
    assert.equal(parsed(unicode, '{"ключ":"𝄞é"}').valid, true);
    const bytes = Uint8Array.from([...encoder.encode('{"a":"'), 0xe2, 0x82, 0x41, ...encoder.encode('"}')]);
    const {value, ...result} = unicode.parseText(bytes);
    assert.deepEqual(result, unicode.validateText(bytes));
    assert.deepEqual(value, {a: '\uFFFDA'});
  });

  it('schemas the fast verdict cannot ask (unevaluatedProperties) get the same answers', () => {
    const closed = compile({properties: {a: true}, unevaluatedProperties: false});
    assert.deepEqual(parsed(closed, '{"a":1}').value, {a: 1});
    assert.equal(parsed(closed, '{"a":1,"b":2}').errors[0]?.instanceLocation, '/b');
  });

  it('with allErrors, reports every error validateText reports', () => {
    const all = compile({type: 'object', properties: {a: {type: 'string'}, b: {type: 'string'}}}, {allErrors: true});
    assert.equal(parsed(all, '{"a":1,"b":2}').errors.length, 2);
  });
});
