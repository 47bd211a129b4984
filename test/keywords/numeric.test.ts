// src/keywords/numeric.ts: minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, on the
// number's text (exact where doubles round), and draft 4's boolean exclusivity.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {TEXT_ONLY, invalid, onlyError, refusalByte, run, schemaError, summary, valid, valueOf, verdictOfText} from './check.js';

const textOnly = {textOnly: true};

describe('minimum / maximum / exclusiveMinimum / exclusiveMaximum', () => {
  test('inclusive bounds accept the bound; exclusive bounds reject it', () => {
    valid({minimum: 3}, 3);
    invalid({minimum: 3}, 2.999);
    valid({maximum: 3}, 3);
    invalid({maximum: 3}, 3.001);
    invalid({exclusiveMinimum: 3}, 3);
    valid({exclusiveMinimum: 3}, 3.001);
    invalid({exclusiveMaximum: 3}, 3);
    valid({exclusiveMaximum: 3}, 2.999);
    valid({minimum: -1, maximum: -1}, -1);
  });

  test('non-numbers are not judged', () => {
    for (const value of ['100', null, true, [100], {a: 100}]) valid({maximum: 1, minimum: 2, exclusiveMaximum: 0}, value);
  });

  test('numbers by value: 1.0 and 1e0 are 1', () => {
    assert.equal(verdictOfText({maximum: 1}, '1.0'), true);
    assert.equal(verdictOfText({exclusiveMaximum: 1}, '1e0'), false);
    assert.equal(verdictOfText({minimum: 100}, '1e2'), true);
    assert.equal(verdictOfText({exclusiveMinimum: 0}, '-0'), false);
  });

  test('a difference below double precision still counts', () => {
    // 1.0000000000000000001 is the double 1; the text is greater than 1.
    assert.equal(verdictOfText({maximum: 1}, '1.0000000000000000001', textOnly), false);
    assert.equal(verdictOfText({exclusiveMinimum: 1}, '1.0000000000000000001', textOnly), true);
    assert.equal(verdictOfText({maximum: 9007199254740992}, '9007199254740993', textOnly), false);
    assert.equal(verdictOfText({minimum: 9007199254740992}, '9007199254740991.9999', textOnly), false);
  });

  test('numbers beyond double range compare by their sign and size', () => {
    assert.equal(verdictOfText({maximum: 1e308}, '1e400', textOnly), false);
    assert.equal(verdictOfText({minimum: 1e308}, '1e400', textOnly), true);
    assert.equal(verdictOfText({minimum: -1e308}, '-1e400', textOnly), false);
    assert.equal(verdictOfText({maximum: 0}, '1e-400', textOnly), false);
    assert.equal(verdictOfText({exclusiveMinimum: 0}, '1e-400', textOnly), true);
  });

  test('the error gives the limit', () => {
    assert.deepEqual(summary(onlyError({maximum: 3}, 4)), {keyword: 'maximum', keywordLocation: '/maximum', instanceLocation: '', params: {comparison: '<=', limit: 3}, error: 'must be <= 3'});
    assert.deepEqual(summary(onlyError({items: {exclusiveMinimum: 0}}, [1, 0])), {
      keyword: 'exclusiveMinimum',
      keywordLocation: '/items/exclusiveMinimum',
      instanceLocation: '/1',
      params: {comparison: '>', limit: 0},
      error: 'must be > 0',
    });
  });

  test('streaming: decided when the number is whole (the character after it)', () => {
    const text = '[1, 2, 300, 4]';
    assert.equal(refusalByte({items: {maximum: 10}}, text), text.indexOf(', 4'));
  });

  test('compile: the bound must be a finite number', () => {
    const error = schemaError({maximum: '3'});
    assert.equal(error.schemaLocation, '/maximum');
    assert.equal(error.code, 'schema.keyword.invalid');
    assert.equal(schemaError({exclusiveMinimum: true}).schemaLocation, '/exclusiveMinimum');
  });
});

describe('draft 4: exclusiveMinimum / exclusiveMaximum are booleans beside minimum / maximum', () => {
  const draft4 = {draft: 'draft4' as const};

  test('true makes the sibling bound exclusive; false or absent leaves it inclusive', () => {
    invalid({maximum: 3, exclusiveMaximum: true}, 3, draft4);
    valid({maximum: 3, exclusiveMaximum: true}, 2.5, draft4);
    valid({maximum: 3, exclusiveMaximum: false}, 3, draft4);
    invalid({minimum: 3, exclusiveMinimum: true}, 3, draft4);
    valid({minimum: 3}, 3, draft4);
  });

  test('alone, the boolean does nothing', () => {
    valid({exclusiveMaximum: true}, 1e300, draft4);
  });

  test('the error is reported by the bound keyword, with the strict comparison in the message', () => {
    assert.deepEqual(summary(onlyError({maximum: 3, exclusiveMaximum: true}, 3, draft4)), {
      keyword: 'maximum',
      keywordLocation: '/maximum',
      instanceLocation: '',
      params: {comparison: '<', limit: 3},
      error: 'must be < 3',
    });
  });

  test('compile: a number is a SchemaError in draft 4, a boolean one in later drafts', () => {
    assert.equal(schemaError({exclusiveMaximum: 3}, draft4).schemaLocation, '/exclusiveMaximum');
    assert.equal(schemaError({maximum: 3, exclusiveMaximum: true}, {draft: 'draft6'}).schemaLocation, '/exclusiveMaximum');
  });
});

describe('multipleOf', () => {
  test('integers and decimals, exactly (no floating-point remainder)', () => {
    valid({multipleOf: 2}, 10);
    invalid({multipleOf: 2}, 7);
    valid({multipleOf: 0.01}, 0.07);
    valid({multipleOf: 0.1}, 0.3);
    invalid({multipleOf: 0.1}, 0.35);
    valid({multipleOf: 1.5}, 4.5);
    valid({multipleOf: 3}, 0);
    valid({multipleOf: 3}, -9);
  });

  test('an integer and a decimal divisor: the quotient is exact (2020-12 validation §6.2.1), not a double\'s', () => {
    valid({multipleOf: 0.5}, 4);
    invalid({multipleOf: 0.7}, 3);
    // Doubles say 3 / 0.1 = 30.000000000000004 and 7 / 0.7 = 10.000000000000002; both are whole.
    valid({multipleOf: 0.1}, 3);
    valid({multipleOf: 0.1}, 10);
    valid({multipleOf: 0.7}, 7);
    valid({multipleOf: 0.01}, 7);
    invalid({multipleOf: 0.3}, 1);
    valid({multipleOf: 1e-8}, 12391239123);
    valid({multipleOf: 0.5}, -3);
    // Past 2^53, the digits as written decide.
    assert.equal(verdictOfText({multipleOf: 0.5}, '9007199254740993', textOnly), true);
    assert.equal(verdictOfText({multipleOf: 0.3}, '12345678901234567890', textOnly), true);
    assert.equal(verdictOfText({multipleOf: 0.3}, '12345678901234567891', textOnly), false);
    assert.equal(verdictOfText({multipleOf: 0.7}, '700000000000000000007', textOnly), true);
    assert.equal(verdictOfText({multipleOf: 0.7}, '700000000000000000003', textOnly), false);
  });

  test('an integer and a decimal divisor, judged by the evaluator too (the document fails elsewhere)', () => {
    // A valid document is decided by the checker alone; with every error wanted the evaluator
    // judges each member, and only the failing one may be reported.
    const schema = {properties: {a: {multipleOf: 0.1}, b: {multipleOf: 0.7}, c: {multipleOf: 0.7}, x: {type: 'string'}}};
    const outcome = run(schema, valueOf({a: 3, b: 7, c: 3, x: 1}), {allErrors: true});
    assert.deepEqual(outcome.errors.map((unit) => [unit.keyword, unit.instanceLocation]), [['multipleOf', '/c'], ['type', '/x']]);
    const big = run(schema, {text: '{"a": 12345678901234567890, "b": 700000000000000000007, "x": 1}', value: TEXT_ONLY}, {allErrors: true});
    assert.deepEqual(big.errors.map((unit) => [unit.keyword, unit.instanceLocation]), [['type', '/x']]);
  });

  test('integers past 2^53, as written', () => {
    // The double nearest 12345678901234567891 is even; the number is odd.
    assert.equal(verdictOfText({multipleOf: 2}, '12345678901234567891', textOnly), false);
    assert.equal(verdictOfText({multipleOf: 2}, '12345678901234567890', textOnly), true);
    assert.equal(verdictOfText({multipleOf: 10}, '12345678901234567890', textOnly), true);
  });

  test('numbers beyond double range, as written', () => {
    assert.equal(verdictOfText({multipleOf: 2}, '1e400', textOnly), true);
    assert.equal(verdictOfText({multipleOf: 3}, '1e400', textOnly), false);
    assert.equal(verdictOfText({multipleOf: 1e-5}, '1e-400', textOnly), false);
    assert.equal(verdictOfText({multipleOf: 0.5}, '1.5e0'), true);
  });

  test(
    'numbers whose exponent is far from the divisor\'s are still judged by value',
    () => {
      assert.equal(verdictOfText({multipleOf: 2}, '1e-2000', textOnly), false);
      assert.equal(verdictOfText({multipleOf: 2}, '1e2000', textOnly), true);
    },
  );

  test('the error gives the divisor', () => {
    assert.deepEqual(summary(onlyError({multipleOf: 0.5}, 0.7)), {
      keyword: 'multipleOf',
      keywordLocation: '/multipleOf',
      instanceLocation: '',
      params: {multipleOf: 0.5},
      error: 'must be a multiple of 0.5',
    });
  });

  test('compile: the divisor must be a number greater than 0', () => {
    assert.equal(schemaError({multipleOf: 0}).schemaLocation, '/multipleOf');
    assert.equal(schemaError({multipleOf: -2}).schemaLocation, '/multipleOf');
    assert.equal(schemaError({multipleOf: '2'}).schemaLocation, '/multipleOf');
  });
});
