// src/engine/scalar.ts: a number held as a range of its text is read in place where that is exact.
// Whatever the text, it must be the number Number() makes of it and integer exactly when its text
// says so (src/json/numbers.ts). A string's lengths are read in place too.

import assert from 'node:assert/strict';
import {test} from 'node:test';
import fc from 'fast-check';
import {HeldScalar} from '../src/engine/scalar.js';
import {compareTiedNumberText, isIntegerText, numberTextsEqual, parseDecimal} from '../src/json/numbers.js';
import {property} from './support/property.js';

const digits = (min: number, max: number) => fc.array(fc.integer({min: 0, max: 9}), {minLength: min, maxLength: max}).map((list) => list.join(''));

/** JSON number text (RFC 8259 §6), short and long, with and without fraction and exponent. */
const numberText = fc
  .tuple(
    fc.boolean(),
    fc.oneof(fc.constant('0'), fc.tuple(fc.integer({min: 1, max: 9}), digits(0, 17)).map(([first, rest]) => `${first}${rest}`)),
    fc.option(digits(1, 17), {nil: undefined}),
    fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits(1, 3)).map((parts) => parts.join('')), {nil: undefined, freq: 4}),
  )
  .map(([negative, whole, fraction, exponent]) => `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : '.' + fraction}${exponent ?? ''}`);

test('one HeldScalar given numbers every way it is given them, in any order, reads each as itself', () => {
  // What was read of one number must not outlive it: a number held next as a range, as text (the
  // Tokenizer's) or as a double (value mode) is read afresh.
  const held = new HeldScalar();
  const ways = ['range', 'text', 'double'] as const;
  fc.assert(
    fc.property(fc.array(fc.tuple(numberText, fc.constantFrom(...ways), fc.boolean()), {minLength: 1, maxLength: 8}), (numbers) => {
      for (const [text, way, integerFirst] of numbers) {
        const hold = (): void => {
          if (way === 'range') held.holdRange(` ${text},`, 1, 1 + text.length, false);
          else if (way === 'text') held.holdNumberText(text);
          else held.holdDouble(Number(text));
        };
        hold();
        // isInteger may read the value first, and number() then take what it read.
        if (integerFirst && way !== 'double') assert.equal(held.isInteger(), isIntegerText(text), `${text} held as ${way}`);
        assert.ok(Object.is(held.number(), Number(text)), `${text} held as ${way}: ${held.number()}`);
        hold();
        // Above 0: a double held is its double; text is its exact decimal (1e-400 is above 0, though its double is 0).
        const decimal = parseDecimal(text)!;
        const positive = way === 'double' ? Number(text) > 0 : !decimal.negative && decimal.coefficient !== '0';
        assert.equal(held.compareNumber(0, parseDecimal('0')) > 0, positive, `${text} held as ${way} against 0`);
      }
    }),
    property(2000),
  );
});

test('a number held as a range reads as Number() of its text, and is an integer as its text says', () => {
  const held = new HeldScalar();
  fc.assert(
    fc.property(numberText, fc.string({maxLength: 3}), (text, around) => {
      const source = around + text + around;
      held.holdRange(source, around.length, around.length + text.length, false);
      assert.ok(Object.is(held.number(), Number(text)), `${text}: ${held.number()} against ${Number(text)}`);
      held.holdRange(source, around.length, around.length + text.length, false);
      assert.equal(held.isInteger(), isIntegerText(text), text);
    }),
    property(2000),
  );
  // The edges of the fast path: 15 characters, a fraction of 14 digits, -0 and halfway cases.
  for (const text of ['999999999999999', '-99999999999999', '0.1', '0.3', '-0', '-0.0', '9007199254740993', '0.00000000000001', '1.00000000000001', '123456789012.345']) {
    held.holdRange(text, 0, text.length, false);
    assert.ok(Object.is(held.number(), Number(text)), text);
  }
});

test('a number tied with a limit in its double compares as its exact decimal does, short texts without reading it', () => {
  // HeldScalar.numberShort: a text of at most 15 digits has the value of its double's shortest decimal.
  const held = new HeldScalar();
  const sign = (order: number): number => (order > 0 ? 1 : order < 0 ? -1 : 0);
  const judge = (text: string, limit: number): void => {
    const decimal = parseDecimal(String(limit));
    held.holdRange(text, 0, text.length, false);
    const order = Number(text) === limit ? compareTiedNumberText(text, decimal) : Number(text) - limit;
    assert.equal(sign(held.compareNumber(limit, decimal)), sign(order), `${text} against ${limit}`);
    held.holdRange(text, 0, text.length, false);
    assert.equal(held.numberEquals(limit), Number(text) === limit && numberTextsEqual(text, String(limit)), `${text} equals ${limit}`);
  };
  fc.assert(
    fc.property(numberText, numberText, (text, other) => {
      if (!Number.isFinite(Number(text)) || !Number.isFinite(Number(other))) return;
      judge(text, Number(text));
      judge(text, Number(other));
    }),
    property(2000),
  );
  for (const [text, limit] of [['0.1', 0.1], ['0.10', 0.1], ['1.50', 1.5], ['-0', 0], ['0.30000000000000004', 0.30000000000000004], ['0.3', 0.30000000000000004], ['0.1000000000000000000001', 0.1], ['9007199254740993', 9007199254740992], ['100000000000000', 1e14]] as const) {
    judge(text, limit);
  }
});

test('a string held as a range of its text or whole has the same lengths; lone surrogates count one code point each', () => {
  for (const text of ['', 'abc', '😀', 'a😀b😀', '\ud83d', '\ude00', '\ude00\ud83d', '\ud83d\ud83d\ude00', 'e\u0301', 'x😀y', 'ü', 'a\ud83db']) {
    const whole = new HeldScalar();
    whole.text = text;
    const ranged = new HeldScalar();
    ranged.holdRange(`["${text}","😀"]`, 2, 2 + text.length, false);
    for (const held of [whole, ranged]) {
      assert.equal(held.codePoints(), [...text].length, JSON.stringify(text));
      assert.equal(held.units, text.length, JSON.stringify(text));
    }
  }
  // A pair cut by the range's end: its first half counts as one, what follows the range not at all.
  const cut = new HeldScalar();
  cut.holdRange('a😀', 0, 2, false);
  assert.equal(cut.codePoints(), 2);
});
