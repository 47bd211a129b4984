// src/keywords/dependentSchemas.ts: when the trigger property is present, its schema applies to the
// whole object. The schema runs speculatively from the start; its failure counts once the trigger
// has arrived.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {invalid, onlyError, refusalByte, schemaError, summary, valid} from './check.js';

describe('dependentSchemas', () => {
  const schema = {dependentSchemas: {card: {required: ['billing'], properties: {billing: {type: 'string'}}}}};

  test('the schema applies only when the trigger is present', () => {
    valid(schema, {card: 1, billing: 'x'});
    invalid(schema, {card: 1});
    invalid(schema, {card: 1, billing: 2});
    valid(schema, {billing: 2});
    valid(schema, {});
    valid(schema, 'card');
  });

  test('the trigger may come after the keys that fail the schema', () => {
    invalid(schema, {billing: 2, card: 1});
    valid(schema, {billing: 'x', card: 1});
  });

  test('boolean schemas: false forbids the trigger', () => {
    invalid({dependentSchemas: {a: false}}, {a: 1});
    valid({dependentSchemas: {a: false}}, {b: 1});
    valid({dependentSchemas: {a: true}}, {a: 1});
  });

  test('its properties count as evaluated only when the trigger is present', () => {
    const closed = {dependentSchemas: {a: {properties: {b: true}}}, properties: {a: true}, unevaluatedProperties: false};
    valid(closed, {a: 1, b: 2});
    invalid(closed, {b: 2});
  });

  test('the error comes from the subschema', () => {
    assert.deepEqual(summary(onlyError(schema, {card: 1, billing: 2})), {
      keyword: 'type',
      keywordLocation: '/dependentSchemas/card/properties/billing/type',
      instanceLocation: '/billing',
      params: {type: 'string'},
      error: 'must be string',
    });
    assert.deepEqual(summary(onlyError({dependentSchemas: {'a/b': {required: ['c']}}}, {'a/b': 1})), {
      keyword: 'required',
      keywordLocation: '/dependentSchemas/a~1b/required',
      instanceLocation: '',
      params: {missingProperty: 'c'},
      error: 'must have required property "c"',
    });
  });

  test('streaming: a failure before the trigger counts at the trigger key; after it, at once', () => {
    const before = '{"billing": 2, "card": 1, "more": 3}';
    assert.equal(refusalByte(schema, before), before.indexOf('card"') + 4);
    const after = '{"card": 1, "billing": 2, "more": 3}';
    assert.equal(refusalByte(schema, after), after.indexOf(', "more"'));
    const missing = '{"card": 1, "x": 2}';
    assert.equal(refusalByte(schema, missing), missing.length - 1);
  });

  test('only from 2019-09', () => {
    valid({dependentSchemas: {a: false}}, {a: 1}, {draft: 'draft7'});
  });

  test('compile: an object whose values are schemas', () => {
    assert.equal(schemaError({dependentSchemas: []}).schemaLocation, '/dependentSchemas');
    assert.equal(schemaError({dependentSchemas: {'a/b': 3}}).schemaLocation, '/dependentSchemas/a~1b');
  });
});
