// A string value where every schema applied judges strings by their kind alone is judged at its
// opening quote (src/engine/judgedByKind.ts, Evaluator.stringBegins): a session refuses a long
// string of the wrong kind there, not at its closing quote, and the error says the same place
// however the text was cut. Where they judge it by its kind and a bound on its length
// (`maxLength`, `minLength`), it is judged as it grows past the bound (Evaluator.stringGrows),
// and its errors are at its opening quote too. An array's item that is a string is announced at
// its opening quote too, so that what its item hooks decide (`maxItems`, `items: false`...) is
// decided there.

import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import {compile, tokenValidator} from '../src/index.js';
import {stringsAlikePast} from '../src/engine/judgedByKind.js';
import {compileSchema} from '../src/compile/compile.js';
import {feed} from './support/chunks.js';
import type {CompileOptions, Result} from '../src/types.js';

const LONG = 'x'.repeat(1 << 20);

/** A session given `pieces`: what each write said, how far it read, and its result. */
function session(schema: unknown, pieces: readonly string[], options: CompileOptions = {}): {writes: boolean[]; bytesRead: number; result: Result} {
  const validator = compile(schema, options);
  const document = validator.session();
  const writes = pieces.map((piece) => document.write(piece));
  return {writes, bytesRead: document.bytesRead, result: document.end()};
}

describe('which schemas judge strings by their kind alone', () => {
  // By its kind alone: every string, of any length, gets one verdict.
  const judged = (schema: unknown, options: CompileOptions = {}): boolean => stringsAlikePast(compileSchema(schema, options).root) < 0;
  it('type, numeric keywords, enum and const without strings, number formats, false and true', () => {
    for (const schema of [{type: 'number'}, {type: ['integer', 'null'], minimum: 0, maximum: 9, multipleOf: 2}, {enum: [1, null]}, {const: 3}, false, true, {}]) {
      assert.equal(judged(schema), true, JSON.stringify(schema));
    }
    const int32 = {type: 'number' as const, validate: (value: number) => Number.isInteger(value) && Math.abs(value) < 2 ** 31};
    assert.equal(judged({format: 'int32'}, {formats: 'assert', customFormats: {int32}}), true);
  });
  it('and what they apply in place, when all of it does', () => {
    assert.equal(judged({anyOf: [{type: 'number'}, {type: 'null'}], not: {type: 'string'}}), true);
    assert.equal(judged({$ref: '#/$defs/n', $defs: {n: {type: 'integer'}}}), true);
    assert.equal(judged({if: {type: 'number'}, then: {minimum: 1}, else: {type: 'null'}}), true);
    assert.equal(judged({$ref: '#/$defs/n', $defs: {n: {type: 'string', minLength: 1}}}), false);
    assert.equal(judged({anyOf: [{type: 'number'}, {pattern: '^a'}]}), false);
  });
  it('not what reads the text, the caller\'s code, the dynamic scope or a rewritten error', () => {
    assert.equal(judged({type: 'number', maxLength: 3}), false);
    assert.equal(judged({enum: ['a', 1]}), false);
    assert.equal(judged({format: 'date'}, {formats: 'assert'}), false);
    assert.equal(judged({format: 'even'}, {formats: 'assert', customFormats: {even: (text: string) => text.length % 2 === 0}}), false);
    assert.equal(judged({type: 'number', errorMessage: 'a number'}, {allErrors: true, errorMessages: true}), false);
    assert.equal(judged({$dynamicRef: '#n', $defs: {n: {$dynamicAnchor: 'n', type: 'number'}}}), false);
    const custom = {keyword: 'even', type: 'number' as const, validate: (value: unknown) => (value as number) % 2 === 0};
    assert.equal(judged({type: 'number', even: true}, {keywords: [custom]}), false);
  });
});

describe('a string of the wrong kind is refused at its opening quote', () => {
  it('in a session, a member or the document itself, after reading through the quote only', () => {
    const member = session({properties: {a: {type: 'number'}}}, ['{"a": "', LONG, LONG, '"}']);
    assert.deepEqual(member.writes, [false, false, false, false]);
    assert.equal(member.bytesRead, '{"a": "'.length);
    assert.equal(member.result.errors[0]!.offset, '{"a": '.length);
    const root = session({type: ['number', 'null']}, ['"', LONG, '"']);
    assert.deepEqual(root.writes, [false, false, false]);
    assert.equal(root.bytesRead, 1);
    assert.equal(root.result.errors[0]!.offset, 0);
  });

  it('and validateText says the same place, as does every cut of the text', () => {
    const schema = {properties: {a: {anyOf: [{type: 'integer', minimum: 0}, {enum: [null]}]}, b: {type: 'string'}}};
    const text = '{"b": "x", "a": "a string", "c": 1}';
    const validator = compile(schema);
    const whole = validator.validateText(text);
    assert.equal(whole.valid, false);
    assert.equal(whole.errors[0]!.offset, text.indexOf('"a string"'));
    for (let cut = 1; cut < text.length; cut++) {
      assert.deepEqual(feed(validator, [text.slice(0, cut), text.slice(cut)]).errors, whole.errors, `cut at ${cut}`);
    }
  });

  it('before any input error inside the string: the kind\'s error, whole or cut anywhere', () => {
    // The quote made the document invalid before the string broke a limit or the syntax.
    const validator = compile({properties: {a: {type: 'number'}}}, {limits: {maxStringLength: 2}});
    for (const text of ['{"a": "admin"}', '{"a": "ab\u0001"}', '{"a": "a\\q"}', '{"a": "ab']) {
      const whole = validator.validateText(text);
      assert.deepEqual(whole.errors.map((unit) => [unit.keyword, unit.offset]), [['type', 6]], text);
      for (let cut = 1; cut < text.length; cut++) {
        assert.deepEqual(feed(validator, [text.slice(0, cut), text.slice(cut)]).errors, whole.errors, `${text} cut at ${cut}`);
      }
    }
    // Where the kind is right, the input error stands.
    const strings = compile({properties: {a: {type: 'string'}}}, {limits: {maxStringLength: 2}});
    assert.equal(strings.validateText('{"a": "admin"}').errors[0]!.params!['code'], 'limit.string');
  });

  it('an array\'s item, and what its announcement decides, in a session, in validateText and at every cut', () => {
    const item = session({items: {type: 'number'}}, ['[1, "', LONG, '"]']);
    assert.deepEqual(item.writes, [false, false, false]);
    assert.equal(item.bytesRead, '[1, "'.length);
    assert.equal(item.result.errors[0]!.offset, '[1, '.length);
    const cases: [unknown, string][] = [
      [{items: {type: 'number'}}, '[1, "two", 3]'],
      [{maxItems: 1}, '[1, "a string"]'],
      [{prefixItems: [{type: 'integer'}], items: false}, '[1, "a string"]'],
      [{type: 'array', contains: {type: 'integer'}, maxContains: 1, items: {type: ['integer', 'string']}}, '[1, 2, "x"]'],
      [{prefixItems: [true], unevaluatedItems: false}, '[1, "a string"]'],
      [{items: {anyOf: [{type: 'number'}, {type: 'null'}]}}, '[[1], ["x"], 2]'],
      [{properties: {a: {items: {type: 'boolean'}, maxItems: 2}}}, '{"a": [true, "x", "y"]}'],
      // Announced at the quote, judged at the closing one: the text is read (pattern) or hashed.
      [{items: {type: 'string', pattern: '^a'}, maxItems: 2}, '["a", "bcd", "e"]'],
      [{uniqueItems: true, items: {type: 'number'}}, '[1, "x"]'],
    ];
    for (const [schema, text] of cases) {
      for (const allErrors of [false, true]) {
        const validator = compile(schema, {allErrors});
        const whole = validator.validateText(text);
        assert.equal(whole.valid, false, text);
        for (let cut = 1; cut < text.length; cut++) {
          assert.deepEqual(feed(validator, [text.slice(0, cut), text.slice(cut)]).errors, whole.errors, `${JSON.stringify(schema)} ${text} cut at ${cut}, allErrors ${allErrors}`);
        }
      }
    }
    // maxItems decided at the third item's opening quote.
    const third = compile({maxItems: 2}).validateText('[1, 2, "three"]');
    assert.equal(third.errors[0]!.offset, '[1, 2, '.length);
  });

  it('a string that passes by its kind is delivered once, and a parsing session keeps its text', () => {
    const schema = {properties: {a: {minimum: 0}}, required: ['a'], maxProperties: 2};
    const passing = session(schema, ['{"a": "', 'some text', '", "b": 2}']);
    assert.deepEqual(passing.writes, [true, true, true]);
    assert.equal(passing.result.valid, true);
    const validator = compile(schema);
    const parsing = validator.session({parse: true});
    for (const piece of ['{"a": "', 'some text', '"}']) parsing.write(piece);
    assert.deepEqual(parsing.end(), {valid: true, errors: [], value: {a: 'some text'}});
    // Still one value: a third member is refused by maxProperties at its key, not before.
    const third = session(schema, ['{"a": "', 'x', '", "b": 2, "c": 3}']);
    assert.equal(third.result.errors[0]!.keyword, 'maxProperties');
  });
});

describe('where a string is still judged at its closing quote', () => {
  const closing = (schema: unknown, head: string, tail: string, options?: CompileOptions): void => {
    const {writes, bytesRead, result} = session(schema, [head + '"', LONG, '"' + tail], options);
    assert.deepEqual(writes, [true, true, false], JSON.stringify(schema));
    assert.equal(bytesRead, head.length + LONG.length + 2, JSON.stringify(schema));
    assert.equal(result.valid, false);
  };
  it('where a keyword reads the text', () => closing({properties: {a: {type: 'number', pattern: '^y'}}}, '{"a": ', '}'));
  it('under the value options, which may change the value first', () => closing({properties: {a: {type: 'number'}}}, '{"a": ', '}', {coerceTypes: true}));
  it('when annotations are collected', () => closing({properties: {a: {type: 'number'}}}, '{"a": ', '}', {annotations: true}));
  it('in an object whose fingerprint is wanted (an item of a uniqueItems array)', () => closing({uniqueItems: true, items: {properties: {a: {type: 'number'}}}}, '[{"a": ', '}]'));
});

describe('a string past the length its schemas bound (maxLength, minLength, the longest string of an enum) is refused as it grows past it', () => {
  const bound = (schema: unknown): number => stringsAlikePast(compileSchema(schema, {}).root);
  it('maxLength n and minLength n bound at n and n − 1, with the kind, through what applies in place', () => {
    assert.equal(bound({maxLength: 5}), 5);
    assert.equal(bound({minLength: 3}), 2);
    assert.equal(bound({type: 'string', minLength: 2, maxLength: 5}), 5);
    assert.equal(bound({anyOf: [{maxLength: 3}, {type: 'number'}], not: {maxLength: 8}}), 8);
    assert.equal(bound({type: 'number'}), -1);
    assert.equal(bound({maxLength: 5, pattern: '^a'}), Infinity);
    // No string longer than the longest string literal equals one.
    assert.equal(bound({enum: ['user', 'admin', 1]}), 5);
    assert.equal(bound({anyOf: [{maxLength: 3}, {const: 'a'}]}), 3);
    assert.equal(bound({anyOf: [{maxLength: 3}, {pattern: 'a'}]}), Infinity);
  });

  it('in a session, a member, an item or the document, after reading past the bound only', () => {
    const member = session({properties: {a: {type: 'string', maxLength: 10}}}, ['{"a": "', LONG, LONG, '"}']);
    assert.deepEqual(member.writes, [true, false, false, false]);
    assert.ok(member.bytesRead < LONG.length, `read ${member.bytesRead}`);
    assert.deepEqual(member.result.errors.map((unit) => [unit.keyword, unit.offset]), [['maxLength', '{"a": '.length]]);
    const item = session({items: {maxLength: 3}}, ['["ab', 'cdefgh', LONG, '"]']);
    assert.deepEqual(item.writes, [true, false, false, false]);
    const role = session({properties: {role: {enum: ['user', 'admin']}}}, ['{"role": "', LONG, LONG, '"}']);
    assert.deepEqual(role.writes, [true, false, false, false]);
    assert.deepEqual(role.result.errors.map((unit) => [unit.keyword, unit.offset]), [['enum', '{"role": '.length]]);
    const root = session({maxLength: 3}, ['"abcdefg', LONG, '"']);
    assert.deepEqual(root.writes, [false, false, false]);
    // Within an anyOf, it is the branch that is decided: the anyOf fails once every branch has.
    const branches = session({anyOf: [{maxLength: 3}, {type: 'number'}]}, ['"abcdefg', LONG, '"']);
    assert.deepEqual(branches.writes, [false, false, false]);
  });

  it('bytesRead after the refusal ends past the character that took the string past its bound, however the bytes are cut', () => {
    // The third emoji (bytes 10 to 13) is the string's fifth and sixth code unit.
    const bytes = Buffer.from('["😀😀😀😀"]');
    const validator = compile({items: {maxLength: 2}});
    for (const size of [1, 2, 3, 5, 7]) {
      const document = validator.session();
      for (let at = 0; at < bytes.length; at += size) document.write(bytes.subarray(at, at + size));
      assert.equal(document.failed, true);
      assert.equal(document.bytesRead, 14, `chunks of ${size}`);
    }
  });

  it('and the same strings pass where every such string passes', () => {
    for (const schema of [{minLength: 3}, {not: {maxLength: 3}}, {anyOf: [{maxLength: 3}, {type: 'string'}]}]) {
      const {writes, result} = session(schema, ['"abcdefg', LONG, '"']);
      assert.deepEqual(writes, [true, true, true], JSON.stringify(schema));
      assert.equal(result.valid, true, JSON.stringify(schema));
    }
  });

  it('a code point is counted once, however many code units: no string within the bound is refused early', () => {
    // 4 code points of 2 code units each: within maxLength 4 at every cut, past maxLength 3.
    const text = '"😀😀😀😀"';
    for (const [limit, valid] of [[4, true], [3, false]] as const) {
      for (let cut = 1; cut < text.length; cut++) {
        const {result} = session({maxLength: limit}, [text.slice(0, cut), text.slice(cut)]);
        assert.equal(result.valid, valid, `maxLength ${limit}, cut at ${cut}`);
      }
    }
  });

  it('every cut of a text gives validateText\'s errors, with and without allErrors', () => {
    const schemas = [
      {properties: {a: {type: 'string', maxLength: 4}, b: {minLength: 2, maxLength: 6}}},
      {properties: {a: {enum: ['abcd', 'é😀', 1]}, b: {not: {const: 'x'}}}},
      {items: {anyOf: [{maxLength: 2}, {type: 'number'}]}},
      {type: 'array', items: {not: {minLength: 5}}},
    ];
    const texts = ['{"a": "abcdefgh", "b": "x"}', '{"a": "ab\\u00e9cdé😀f", "b": "abcdefgh"}', '["abc", 1, "ab", "abcdefghij"]', '["a", "abcdef"]'];
    for (const schema of schemas) {
      for (const allErrors of [false, true]) {
        const validator = compile(schema, {allErrors});
        for (const text of texts) {
          const whole = validator.validateText(text);
          for (let cut = 1; cut < text.length; cut++) {
            const {valid, errors} = feed(validator, [text.slice(0, cut), text.slice(cut)]);
            assert.deepEqual({valid, errors}, whole, `${JSON.stringify(schema)} ${allErrors} ${text} cut at ${cut}`);
          }
        }
      }
    }
  });

  it('an input error inside a string is reported after its length so far, as every cut reports it', () => {
    // Found by an outside attack: a cut past the bound judged the string, where the whole text
    // reached the bad escape, control character, string limit or end first and reported that alone.
    const cases: [unknown, string, CompileOptions, string][] = [
      [{maxLength: 0}, '"x\\q"', {}, 'maxLength'],
      [{maxLength: 0}, '"x\u0001"', {}, 'maxLength'],
      [{maxLength: 2}, '"abcdefgh"', {limits: {maxStringLength: 7}}, 'maxLength'],
      [{type: 'integer', maxLength: 2}, '"abcde\\q"', {}, 'type'],
      [{properties: {a: {maxLength: 2}}}, '{"a":"abcde\\q"}', {allErrors: true}, 'maxLength'],
      [{maxLength: 3}, '"abcdefghijklmnop\\q"', {}, 'maxLength'],
      [{maxLength: 2}, '"abcde', {}, 'maxLength'],
    ];
    for (const [schema, text, options, first] of cases) {
      const validator = compile(schema, options);
      const whole = validator.validateText(text);
      assert.equal(whole.errors[0]!.keyword, first, `${text}: ${JSON.stringify(whole.errors)}`);
      for (let cut = 1; cut < text.length; cut++) {
        const {valid, errors} = feed(validator, [text.slice(0, cut), text.slice(cut)]);
        assert.deepEqual({valid, errors}, whole, `${JSON.stringify(schema)} ${text} cut at ${cut}`);
      }
    }
  });

  it('stream-json tokens: a streamed string is refused at the chunk that takes it past the bound', () => {
    const document = tokenValidator(compile({properties: {a: {maxLength: 3}}}));
    for (const token of [{name: 'startObject'}, {name: 'keyValue', value: 'a'}, {name: 'startString'}, {name: 'stringChunk', value: 'ab'}]) assert.equal(document.push(token), true);
    assert.equal(document.push({name: 'stringChunk', value: 'cdefgh'}), false);
    assert.deepEqual(document.end().errors.map((unit) => unit.keyword), ['maxLength']);
  });
});
