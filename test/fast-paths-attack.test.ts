// Attacks on three fast paths, kept as regression tests: the checker's repeated-key stamps
// (src/engine/memberKeys.ts), a property name's kept propertyNames pass (Member.nameAccepted), and
// a document valid as sent judged and parsed as sent under value options that change no valid
// document (changesValidDocuments, src/session/validator.ts); and readShortNumber against Number.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {isDeepStrictEqual} from 'node:util';
import fc from 'fast-check';
import {compile} from '../src/index.js';
import {compileSchema} from '../src/compile/compile.js';
import {HeldScalar} from '../src/engine/scalar.js';
import {defaultLimits} from '../src/json/limits.js';
import {CompiledValidator} from '../src/session/validator.js';
import type {CompileOptions, Validator} from '../src/types.js';
import {property} from './support/property.js';

/** Every mode refuses `text`: validateText, parseText, and sessions fed in 3-character chunks. */
function refusedEverywhere(validator: Validator, text: string): void {
  const label = text.length > 120 ? text.slice(0, 120) + '…' : text;
  assert.equal(validator.validateText(text).valid, false, `validateText ${label}`);
  assert.equal(validator.parseText(text).valid, false, `parseText ${label}`);
  for (const parse of [false, true]) {
    const running = validator.session({parse});
    for (let at = 0; at < text.length; at += 3) running.write(text.slice(at, at + 3));
    assert.equal(running.end().valid, false, `session (parse: ${parse}) ${label}`);
  }
}

const members = (count: number, name: (index: number) => string): string => Array.from({length: count}, (_, index) => `"${name(index)}": 1`).join(', ');

describe('repeated keys against the checker stamps', () => {
  test('an outer object repeats a key after a nested object spent the name budget and retired its table', () => {
    const validator = compile({type: 'object', properties: {inner: {type: 'object', additionalProperties: {type: 'integer'}}}, additionalProperties: {type: 'integer'}});
    // The outer shape keeps the most names, so it is the one retired while its object is open.
    assert.equal(validator.validateText(`{${members(700, (index) => `s${index}`)}}`).valid, true);
    const inner = members(900, (index) => 't'.repeat(200) + index);
    refusedEverywhere(validator, `{"s1": 1, "s2": 2, "inner": {${inner}}, "s1": 3}`);
    refusedEverywhere(validator, `{"s1": 1, "inner": {${inner}}, "zz": 1, "s1": 3}`);
    refusedEverywhere(validator, '{"s1": 1, "s2": 2, "s1": 3}');
  });

  test('escaped and long keys, kept members and recursion, after warm-up', () => {
    const long = 'k'.repeat(300);
    const schemas = [
      {type: 'object', properties: {a: {type: 'number'}, b: {}}},
      {type: 'object', properties: {a: {}, c: {$ref: '#'}}, additionalProperties: {$ref: '#'}},
      {$id: 'https://example.com/tree', $dynamicAnchor: 'node', type: 'object', properties: {a: {}, c: {$dynamicRef: '#node'}}},
      {type: 'object', propertyNames: {maxLength: 3}, patternProperties: {'^a': {type: 'number'}}},
      {type: 'object', properties: {a: {}}, anyOf: [{properties: {b: {}}}, {}], unevaluatedProperties: {type: 'number'}},
    ];
    for (const schema of schemas) {
      const validator = compile(schema);
      for (let round = 0; round < 3; round++) validator.validateText('{"a": 1, "b": 2, "c": {"a": 1, "c": {"a": 1}}}');
      for (const text of ['{"a": 1, "\\u0061": 2}', '{"\\u0061": 1, "a": 2}', `{"${long}": 1, "${long}": 2}`, `{"a": 1, "${long}": 1, "a": 2}`, '{"c": {"a": 1, "c": {"a": 1, "a": 2}}}', '{"c": {"a": 1}, "a": 1, "c": 2}', '{"a": 1, "c": {"a": 1}, "a": 2}']) {
        refusedEverywhere(validator, text);
      }
    }
  });

  test('a custom keyword that calls validateText of its own validator, with repeated keys inside and outside', () => {
    const inner: boolean[] = [];
    let validator: Validator | undefined;
    const reenter = {keyword: 'reenter', type: 'string' as const, validate: (_value: unknown, text: unknown) => (inner.push(validator!.validateText(text as string).valid), true)};
    validator = compile({type: 'object', properties: {a: {type: 'integer'}, b: {type: 'string', reenter: true}}}, {keywords: [reenter]});
    for (let round = 0; round < 3; round++) assert.equal(validator.validateText('{"a": 1, "b": "{}"}').valid, true);
    inner.length = 0;
    assert.equal(validator.validateText('{"a": 1, "b": "{\\"a\\": 1, \\"a\\": 2}"}').valid, true);
    assert.deepEqual(inner, [false]);
    inner.length = 0;
    assert.equal(validator.validateText('{"a": 1, "b": "{\\"a\\": 1}", "a": 2}').valid, false);
    assert.ok(inner.every((valid) => valid));
  });
});

describe('a kept propertyNames pass', () => {
  test('through one validator, each name is judged as a validator of its own judges it (property)', () => {
    const schemas = [
      {propertyNames: {maxLength: 2}},
      {propertyNames: {pattern: '^[a-b]+$'}},
      {propertyNames: {enum: ['a', 'ab', 'b']}},
      {propertyNames: {const: 'ab'}},
      {propertyNames: {format: 'ipv4'}},
      {properties: {n: {propertyNames: {maxLength: 1}, additionalProperties: {$ref: '#/properties/n'}}}},
      {$defs: {p: {propertyNames: {pattern: 'a'}}}, properties: {n: {$ref: '#/$defs/p'}}, propertyNames: {minLength: 1}},
    ];
    const name = fc.constantFrom('a', 'ab', 'abc', 'b', 'n', '1.2.3.4', '');
    const object: fc.Memo<unknown> = fc.memo((size): fc.Arbitrary<unknown> => (size <= 1 ? fc.constant(1) : fc.dictionary(name, object(size - 1), {maxKeys: 4})));
    fc.assert(
      fc.property(fc.constantFrom(...schemas), fc.array(object(3), {minLength: 1, maxLength: 8}), (schema, documents) => {
        const options: CompileOptions = {formats: 'assert'};
        const warm = compile(schema, options);
        for (const document of documents) {
          const text = JSON.stringify(document);
          const expected = compile(schema, {...options, annotations: true}).validateText(text).valid;
          assert.equal(warm.validateText(text).valid, expected, text);
          assert.equal(warm.validate(document).valid, expected, text);
        }
      }),
      property(150),
    );
  });
});

/** The same schema and options, with the value options' amender run on every document. */
function amendingAlways(schema: unknown, options: CompileOptions): Validator {
  const {root, draft} = compileSchema(schema, options);
  return new CompiledValidator(root, draft, false, {...defaultLimits, ...options.limits}, {amends: true, validAsSentIsUnchanged: false});
}

describe('a document valid as sent, under value options that change no valid document', () => {
  const optionSets: CompileOptions[] = [
    {coerceTypes: true}, {coerceTypes: 'array'}, {useDefaults: true}, {useDefaults: 'empty'}, {removeAdditional: true}, {removeAdditional: 'failing'},
    {coerceTypes: 'array', useDefaults: true, removeAdditional: 'failing'},
  ];
  const cases: [unknown, string[]][] = [
    [{type: 'number'}, ['5', '"5"', '-0', '-0.0', '1.0', '1E2', '123456789012345678901234567890', '\uFEFF5']],
    [{type: 'integer'}, ['1.0', '1e2', '"5"', '-0', '9007199254740993']],
    [{type: ['integer', 'string']}, ['"5"', '5', '5.5', 'null', '[5]']],
    [{type: 'array', items: {type: 'number'}}, ['[1, 2]', '["1"]', '5', '[-0]']],
    [{type: 'object', properties: {a: {type: 'number'}}, additionalProperties: false}, ['{"a": 1}', '{"a": 1, "b": 2}', '{"__proto__": {"x": 1}}', '{"a": -0}']],
    [{type: 'object'}, ['{"__proto__": {"x": 1}}', '{"__proto__": null}', '{"1": 1, "a": 2, "0": 3}', '{"\\ud800": "\\udc00"}']],
    [{type: 'object', properties: {a: {}}, additionalProperties: {type: 'number'}}, ['{"a": "x", "b": 1}', '{"b": "1"}', '{"b": "x"}']],
    [{$defs: {s: {type: 'object', properties: {a: {}}}}, $ref: '#/$defs/s', additionalProperties: false}, ['{"a": 1}', '{"b": 2}']],
    [{$schema: 'http://json-schema.org/draft-07/schema#', definitions: {s: {type: 'object'}}, $ref: '#/definitions/s', additionalProperties: false, type: 'string'}, ['{"b": 2}', '"x"']],
    [{allOf: [{type: 'number'}, {type: ['number', 'string']}]}, ['5', '"5"']],
    [{$schema: 'http://json-schema.org/draft-07/schema#', type: 'array', items: [{type: 'number'}, {type: 'string'}], additionalItems: {type: 'boolean'}}, ['[1, "a", true]', '["1", 2, "true"]']],
    [{type: 'array', contains: {type: 'number'}}, ['[1, "2"]', '["2", 1]', '["2"]']],
    [{not: {type: 'string'}}, ['5', '"5"']],
    [{anyOf: [{type: 'number'}, {type: 'boolean'}]}, ['5', '"5"']],
    [{type: 'object', properties: {a: {type: 'number'}, b: {type: 'array', items: {type: 'string'}}}}, ['{"a": [1], "b": "x"}', '{"a": 1, "b": ["x"]}']],
    [{$dynamicAnchor: 'n', type: 'object', properties: {a: {$dynamicRef: '#n'}, v: {type: 'number'}}}, ['{"a": {"v": 1}}', '{"a": {"v": "1"}}']],
    [{type: 'object', properties: {a: {type: 'string'}}}, ['{"a": ""}', '{"a": null}']],
    // A default makes the as-sent path stand aside: its value would lack the default.
    [{type: 'object', properties: {a: {type: 'string'}, d: {default: 1}}}, ['{}', '{"a": ""}']],
    [{type: 'array', prefixItems: [{}, {default: 'x'}]}, ['[]', '[1]']],
  ];

  test('gives the verdict and the value the amender gives', () => {
    for (const [schema, texts] of cases) {
      for (const options of optionSets) {
        for (const nullable of [false, true]) {
          const given = nullable ? {...options, nullable: true} : options;
          const asSent = compile(schema, given);
          const amended = amendingAlways(schema, given);
          for (const text of texts) {
            const label = `${JSON.stringify(given)} ${JSON.stringify(schema)} ${JSON.stringify(text)}`;
            assert.equal(asSent.validateText(text).valid, amended.validateText(text).valid, `validateText ${label}`);
            const parsed = asSent.parseText(text);
            const expected = amended.parseText(text);
            assert.equal(parsed.valid, expected.valid, `parseText ${label}`);
            if (parsed.valid && expected.valid) {
              assert.ok(isDeepStrictEqual(parsed.value, expected.value), `value ${label}`);
              assert.equal(JSON.stringify(parsed.value), JSON.stringify(expected.value), `key order ${label}`);
            }
          }
        }
      }
    }
  });
});

describe('readShortNumber', () => {
  test('equals Number() of every JSON number text it reads (property)', () => {
    const held = new HeldScalar();
    const digits = (min: number, max: number): fc.Arbitrary<string> => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
    const integer = fc.oneof(fc.constant('0'), fc.tuple(fc.constantFrom(...'123456789'), digits(0, 15)).map(([first, rest]) => first + rest));
    const number = fc
      .tuple(fc.boolean(), integer, fc.option(digits(1, 15), {nil: undefined}), fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits(1, 3)), {nil: undefined}))
      .map(([negative, whole, fraction, exponent]) => (negative ? '-' : '') + whole + (fraction === undefined ? '' : '.' + fraction) + (exponent === undefined ? '' : exponent.join('')));
    const edges = ['-0', '0', '-0.0', '0.00000000000000', '-0.0000000000001', '999999999999999', '-99999999999999', '0.1', '0.3', '1.00000000000001', '99999999999999.9', '0.12345678901234'];
    fc.assert(
      fc.property(fc.oneof(number, fc.constantFrom(...edges)), (text) => {
        const source = '[' + text + ']';
        held.holdRange(source, 1, 1 + text.length, false);
        const read = held.number();
        held.releaseScalar();
        assert.ok(Object.is(read, Number(text)), `${text}: ${read} against ${Number(text)}`);
      }),
      property(20000),
    );
  });
});
