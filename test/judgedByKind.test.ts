// A string value where every schema applied judges strings by their kind alone is judged at its
// opening quote (src/engine/judgedByKind.ts, Evaluator.stringBegins): a session refuses a long
// string of the wrong kind there, not at its closing quote, and the error says the same place
// however the text was cut. An array's item that is a string is announced at its opening quote
// too, so that what its item hooks decide (`maxItems`, `items: false`...) is decided there.

import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import {compile} from '../src/index.js';
import {judgesStringsByKind} from '../src/engine/judgedByKind.js';
import {compileSchema} from '../src/compile/compile.js';
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
  const judged = (schema: unknown, options: CompileOptions = {}): boolean => judgesStringsByKind(compileSchema(schema, options).root);
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
      const document = validator.session();
      document.write(text.slice(0, cut));
      document.write(text.slice(cut));
      assert.deepEqual(document.end().errors, whole.errors, `cut at ${cut}`);
    }
  });

  it('before any input error inside the string: the kind\'s error, whole or cut anywhere', () => {
    // The quote made the document invalid before the string broke a limit or the syntax.
    const validator = compile({properties: {a: {type: 'number'}}}, {limits: {maxStringLength: 2}});
    for (const text of ['{"a": "admin"}', '{"a": "ab\u0001"}', '{"a": "a\\q"}', '{"a": "ab']) {
      const whole = validator.validateText(text);
      assert.deepEqual(whole.errors.map((unit) => [unit.keyword, unit.offset]), [['type', 6]], text);
      for (let cut = 1; cut < text.length; cut++) {
        const document = validator.session();
        document.write(text.slice(0, cut));
        document.write(text.slice(cut));
        assert.deepEqual(document.end().errors, whole.errors, `${text} cut at ${cut}`);
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
          const document = validator.session();
          document.write(text.slice(0, cut));
          document.write(text.slice(cut));
          assert.deepEqual(document.end().errors, whole.errors, `${JSON.stringify(schema)} ${text} cut at ${cut}, allErrors ${allErrors}`);
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
  it('where a keyword reads the text', () => closing({properties: {a: {type: 'number', maxLength: 3}}}, '{"a": ', '}'));
  it('under the value options, which may change the value first', () => closing({properties: {a: {type: 'number'}}}, '{"a": ', '}', {coerceTypes: true}));
  it('when annotations are collected', () => closing({properties: {a: {type: 'number'}}}, '{"a": ', '}', {annotations: true}));
  it('in an object whose fingerprint is wanted (an item of a uniqueItems array)', () => closing({uniqueItems: true, items: {properties: {a: {type: 'number'}}}}, '[{"a": ', '}]'));
});
