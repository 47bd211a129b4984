// src/keywords/rules/exponential.ts: which patterns can take time exponential in the length of the
// string on a backtracking engine, for the `refuseExponentialPatterns` option.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {SchemaError, compile} from '../../../src/index.js';
import {exponentialPart} from '../../../src/keywords/rules/exponential.js';
import {parsePattern} from '../../../src/keywords/rules/patternSyntax.js';

describe('exponentialPart', () => {
  test('a repeated group whose iterations can be cut more than one way', () => {
    const refused = [
      '^(a+)+$',
      '(a*)*',
      '^(a|a)*$',
      '^(a|aa)*c$',
      '^(\\w+\\s?)*$',
      '(a?){25}a{25}',
      '^(([a-z])+.)+[A-Z]([a-z])+$',
      '(.*a){12}',
      '(x+x+)+y',
      '^(?:[a-z]+|\\d+)+$',
      '^(a|b|ab)*$',
      '^(-[a-z-]+)*$',
      '^(ab|a(c|d))+$',
      '^(a|)+$',
    ];
    for (const source of refused) assert.match(exponentialPart(source) ?? 'accepted', /^the /, source);
  });

  test('a backreference, anywhere', () => {
    assert.match(exponentialPart('^(a)\\1$') ?? '', /backreference/);
    assert.match(exponentialPart('^(?<x>a)\\k<x>$') ?? '', /backreference/);
  });

  test('repeated groups cut one way, and no repeated group at all', () => {
    const accepted = [
      '^[a-z]+$',
      '^\\d{3}-\\d{4}$',
      '^(ab)+$',
      '^[a-z]+(-[a-z]+)*$',
      '^([a-z0-9]+\\.)*[a-z]+$',
      '^(a|b)+$',
      '^(foo|bar)*$',
      '^(\\+|-)?\\d+(\\.\\d+)?$',
      '^(?:x[0-9]*|y[0-9]*)+$',
      '^[\\]()|+*]+$',
      '\\d*\\d*x',
      '(a+)?',
    ];
    for (const source of accepted) assert.equal(exponentialPart(source), undefined, source);
  });

  test('conservative: a group delimited by a class, or by characters its quantifiers also match, is refused', () => {
    // Safe (a space never matches \p{L}), but only a literal character delimits here.
    assert.notEqual(exponentialPart('^\\p{L}+(\\s\\p{L}+)*$'), undefined);
    // Safe too (words a and ab are cut one way from the right), and accepted: the ends differ.
    assert.equal(exponentialPart('^(a|ab)*c$'), undefined);
  });

  test('the answer names the group', () => {
    assert.equal(exponentialPart('^x(a+)+$'), 'the repeated group (a+)+ holds the quantified a+, and its iterations can be cut more than one way');
    assert.equal(exponentialPart('^((ab)+c)*$'), 'the repeated group ((ab)+c)* holds the quantified group (ab)+');
  });
});

describe('refuseExponentialPatterns', () => {
  function refusal(schema: object): SchemaError {
    try {
      compile(schema, {refuseExponentialPatterns: true});
    } catch (error) {
      assert.ok(error instanceof SchemaError, String(error));
      return error;
    }
    assert.fail(`${JSON.stringify(schema)} compiled`);
  }

  test('pattern and patternProperties: a SchemaError where the pattern is', () => {
    const pattern = refusal({properties: {a: {pattern: '^(a+)+$'}}});
    assert.equal(pattern.code, 'schema.pattern.exponential');
    assert.equal(pattern.schemaLocation, '/properties/a/pattern');
    assert.match(pattern.message, /\(a\+\)\+/);
    const names = refusal({patternProperties: {'^(a|aa)*$': true}});
    assert.equal(names.code, 'schema.pattern.exponential');
    assert.equal(names.schemaLocation, '/patternProperties/^(a|aa)*$');
  });

  test('off by default; safe patterns compile with it on', () => {
    assert.equal(compile({pattern: '^(a+)+$'}).validate('aaa').valid, true);
    const validator = compile({pattern: '^[a-z]+(-[a-z]+)*$', patternProperties: {'^x-': true}}, {refuseExponentialPatterns: true});
    assert.equal(validator.validate('ab-cd').valid, true);
    assert.equal(validator.validate('ab--cd').valid, false);
  });

  test('a lone high surrogate is a character of its own, and the reader stops at the end of any source', () => {
    // Found by an outside attack: `\ud800` and the `\` after it were read as one character, so
    // the class after it ran past the end of the source and compile never returned.
    const source = '^\ud800\\[a$';
    assert.equal(exponentialPart(source), undefined);
    assert.equal(compile({pattern: source}, {refuseExponentialPatterns: true}).validate('\ud800[a').valid, true);
    // Sources no `u` pattern has: the reader gives up (and the check refuses) instead of looping.
    for (const broken of ['[a', 'a{2', '(a', 'a)', '(?<name', '\\k<a', '\\u{41', '\\x4']) {
      assert.equal(parsePattern(broken), undefined, broken);
      assert.match(exponentialPart(broken) ?? '', /cannot read/, broken);
    }
  });
});
