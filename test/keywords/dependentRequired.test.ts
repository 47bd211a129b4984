// src/keywords/dependentRequired.ts: when the trigger property is present, the listed properties must
// be present too. One-way; decided at the object's close.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {invalid, onlyError, refusalByte, schemaError, summary, valid} from './check.js';

describe('dependentRequired', () => {
  const schema = {dependentRequired: {card: ['billing', 'cvc']}};

  test('the trigger requires its dependents; without the trigger nothing is required', () => {
    valid(schema, {card: 1, billing: 2, cvc: 3});
    valid(schema, {billing: 2});
    valid(schema, {});
    invalid(schema, {card: 1});
    invalid(schema, {card: 1, billing: 2});
    valid(schema, ['card']);
  });

  test('one-way: a dependent does not require the trigger', () => {
    valid({dependentRequired: {a: ['b']}}, {b: 1});
  });

  test('the dependent may come before the trigger', () => {
    valid({dependentRequired: {a: ['b']}}, {b: 1, a: 1});
  });

  test('an empty list requires nothing', () => {
    valid({dependentRequired: {a: []}}, {a: 1});
  });

  test('the error names trigger and missing property', () => {
    assert.deepEqual(summary(onlyError(schema, {card: 1, cvc: 3})), {
      keyword: 'dependentRequired',
      keywordLocation: '/dependentRequired',
      instanceLocation: '',
      params: {property: 'card', missingProperty: 'billing', depsCount: 2, deps: 'billing, cvc'},
      error: 'must have property "billing" when property "card" is present',
    });
  });

  test('streaming: at the close (the dependent may still arrive)', () => {
    const text = '{"card": 1, "x": {"billing": 2}}';
    assert.equal(refusalByte(schema, text), text.length - 1);
  });

  test('only from 2019-09 (earlier drafts spell it dependencies)', () => {
    valid(schema, {card: 1}, {draft: 'draft7'});
    invalid(schema, {card: 1}, {draft: 'draft2019-09'});
  });

  test('compile: an object of arrays of unique strings', () => {
    assert.equal(schemaError({dependentRequired: []}).schemaLocation, '/dependentRequired');
    assert.equal(schemaError({dependentRequired: {a: 'b'}}).code, 'schema.keyword.invalid');
  });

  test('compile: a bad entry is reported at its own location', () => {
    assert.equal(schemaError({dependentRequired: {a: ['b', 2]}}).schemaLocation, '/dependentRequired/a/1');
    assert.equal(schemaError({dependentRequired: {a: 'b'}}).schemaLocation, '/dependentRequired/a');
  });
});
