// Differential against JSON.parse: random JSON-ish texts (valid JSON, then mutated: characters
// deleted, structural and control characters inserted, lone surrogates by escape and as they are,
// U+2028, numbers with leading zeros or past double range, whitespace JSON allows and whitespace
// it does not) get from validateText under compile({}) JSON.parse's verdict, save the listed
// exceptions (test/fixtures/jsontestsuite/cases.ts).

import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import fc from 'fast-check';

import {compile} from '../src/index.js';
import type {Result} from '../src/types.js';
import {reference, referenceOfBytes} from './fixtures/jsontestsuite/cases.js';
import {property} from './support/property.js';

const encoder = new TextEncoder();

const whitespace = fc.oneof(
  {weight: 20, arbitrary: fc.constantFrom('', '', ' ', '\t', '\n', '\r\n', '  ')},
  // Whitespace to JavaScript or Unicode, not to RFC 8259 §2.
  {weight: 1, arbitrary: fc.constantFrom('\v', '\f', '\u00a0', '\ufeff', '\u2028', '\u2029', '\u3000', '\u0085', '\u0000')},
);

const digits = fc.array(fc.constantFrom(...'0123456789'), {minLength: 1, maxLength: 25}).map((list) => list.join(''));

const numberText = fc.oneof(
  {weight: 4, arbitrary: fc
    .tuple(fc.constantFrom('', '-'), fc.oneof(fc.constant('0'), fc.tuple(fc.constantFrom(...'123456789'), fc.option(digits, {nil: ''})).map(([first, rest]) => first + rest)), fc.option(digits.map((fraction) => `.${fraction}`), {nil: ''}), fc.option(fc.tuple(fc.constantFrom('e', 'E', 'e+', 'E-', 'e-'), digits).map(([mark, exponent]) => mark + exponent), {nil: ''}))
    .map((parts) => parts.join(''))},
  {weight: 1, arbitrary: fc.constantFrom('01', '-01', '00', '-00', '.5', '5.', '1.e3', '1e', '1e+', '+1', '0x10', 'Infinity', '-Infinity', 'NaN', '-', '1_000', '1E400', '-1e-400', '123456789012345678901234567890', '-0', '0.1e-999', '1.0E+2', '٣', '１')},
);

const stringPart = fc.oneof(
  {weight: 12, arbitrary: fc.constantFrom('a', 'Z', ' ', 'é', '€', '𝄞', '/', "'", '日本')},
  {weight: 6, arbitrary: fc.constantFrom('\\n', '\\"', '\\\\', '\\/', '\\b', '\\f', '\\r', '\\t', '\\u0041', '\\u00e9', '\\uD834\\uDD1E')},
  // Lone surrogates, by escape (JSON allows them) and as they are (one UTF-16 code unit).
  {weight: 2, arbitrary: fc.constantFrom('\\uD800', '\\uDFAA', '\\uDFAA\\uD800', '\\uD800\\u1234', '\ud800', '\udfff')},
  {weight: 1, arbitrary: fc.constantFrom('\\x41', '\\u12', '\\U0041', "\\'", '\\a', '\\u00G0', '\\0', '\\')},
  {weight: 1, arbitrary: fc.oneof(fc.integer({min: 0, max: 0x1f}).map((code) => String.fromCharCode(code)), fc.constantFrom('\u007f', '\u2028', '\u2029'))},
);
const stringText = fc.array(stringPart, {maxLength: 6}).map((parts) => `"${parts.join('')}"`);

/** Few names, so that objects often repeat one. */
const key = fc.oneof({weight: 6, arbitrary: fc.constantFrom('"a"', '"b"', '"__proto__"', '""', '"\\u0061"')}, {weight: 1, arbitrary: stringText});

const {value: valueText} = fc.letrec<{value: string; array: string; object: string}>((tie) => ({
  value: fc.oneof(
    {depthSize: 'small', withCrossShrink: true},
    numberText,
    stringText,
    fc.constantFrom('true', 'false', 'null', 'true', 'false', 'null', 'True', 'nul', 'undefined'),
    tie('array'),
    tie('object'),
  ),
  array: fc
    .tuple(whitespace, fc.array(fc.tuple(whitespace, tie('value'), whitespace), {maxLength: 4}))
    .map(([inside, items]) => `[${items.length === 0 ? inside : items.map((parts) => parts.join('')).join(',')}]`),
  object: fc
    .tuple(whitespace, fc.array(fc.tuple(whitespace, key, whitespace, whitespace, tie('value'), whitespace), {maxLength: 4}))
    .map(([inside, members]) => `{${members.length === 0 ? inside : members.map(([a, name, b, c, value, d]) => `${a}${name}${b}:${c}${value}${d}`).join(',')}}`),
}));

const insertions = ['{', '}', '[', ']', ',', ':', '"', '\\', '\u0000', '\n', '\u2028', '\ufeff', '0', '-', 'e', '.', ' ', 'u'];

/** A change at a position (taken modulo the text's length): delete, insert, or repeat a slice. */
const mutation = fc.oneof(
  fc.tuple(fc.constant('delete' as const), fc.nat(), fc.integer({min: 1, max: 3})),
  fc.tuple(fc.constant('insert' as const), fc.nat(), fc.constantFrom(...insertions)),
  fc.tuple(fc.constant('repeat' as const), fc.nat(), fc.integer({min: 1, max: 8})),
);

function mutate(text: string, [kind, position, argument]: ['delete' | 'repeat', number, number] | ['insert', number, string]): string {
  const at = position % (text.length + 1);
  if (kind === 'insert') return text.slice(0, at) + argument + text.slice(at);
  if (kind === 'delete') return text.slice(0, at) + text.slice(at + argument);
  return text.slice(0, at) + text.slice(at, at + argument) + text.slice(at);
}

const jsonish = fc
  .tuple(whitespace, valueText, whitespace, fc.oneof(fc.constant([]), fc.array(mutation, {maxLength: 2})))
  .map(([before, value, after, mutations]) => mutations.reduce(mutate, before + value + after));

/** A refusal is one input error; a repeated key is refused as one, by name. */
function checkRefusal(result: Result, exception: string | undefined, text: string): void {
  if (result.valid) return;
  assert.equal(result.errors.length, 1, text);
  assert.ok(result.errors[0]!.kind === 'syntax' || result.errors[0]!.kind === 'limit', text);
  if (exception === 'repeated key') assert.equal(result.errors[0]!.params?.code, 'syntax.duplicateKey', text);
}

describe('validateText agrees with JSON.parse on random JSON-ish text', () => {
  const anything = compile({});

  it('the text: the verdict is JSON.parse\'s, and on success so is the value', () => {
    fc.assert(
      fc.property(jsonish, (text) => {
        const expected = reference(text);
        const result = anything.validateText(text);
        assert.equal(result.valid, expected.valid, `${JSON.stringify(text)}: JSON.parse ${expected.parses ? 'accepts' : 'refuses'} it${expected.exception === undefined ? '' : ` (${expected.exception})`}`);
        checkRefusal(result, expected.exception, JSON.stringify(text));
        const parsed = anything.parseText(text);
        assert.equal(parsed.valid, result.valid, JSON.stringify(text));
        if (parsed.valid) assert.deepEqual(parsed.value, expected.value, JSON.stringify(text));
      }),
      property(1000),
    );
  });

  it('its UTF-8 bytes: the verdict is JSON.parse\'s on them decoded, however they are cut', () => {
    fc.assert(
      fc.property(jsonish, fc.array(fc.nat(), {maxLength: 4}), (text, cuts) => {
        const bytes = encoder.encode(text);
        const expected = referenceOfBytes(bytes);
        const result = anything.validateText(bytes);
        assert.equal(result.valid, expected.valid, `${JSON.stringify(text)} as bytes${expected.exception === undefined ? '' : ` (${expected.exception})`}`);
        checkRefusal(result, expected.exception, JSON.stringify(text));
        const session = anything.session();
        let from = 0;
        for (const at of cuts.map((cut) => cut % (bytes.length + 1)).sort((a, b) => a - b)) {
          session.write(bytes.subarray(from, at));
          from = at;
        }
        session.write(bytes.subarray(from));
        assert.deepEqual(session.end(), result, `${JSON.stringify(text)} cut at ${cuts.join(', ')}`);
      }),
      property(500),
    );
  });
});
