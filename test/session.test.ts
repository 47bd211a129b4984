// Streaming mode as a user meets it: early verdict, error positions, bad documents, limits.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {compile, defaultLimits} from '../src/index.js';
import type {Validator} from '../src/types.js';
import {byteChunks, feed} from './support/chunks.js';

const encoder = new TextEncoder();

/** The 0-based index of the byte whose write made the session say false, feeding 1 byte at a time. */
function refusalByte(validator: Validator, text: string): number {
  return feed(validator, byteChunks(encoder.encode(text))).refusedAt;
}

describe('early verdict: write() says false at the first byte that makes the document invalid', () => {
  const closed = compile({
    type: 'object',
    properties: {id: {type: 'integer'}, name: {type: 'string'}, tags: {type: 'array', maxItems: 2}},
    propertyNames: {maxLength: 8},
    additionalProperties: false,
    maxProperties: 3,
  });

  test('a forbidden key: at its closing quote', () => {
    const text = '{"id": 1, "admin": true}';
    assert.equal(refusalByte(closed, text), text.indexOf('admin') + 5);
  });

  test('a failing property name: at its closing quote', () => {
    const text = '{"averyverylongname": 1}';
    assert.equal(refusalByte(closed, text), text.indexOf('averyverylongname') + 'averyverylongname'.length);
  });

  test('a wrong type in a property that must validate: at the value, a string at its opening quote', () => {
    const text = '{"id": "seven", "name": "x"}';
    assert.equal(refusalByte(closed, text), text.indexOf('"seven"'));
  });

  test('a wrong container type: at its opening bracket', () => {
    const text = '{"name": {"first": "a"}}';
    assert.equal(refusalByte(closed, text), text.indexOf('{"first"'));
  });

  test('too many properties: at the key that is one too many', () => {
    const many = compile({maxProperties: 2});
    const text = '{"a": 1, "b": 2, "c": 3, "d": 4}';
    assert.equal(refusalByte(many, text), text.indexOf('"c"') + 2);
  });

  test('too many items: at the item that is one too many (a string at its opening quote)', () => {
    const text = '{"tags": ["a", "b", "c"]}';
    assert.equal(refusalByte(closed, text), text.indexOf('"c"'));
    const numbers = '{"tags": [1, 2, [3]]}';
    assert.equal(refusalByte(closed, numbers), numbers.indexOf('[3]'));
  });

  test('array and scalar keywords fail at the offending element, not at the end', () => {
    // A container fails at its opening bracket; a string at its opening quote when its kind
    // decides, else at its closing quote; a number at the character that ends it (until then an
    // exponent could still change its value).
    const cases: [unknown, string, string, 'start' | 'end'][] = [
      [{maxItems: 1}, '[1, [2], 3]', '[2]', 'start'],
      [{items: {maxLength: 3}}, '["ab", "abcd", "x"]', '"abcd"', 'end'],
      [{items: {maximum: 10}}, '[1, 11, 2]', '11,', 'end'],
      [{prefixItems: [{type: 'string'}, {type: 'number'}]}, '["a", "b", 1]', '"b"', 'start'],
      [{maxItems: 1}, '[1, "two"]', '"two"', 'start'],
      [{items: {type: 'integer'}}, '[1, 2.5, 3]', '2.5,', 'end'],
      [{items: [{}], additionalItems: false, $schema: 'http://json-schema.org/draft-07/schema#'}, '[1, {"a": 2}, 3]', '{"a"', 'start'],
    ];
    for (const [schema, text, offending, where] of cases) {
      const at = text.indexOf(offending);
      const expected = where === 'start' ? at : at + offending.length - 1;
      assert.equal(refusalByte(compile(schema), text), expected, `${JSON.stringify(schema)} on ${text}`);
    }
  });

  test('a wrong root type: at the first byte', () => {
    assert.equal(refusalByte(closed, '[1, 2]'), 0);
  });

  test('the session stops working once invalid, and end() repeats the verdict', () => {
    const session = closed.session();
    assert.equal(session.write('{"admin": 1,'), false);
    const read = session.bytesRead;
    assert.equal(session.write(' "more": "'.repeat(1000)), false);
    assert.equal(session.bytesRead, read);
    const result = session.end();
    assert.equal(result.valid, false);
    assert.equal(result.errors.length, 1);
    assert.deepEqual(session.end(), result);
  });

  test('the verdict and the errors equal those of validateText, with positions', () => {
    const text = '{\n  "id": 1,\n  "admin": true\n}';
    const whole = closed.validateText(text);
    const chunked = feed(closed, byteChunks(encoder.encode(text)));
    assert.deepEqual(chunked.errors, whole.errors);
    assert.deepEqual(
      {keyword: whole.errors[0].keyword, instanceLocation: whole.errors[0].instanceLocation, line: whole.errors[0].line, column: whole.errors[0].column},
      {keyword: 'additionalProperties', instanceLocation: '/admin', line: 3, column: 9},
    );
  });

  test('one large byte chunk is decoded in slices: characters cut between slices, and an early stop', () => {
    // 7 bytes before the string put the 8 KiB slice boundaries inside the 2- and 4-byte characters.
    const text = '{"a": "' + 'é'.repeat(10_000) + '😀'.repeat(3000) + '"}';
    for (const limit of [13_000, 12_999]) {
      const validator = compile({properties: {a: {maxLength: limit}}});
      const session = validator.session();
      session.write(encoder.encode(text));
      assert.deepEqual(session.end(), validator.validateText(text), `maxLength ${limit}`);
    }
    const forbidding = compile({properties: {a: false}}).session();
    assert.equal(forbidding.write(encoder.encode(text)), false);
    assert.ok(forbidding.bytesRead < 8192, `stopped after ${forbidding.bytesRead} bytes`);
  });

  test('two byte chunks cut anywhere decode as the whole bytes do: 2- to 4-byte characters and malformed UTF-8', () => {
    const validator = compile({additionalProperties: {type: 'string', maxLength: 6}});
    const documents = [
      encoder.encode('{"ключ": "é€😀x"}'),
      // A lead byte without its continuation, a stray continuation byte, a cut 4-byte character.
      Uint8Array.from([...encoder.encode('{"a": "'), 0xe2, 0x82, 0x41, 0x80, 0xf0, 0x9f, ...encoder.encode('"}')]),
      Uint8Array.from([...encoder.encode('{"a": "x'), 0xf0, 0x9f, 0x98]),
    ];
    for (const bytes of documents) {
      const whole = validator.validateText(Buffer.from(bytes).toString('utf8'));
      for (let cut = 0; cut <= bytes.length; cut++) {
        const {refusedAt, ...result} = feed(validator, [bytes.subarray(0, cut), bytes.subarray(cut)]);
        assert.deepEqual(result, whole, `cut at ${cut}`);
      }
    }
  });

  test('allErrors keeps going and collects every error', () => {
    const all = compile({properties: {a: {type: 'string'}, b: {type: 'string'}}, required: ['c']}, {allErrors: true});
    const result = all.validateText('{"a": 1, "b": 2}');
    assert.deepEqual(
      result.errors.map((unit) => unit.keywordLocation),
      ['/properties/a/type', '/properties/b/type', '/required'],
    );
  });
});

describe('bad documents are errors of kind "syntax" that say where; nothing throws', () => {
  const validator = compile({type: 'object'});
  const cases: [string, string, string | Uint8Array, number, number][] = [
    ['malformed', 'syntax.unexpected', '{"a": tru}', 1, 10],
    ['truncated', 'syntax.end', '{"a": [1, 2', 1, 12],
    ['trailing content', 'syntax.trailing', '{"a": 1} {}', 1, 10],
    ['an empty body', 'syntax.empty', '', 1, 1],
    ['whitespace only', 'syntax.empty', '  \n ', 2, 2],
    ['a repeated key', 'syntax.duplicateKey', '{"a": 1,\n "a": 2}', 2, 4],
    ['a control character in a string', 'syntax.unexpected', '{"a": "\u0001"}', 1, 8],
  ];
  for (const [name, code, text, line, column] of cases) {
    test(name, () => {
      for (const result of [validator.validateText(text), feed(validator, byteChunks(encoder.encode(String(text))))]) {
        assert.equal(result.valid, false);
        const [unit] = result.errors;
        assert.equal(unit.kind, 'syntax');
        assert.equal(unit.params?.code, code);
        assert.deepEqual([unit.line, unit.column], [line, column], unit.error);
        assert.equal(typeof unit.offset, 'number');
      }
    });
  }

  test('a repeated key is an error even where the schema would accept either value', () => {
    const result = compile(true).validateText('{"a": 1, "a": 1}');
    assert.equal(result.valid, false);
    assert.equal(result.errors[0].params?.code, 'syntax.duplicateKey');
    assert.equal(result.errors[0].instanceLocation, '/a');
  });

  test('a syntax error after the document is already invalid reports the violation (the earlier byte)', () => {
    const result = compile({type: 'string'}).validateText('[1,,]');
    assert.equal(result.errors[0].kind, 'validation');
  });

  test('offsets count UTF-8 bytes; columns count characters', () => {
    const result = validator.validateText('{"é€": x}');
    const [unit] = result.errors;
    assert.equal(unit.offset, encoder.encode('{"é€": ').length);
    assert.equal(unit.column, 8);
  });

  test('value mode: non-JSON values are errors, not exceptions', () => {
    for (const value of [undefined, NaN, Infinity, () => 1, Symbol('x'), 10n]) {
      const result = compile(true).validate(value);
      assert.equal(result.valid, false);
      assert.equal(result.errors[0].kind, 'syntax');
    }
  });
});

describe('limits turn hostile input into clear errors in both modes', () => {
  const validator = compile({}, {limits: {maxDepth: 50, maxStringLength: 1000, maxKeyLength: 10, maxProperties: 5}});

  test('defaults', () => {
    assert.equal(defaultLimits.maxDepth, 1000);
  });

  test('depth: deep nesting is a limit error, never a stack overflow', () => {
    const deep = '['.repeat(100000) + ']'.repeat(100000);
    const text = validator.validateText(deep);
    assert.equal(text.errors[0].kind, 'limit');
    assert.equal(text.errors[0].params?.code, 'limit.depth');
    let value: unknown = [];
    for (let i = 0; i < 100000; i++) value = [value];
    const parsed = validator.validate(value);
    assert.equal(parsed.errors[0].params?.code, 'limit.depth');
    // The default limit holds against the JavaScript stack too.
    assert.equal(compile({}).validateText(deep).errors[0].params?.code, 'limit.depth');
  });

  test('a raised depth limit still never overflows the stack: a failure 100,000 levels down', () => {
    const deep = compile({type: 'array', items: {$ref: '#'}}, {limits: {maxDepth: 200_000}});
    const text = '['.repeat(100_000) + '1' + ']'.repeat(100_000);
    const result = deep.validateText(text);
    assert.equal(result.valid, false);
    assert.equal(result.errors[0].keyword, 'type');
    assert.equal(result.errors[0].instanceLocation, '/0'.repeat(100_000));
    let value: unknown = 1;
    for (let i = 0; i < 100_000; i++) value = [value];
    assert.equal(deep.validate(value).errors[0].instanceLocation, '/0'.repeat(100_000));
  });

  test('a self-referencing value is stopped by the depth limit', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.equal(validator.validate(cyclic).errors[0].params?.code, 'limit.depth');
  });

  test('string, key and property count', () => {
    const cases: [string, unknown, string][] = [
      ['limit.string', 'x'.repeat(1001), JSON.stringify('x'.repeat(1001))],
      ['limit.key', {['k'.repeat(11)]: 1}, JSON.stringify({['k'.repeat(11)]: 1})],
      ['limit.properties', {a: 1, b: 2, c: 3, d: 4, e: 5, f: 6}, JSON.stringify({a: 1, b: 2, c: 3, d: 4, e: 5, f: 6})],
    ];
    for (const [code, value, text] of cases) {
      assert.equal(validator.validate(value).errors[0].params?.code, code);
      assert.equal(validator.validateText(text).errors[0].params?.code, code);
    }
  });

  test('a huge string in many chunks fails at the limit without being kept', () => {
    const session = validator.session();
    session.write('"');
    let refused = -1;
    for (let i = 0; i < 100 && refused === -1; i++) if (!session.write('y'.repeat(64))) refused = i;
    assert.ok(refused >= 0 && refused < 20, `refused at chunk ${refused}`);
    assert.equal(session.end().errors[0].params?.code, 'limit.string');
  });

  test('a $ref cycle that never descends is an error, not a hang', () => {
    const looping = compile({$defs: {a: {$ref: '#/$defs/b'}, b: {$ref: '#/$defs/a'}}, $ref: '#/$defs/a'});
    const result = looping.validate(1);
    assert.equal(result.valid, false);
    assert.equal(result.errors[0].params?.code, 'limit.recursion');
  });
});

describe('parse: the session assembles the value as JSON.parse would', () => {
  test('an invalid document has no value, with allErrors too, as from parseText', () => {
    // With allErrors the invalid document is read whole, and its value was given with its errors.
    for (const allErrors of [false, true]) {
      const strict = compile({properties: {a: {type: 'string'}}}, {allErrors});
      const session = strict.session({parse: true});
      session.write('{"a": 1, "b": 2}');
      const result = session.end();
      assert.equal(result.valid, false);
      assert.equal('value' in result, false, `allErrors: ${allErrors}`);
      assert.equal('value' in strict.parseText('{"a": 1, "b": 2}'), false);
    }
  });

  const validator = compile({type: 'object'});
  for (const text of [
    '{"__proto__": {"polluted": true}, "a": [1, 2.5e3, -0, 12345678901234567890]}',
    '{"s": "\\u00e9\\ud83d\\ude00 ünïcödé", "n": null, "t": true, "f": false}',
    '{"nested": {"deep": [{"x": [[], {}]}]}}',
  ]) {
    test(text, () => {
      const session = validator.session({parse: true});
      for (const chunk of byteChunks(encoder.encode(text))) session.write(chunk);
      const result = session.end();
      assert.equal(result.valid, true);
      assert.deepEqual(result.value, JSON.parse(text));
      assert.equal(Object.getPrototypeOf(result.value), Object.prototype);
    });
  }

  test('__proto__ is an own property, never the prototype', () => {
    const session = validator.session({parse: true});
    session.write('{"__proto__": {"polluted": true}}');
    const value = session.end().value as Record<string, unknown>;
    assert.ok(Object.prototype.hasOwnProperty.call(value, '__proto__'));
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal((value as {polluted?: unknown}).polluted, undefined);
  });

  test('no value for an invalid or broken document', () => {
    const session = validator.session({parse: true});
    session.write('[1]');
    assert.equal(session.end().value, undefined);
    const broken = validator.session({parse: true});
    broken.write('{"a": ');
    assert.equal(broken.end().value, undefined);
  });

  test('no value for a cut document whose last number fails as the input ends', () => {
    const session = compile({items: {const: 1}}).session({parse: true});
    session.write('[0');
    const result = session.end();
    assert.equal(result.valid, false);
    assert.equal(result.value, undefined);
  });
});

describe('bytesRead says how far a session read', () => {
  test('through the byte that made a syntax error, even in the first write', () => {
    for (const text of ['{"a":1,}', '[1,2] x', '"\u00e9\u00e9" 1']) {
      const session = compile({}).session();
      session.write(Buffer.from(text));
      const {errors} = session.end();
      assert.equal(session.bytesRead, errors[0]!.offset! + 1, text);
    }
  });
});
