// Tests for src/json/scanner.ts: whatever the scanner accepts, the Tokenizer accepts too, with the
// same tokens; what the Tokenizer accepts within the limits, the scanner accepts. A pass of
// validateText rests on the first; the second only keeps the fast path fast.

import {test} from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {TextScanner, decodeString, type RangeSink} from '../src/json/scanner.js';
import {numberEnd} from '../src/json/numbers.js';
import {defaultLimits} from '../src/json/limits.js';
import {Tokenizer} from '../src/json/tokenizer.js';
import type {Limits, TokenSink} from '../src/types.js';
import {drafts, suiteFiles} from './support/suite.js';
import {property} from './support/property.js';

type Token = readonly [string, string?];

class Recorder implements TokenSink, RangeSink {
  readonly tokens: Token[] = [];
  startObject(): void {
    this.tokens.push(['startObject']);
  }
  endObject(): void {
    this.tokens.push(['endObject']);
  }
  startArray(): void {
    this.tokens.push(['startArray']);
  }
  endArray(): void {
    this.tokens.push(['endArray']);
  }
  keyValue(key: string): void {
    this.tokens.push(['keyValue', key]);
  }
  stringValue(value: string): void {
    this.tokens.push(['stringValue', value]);
  }
  numberValue(text: string): void {
    this.tokens.push(['numberValue', text]);
  }
  nullValue(): void {
    this.tokens.push(['nullValue']);
  }
  trueValue(): void {
    this.tokens.push(['trueValue']);
  }
  falseValue(): void {
    this.tokens.push(['falseValue']);
  }
  keyAt(text: string, from: number, to: number, escaped: boolean): void {
    this.keyValue(escaped ? decodeString(text, from, to) : text.slice(from, to));
  }
  stringAt(text: string, from: number, to: number, escaped: boolean): void {
    this.stringValue(escaped ? decodeString(text, from, to) : text.slice(from, to));
  }
  numberAt(text: string, from: number, to: number): void {
    this.numberValue(text.slice(from, to));
  }
  /** The keys of the objects in a value skipped, by depth. */
  readonly keys: Set<string>[] = [];
  openKeys(depth: number): void {
    this.keys[depth] = new Set();
  }
  addKey(depth: number, key: string): boolean {
    const keys = this.keys[depth]!;
    return keys.size < keys.add(key).size;
  }
}

/** The Tokenizer's tokens for `text`, or undefined when it refuses it. */
function tokenized(text: string, limits: Required<Limits>): Token[] | undefined {
  const sink = new Recorder();
  const tokenizer = new Tokenizer(sink, limits);
  try {
    tokenizer.write(text);
    tokenizer.end();
  } catch {
    return undefined;
  }
  return sink.tokens;
}

function scanned(text: string, limits: Required<Limits>): Token[] | undefined {
  const sink = new Recorder();
  return new TextScanner(limits).scan(text, sink) ? sink.tokens : undefined;
}

/** The scanner accepts only what the Tokenizer accepts, with its tokens; `complete`: and all of it. */
function agrees(text: string, limits: Required<Limits> = defaultLimits, complete = true): void {
  const expected = tokenized(text, limits);
  const actual = scanned(text, limits);
  if (actual !== undefined) assert.deepEqual(actual, expected, `the scanner accepted ${JSON.stringify(text)}, differently`);
  else if (complete) assert.equal(expected, undefined, `the scanner refused ${JSON.stringify(text)}, which the Tokenizer accepts`);
}

test('every data value of the JSON Schema Test Suite, compact, indented and with tabs, as the Tokenizer', () => {
  let count = 0;
  for (const draft of drafts) {
    for (const optional of [false, true]) {
      for (const file of suiteFiles(draft, optional)) {
        for (const testCase of file.cases) {
          for (const {data} of testCase.tests) {
            for (const text of [JSON.stringify(data), JSON.stringify(data, null, 2), JSON.stringify(data, null, '\t').replace(/\n/g, '\r\n')]) {
              agrees(text);
              count++;
            }
          }
        }
      }
    }
  }
  assert.ok(count > 10_000);
});

test('strings: escapes checked where no string is made, control characters refused, lone surrogates kept', () => {
  const texts = [
    '"\\x"', '"\\u12"', '"\\u12g4"', '"\\U0041"', '"\\"', '"\\', '"a\\', '"\\u', '"\\u00', '"\u0001"', '"a\nb"', '"\t"', '"\u001f"',
    '"\\u0041\\n\\t\\"\\\\\\/\\b\\f\\r"', '"\\ud800"', '"\\udc00x"', '"\\ud83d\\ude00"', '"\ud800"', '"a\\u0000b"', '"\u2028\u2029"',
    '{"a\\u0062": 1, "c": "\\u0064"}', '{"a\\x": 1}', '{"a": "b\\q"}', '["ok", "bad\\q", "ok"]', '["\\n", "a\nb"]',
    '[\n"plain",\n"with \\"quote\\"",\n"plain again"\n]', '{"k":\n"v\tw"}', '"abc', '{"a":"b}', '["a\\"]',
  ];
  for (const text of texts) agrees(text);
});

test('grammar: literals, numbers, whitespace, a leading BOM and what may follow the value', () => {
  const texts = [
    '', ' ', '\ufeff', '\ufeff1', ' \ufeff1', '1\ufeff', '\ufeff\ufeff1', '\u00a01', '01', '-01', '00', '1.', '.5', '-', '+1', '1e', '1e+', '1.e5', '-.5',
    '-0', '0.0e-0', '1E+2', '12345678901234567890', '1e999', '-1e-999', 'NaN', 'Infinity', 'tru', 'nul', 'fals', 'True', 'truefalse', 'nulll',
    'true', 'false', 'null', ' \t\r\n true \r\n', '[1,]', '{"a":1,}', '{a:1}', '{"a" 1}', '[1 2]', '{"a":1 "b":2}', '[', ']', '{', '}', '[}', '{]',
    '1 2', '[] []', '{"a":}', ',', ':', '[1]]', '[[[]]]', '{"a":{"b":{}}}', '[{}, [], "", 0, {"": ""}]', '{"a":1}x', '[1]\n\n',
  ];
  for (const text of texts) agrees(text);
});

test('limits: past each one the scanner refuses, and leaves the Tokenizer to say so', () => {
  const at = (limits: Limits): Required<Limits> => ({...defaultLimits, ...limits});
  const cases: [string, Limits][] = [
    ['[[[1]]]', {maxDepth: 3}],
    ['[[[[1]]]]', {maxDepth: 3}],
    ['{"a":{"b":{"c":{}}}}', {maxDepth: 3}],
    ['{"a":1,"b":2}', {maxProperties: 2}],
    ['{"a":1,"b":2,"c":3}', {maxProperties: 2}],
    ['{"a":1}', {maxProperties: 0}],
    ['{}', {maxProperties: 0}],
    ['["abcd", "abcde"]', {maxStringLength: 4}],
    ['["abc"]', {maxStringLength: 4}],
    ['{"abcd": "abcdef"}', {maxKeyLength: 4}],
    ['{"abcde": 1}', {maxKeyLength: 4}],
    ['[12345, 1.5e3]', {maxNumberLength: 5}],
    ['[123456]', {maxNumberLength: 5}],
    ['[1e400]', {inexactNumbers: 'reject'}],
    ['[1e-400, 0e-400]', {inexactNumbers: 'reject'}],
    ['[1e300, 0.0]', {inexactNumbers: 'reject'}],
  ];
  for (const [text, limits] of cases) agrees(text, at(limits));
  // An escaped string is measured by the Tokenizer once its text is longer than the limit: the
  // scanner may refuse it, never accept it wrongly.
  for (const text of ['["\\n\\n\\n\\n"]', '["\\n\\n\\n\\n\\n"]', '["ab\\ncd"]', '{"\\u0061bcd": 1}', '{"\\u0061bcde": 1}']) {
    agrees(text, at({maxStringLength: 4, maxKeyLength: 4}), false);
  }
});

/** Characters that matter to JSON's grammar and strings, for mutations. */
const alphabet = ['"', '\\', '/', 'u', '0', '9', 'a', 'F', 'e', 'E', '-', '+', '.', ',', ':', '[', ']', '{', '}', ' ', '\n', '\t', '\r', '\u0000', '\u001f', 't', 'n', 'f', '\ud800', '\ufeff', 'x'];

test('property: on mutated JSON texts the scanner accepts only what the Tokenizer accepts, and all of it', () => {
  const mutation = fc.tuple(fc.nat(), fc.constantFrom(...alphabet), fc.constantFrom('insert', 'replace', 'delete'));
  fc.assert(
    fc.property(fc.json({maxDepth: 4}), fc.array(mutation, {maxLength: 3}), fc.boolean(), (json, mutations, indented) => {
      let text = indented ? JSON.stringify(JSON.parse(json), null, 1) : json;
      for (const [at, character, kind] of mutations) {
        const i = text.length === 0 ? 0 : at % (text.length + 1);
        text = kind === 'insert' ? text.slice(0, i) + character + text.slice(i) : kind === 'replace' ? text.slice(0, i) + character + text.slice(i + 1) : text.slice(0, i) + text.slice(i + 1);
      }
      agrees(text);
    }),
    property(3000),
  );
});

test('property: numberEnd ends a number where RFC 8259 §6 does, on digits, signs, points and exponents in any order', () => {
  // The grammar as one regular expression, matched at the number's first character.
  const grammar = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;
  const expected = (text: string, from: number): number => {
    grammar.lastIndex = from;
    return grammar.test(text) ? grammar.lastIndex : -1;
  };
  const characters = fc.constantFrom('0', '1', '5', '9', '-', '+', '.', 'e', 'E', 'x', ' ', ',');
  fc.assert(
    fc.property(fc.array(characters, {maxLength: 12}), fc.nat(3), (pieces, prefix) => {
      const text = 'a'.repeat(prefix) + pieces.join('');
      const c = text.charCodeAt(prefix);
      // The scanner calls it only at a digit or a minus sign.
      if (!(c === 0x2d || (c >= 0x30 && c <= 0x39))) return;
      assert.equal(numberEnd(text, prefix, c), expected(text, prefix), JSON.stringify(text));
    }),
    property(5000),
  );
  for (const [text, end] of [['0', 1], ['-0', 2], ['01', 1], ['1.', 1], ['1.5', 3], ['1e', 1], ['1e+', 1], ['1e+5', 4], ['-1.25E-07x', 9], ['-', -1], ['-.5', -1], ['0.0e0', 5]] as const) {
    assert.equal(numberEnd(text, 0, text.charCodeAt(0)), end, text);
  }
});

test('stop() from a sink call ends the scan there, as a verdict', () => {
  const sink = new (class extends Recorder {
    scanner = new TextScanner(defaultLimits);
    override keyAt(text: string, from: number, to: number, escaped: boolean): void {
      super.keyAt(text, from, to, escaped);
      this.scanner.stop();
    }
  })();
  assert.equal(sink.scanner.scan('{"a": 1, "b": oops', sink), true);
  assert.deepEqual(sink.tokens, [['startObject'], ['keyValue', 'a']]);
});

test('skipValue: a value skipped delivers no token, and is refused for what the Tokenizer refuses or a repeated key', () => {
  /** Skips the values of the keys named `skip`, and the whole text when told. */
  class Skipping extends Recorder {
    readonly scanner = new TextScanner(defaultLimits);
    override keyAt(text: string, from: number, to: number, escaped: boolean): void {
      super.keyAt(text, from, to, escaped);
      if (this.tokens.at(-1)![1] === 'skip') this.scanner.skipValue();
    }
  }
  const scan = (text: string, whole = false): Token[] | undefined => {
    const sink = new Skipping();
    if (whole) sink.scanner.skipValue();
    return sink.scanner.scan(text, sink) ? sink.tokens : undefined;
  };
  assert.deepEqual(scan('{"a": 1, "skip": {"x": [1, {"y": "z"}], "w": "\\u0041"}, "b": [true]}'), [
    ['startObject'], ['keyValue', 'a'], ['numberValue', '1'], ['keyValue', 'skip'], ['keyValue', 'b'], ['startArray'], ['trueValue'], ['endArray'], ['endObject'],
  ]);
  assert.deepEqual(scan('{"skip": "s", "skip2": 2}'), [['startObject'], ['keyValue', 'skip'], ['keyValue', 'skip2'], ['numberValue', '2'], ['endObject']]);
  assert.deepEqual(scan('[{"a": 1, "b": {"a": 2}}, {"a": 3}]', true), []);
  assert.deepEqual(scan(' 17 ', true), []);
  for (const text of ['{"a": 1, "a": 2}', '[{"b": {"a": 1, "a": 2}}]', '{"\\u0061": 1, "a": 2}']) {
    assert.equal(scan(text, true), undefined, text);
    assert.equal(scan(`{"skip": ${text}}`), undefined, text);
    assert.notEqual(scan(`{"keep": ${text}}`), undefined, text);
  }
  for (const text of ['{"skip": "\\x"}', '{"skip": [1,]}', '{"skip": "a\nb"}', '{"skip": 01}', '{"skip": {"a" 1}}', '{"skip": [1]]}', '{"skip": 1']) {
    assert.equal(scan(text), undefined, text);
  }
  // A skip asked for where no value came is forgotten with the text.
  const sink = new Skipping();
  assert.equal(sink.scanner.scan('{"skip": ', sink), false);
  assert.equal(sink.scanner.scan('[1]', sink), true);
  assert.deepEqual(sink.tokens.slice(-3), [['startArray'], ['numberValue', '1'], ['endArray']]);
});
