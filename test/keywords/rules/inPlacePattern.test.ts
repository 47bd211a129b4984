// src/keywords/rules/inPlacePattern.ts: a `pattern` matched where a plain string stands in the text.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import fc from 'fast-check';
import {compile} from '../../../src/index.js';
import {inPlaceTwin} from '../../../src/keywords/rules/inPlacePattern.js';
import {property} from '../../support/property.js';

const twinOf = (source: string): RegExp | null => inPlaceTwin(new RegExp(source, 'u'));

/** The twin's verdict on `string` standing in `text` from `from`: a match that ends at its closing quote. */
function inPlaceVerdict(twin: RegExp, text: string, from: number, length: number): boolean {
  twin.lastIndex = from;
  return twin.test(text) && twin.lastIndex === from + length;
}

describe('inPlaceTwin', () => {
  test('a pattern anchored at both ends whose terms match no quote has a twin', () => {
    for (const source of ['^evt_[0-9a-z]{12}$', '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$', '^(a|b)+$', '^(?<x>a)\\k<x>$', '^[A-Z]{3}-\\d{4}$', '^\\p{Lu}\\p{Ll}*$', '^$', '^[\\b]$']) {
      assert.notEqual(twinOf(source), null, source);
    }
  });

  test('none where a term can match a quote: the match could run on past the string, over the rest of the text', () => {
    for (const source of ['^.*$', '^[^a]*$', '^[ -~]+$', '^\\x22?a$', '^\\u0022$', '^\\u{22}$', '^"$', '^\\W*$', '^\\S+$', '^\\p{P}$', '^(a|[^b])$', '^[\\s\\S]*$']) {
      assert.equal(twinOf(source), null, source);
    }
  });

  test('none where the pattern looks past the string, is not anchored at both ends, or alternates at its top', () => {
    for (const source of ['abc', '^abc', 'abc$', '^a|b$', '^a\\b$', '^(?=a)a$', '^a(?!b)$', '^(?<=x)a$', '^a$b$', '^(a$)$', '^a\\$']) {
      assert.equal(twinOf(source), null, source);
    }
    assert.equal(inPlaceTwin(/^abc$/im), null, 'flags other than u');
  });

  test('an assertion in a lookaround would look past the string: such a pattern is run on the copy', () => {
    // In place, `$` is not at the end of the input, nor `^` at its start: each of these fails on
    // "a" and would pass there.
    for (const source of ['^a(?!$)$', '^(?!^)a$', '^(?<!^)a$']) {
      const validator = compile({properties: {k: {pattern: source}}});
      const expected = new RegExp(source, 'u').test('a');
      assert.equal(validator.validateText('{"k":"a"}').valid, expected, source);
    }
  });

  // Found by an outside attack: the syntax reader took a lone high surrogate and the character
  // after it for one character, so the quote or backslash after it went unseen.
  test('a lone high surrogate in a pattern hides neither a quote nor a backslash after it', () => {
    const HS = '\ud800';
    const validator = compile({prefixItems: [{pattern: `^${HS}",$`}]});
    const text = `["${HS}","b"]`;
    assert.equal(validator.validate(JSON.parse(text)).valid, false);
    assert.equal(validator.validateText(text).valid, false);
    assert.equal(validator.parseText(text).valid, false);
    // The class hides `.*`: a twin would run over the rest of the document for every string.
    assert.equal(twinOf(`^${HS}\\[.*[\\]],$`), null);
    const nested = compile({prefixItems: [{prefixItems: [{pattern: `^${HS}\\[.*[\\]],$`}]}]});
    assert.equal(nested.validateText(`[["${HS}["],"z"]`).valid, false);
  });

  test('patterns that made the syntax reader loop compile, and get the verdict of their expression', () => {
    const HS = '\ud800';
    // A class, then a quantifier brace, read past the end of the source once the surrogate hid a backslash.
    for (const [source, string] of [[`^${HS}\\[a$`, `${HS}[a`], [`^\\d?\\D{0,2}\\)*?${HS}\\{$`, `${HS}{`]] as const) {
      const validator = compile({pattern: source});
      for (const value of [string, 'x']) assert.equal(validator.validateText(JSON.stringify(value)).valid, new RegExp(source, 'u').test(value), `${source} on ${value}`);
    }
  });

  test('a pattern nested past the reader\'s stack compiles, with no twin', () => {
    // Found by an outside attack: V8 takes it, and compile refused it as a schema nested too deeply.
    const source = `^${'('.repeat(3000)}a${')'.repeat(3000)}$`;
    assert.equal(twinOf(source), null);
    assert.equal(compile({pattern: source}).validateText('"a"').valid, true);
  });

  test('a backreference reads what its group read inside the string', () => {
    const twin = twinOf('^(a+)b\\1$')!;
    const text = '["aaba", "aabaa","x"]';
    assert.equal(inPlaceVerdict(twin, text, 2, 4), false);
    assert.equal(inPlaceVerdict(twin, text, 10, 5), true);
  });
});

// Atoms that can and cannot match a quote, assertions, and characters the text must escape.
const atom = fc.constantFrom('a', 'b', '1', '-', 'é', '😀', '\\d', '\\w', '\\W', '\\s', '.', '[a-z]', '[^a]', '[ -~]', '[^"]', '\\x22', '\\u0022', '\\p{L}', '\\p{P}', '\\b', '\\B', '(?=a)', '(?=\\W)', '(?<=\\W)', '(?!a)', '(?!$)', '(?<!^)', '\\uD83D', '\\n', '\ud800', '\udc00', '\ud800\\"', '\ud800\\[');
const quantifier = fc.constantFrom('', '', '*', '+', '?', '{2}', '{0,3}');
const term: fc.Arbitrary<string> = fc.letrec<{term: string}>((tie) => ({
  term: fc.oneof(
    {depthSize: 'small', withCrossShrink: true},
    fc.tuple(atom, quantifier).map(([a, q]) => a + q),
    fc.tuple(fc.array(tie('term'), {minLength: 1, maxLength: 3}), fc.array(tie('term'), {maxLength: 2}), quantifier).map(([left, right, q]) => `(${left.join('')}${right.length > 0 ? '|' + right.join('') : ''})${q}`),
  ),
})).term;
const pattern = fc.tuple(fc.array(term, {maxLength: 4}), fc.constantFrom('^$', '^$', '^$', '^', '$', '', '^|$')).map(([terms, anchors]) => {
  const body = terms.join('');
  if (anchors === '^|$') return `^${body}|x$`;
  return (anchors.startsWith('^') ? '^' : '') + body + (anchors.endsWith('$') ? '$' : '');
});
const string = fc.array(fc.constantFrom('a', 'b', '1', '-', ' ', '"', '\\', 'é', '😀', '\uD83D', '\ud800', '\n', 'x', 'A', '.', '['), {maxLength: 8}).map((parts) => parts.join(''));

describe('a pattern matched in place gives the verdict of the pattern on the string', () => {
  test('in validateText, with text after the string that would match the pattern', () => {
    fc.assert(
      fc.property(pattern, string, (source, value) => {
        let expected: boolean;
        try {
          expected = new RegExp(source, 'u').test(value);
        } catch {
          return; // not a pattern in Unicode mode
        }
        const validator = compile({type: 'object', properties: {k: {pattern: source}}});
        // What follows the string could match the pattern's remainder: the twin must stop at the quote.
        const text = `{"k":${JSON.stringify(value)},"tail":"a1b-x\\"é😀 aaa"}`;
        assert.equal(validator.validateText(text).valid, expected, `${source} on ${JSON.stringify(value)}`);
        assert.equal(validator.validate(JSON.parse(text)).valid, expected);
      }),
      property(400),
    );
  });

  test('the twin itself, passes and failures both', () => {
    fc.assert(
      fc.property(pattern, string, (source, value) => {
        let regExp: RegExp;
        try {
          regExp = new RegExp(source, 'u');
        } catch {
          return;
        }
        const twin = inPlaceTwin(regExp);
        // Plain strings only: one with a quote, a backslash or a control character is escaped in JSON.
        if (twin === null || /["\\\u0000-\u001f]/.test(value)) return;
        const text = `["${value}","aa1-"]`;
        assert.equal(inPlaceVerdict(twin, text, 2, value.length), regExp.test(value), `${source} on ${JSON.stringify(value)}`);
      }),
      property(1000),
    );
  });
});
