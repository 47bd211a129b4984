// src/keywords/ifThenElse.ts: `if` / `then` / `else` (from draft 7). All three start together; the
// branch that loses is abandoned and its errors never reported.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {invalid, onlyError, refusalByte, schemaError, summary, valid} from './check.js';

describe('if / then / else', () => {
  const schema = {if: {properties: {kind: {const: 'card'}}, required: ['kind']}, then: {required: ['number']}, else: {required: ['iban']}};

  test('then applies when if passes; else when it fails', () => {
    valid(schema, {kind: 'card', number: '4111'});
    invalid(schema, {kind: 'card', iban: 'x'});
    valid(schema, {kind: 'bank', iban: 'x'});
    invalid(schema, {kind: 'bank', number: '4111'});
    valid(schema, {iban: 'x'});
  });

  test('if alone, or then / else without if, decide nothing', () => {
    valid({if: false}, 1);
    valid({then: false}, 1);
    valid({else: false}, 1);
    valid({if: {type: 'string'}, then: false}, 1);
    invalid({if: {type: 'string'}, then: false}, 'x');
    invalid({if: false, else: false}, 1);
  });

  test('the losing branch errors are never reported', () => {
    assert.deepEqual(summary(onlyError(schema, {kind: 'card'})), {
      keyword: 'required',
      keywordLocation: '/then/required',
      instanceLocation: '',
      params: {missingProperty: 'number'},
      error: 'must have required property "number"',
    });
    assert.deepEqual(summary(onlyError({if: {type: 'string'}, then: {minLength: 2}, else: {minimum: 5}}, 3)), {
      keyword: 'minimum',
      keywordLocation: '/else/minimum',
      instanceLocation: '',
      params: {comparison: '>=', limit: 5},
      error: 'must be >= 5',
    });
  });

  test('annotations: the successful if and the taken branch count', () => {
    const closed = {if: {properties: {k: {const: 1}}}, then: {properties: {t: true}}, else: {properties: {e: true}}, properties: {k: true}, unevaluatedProperties: false};
    valid(closed, {k: 1, t: 1});
    invalid(closed, {k: 1, e: 1});
    valid(closed, {k: 2, e: 1});
    invalid(closed, {k: 2, t: 1});
  });

  test('streaming: a branch that failed early fails the keyword when if settles', () => {
    const conditional = {if: {properties: {a: {const: 1}}}, then: {properties: {b: {type: 'string'}}}};
    // if can only pass at the close, so the then failure on "b" waits for it.
    const text = '{"a": 1, "b": 2, "c": 3}';
    assert.equal(refusalByte(conditional, text), text.length - 1);
    // if fails early on a wrong kind; else already failed then.
    const kind = '[1, 2]';
    assert.equal(refusalByte({if: {type: 'object'}, else: {type: 'string'}}, kind), 0);
  });

  test('draft differences: no if before draft 7', () => {
    valid({if: true, then: false}, 1, {draft: 'draft6'});
    invalid({if: true, then: false}, 1, {draft: 'draft7'});
  });

  test('compile: if, then and else are schemas', () => {
    assert.equal(schemaError({if: 'x'}).schemaLocation, '/if');
    assert.equal(schemaError({if: {}, then: 1}).schemaLocation, '/then');
    assert.equal(schemaError({if: {}, else: []}).schemaLocation, '/else');
  });
});
