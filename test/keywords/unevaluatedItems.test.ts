// src/keywords/unevaluatedItems.ts: items no successful subschema evaluated must validate; the
// verdict waits for the close; only failed candidates are remembered.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {invalid, onlyError, refusalByte, schemaError, summary, valid} from './check.js';

describe('unevaluatedItems', () => {
  test('items evaluated by prefixItems / items at the same location are exempt', () => {
    valid({prefixItems: [{}], unevaluatedItems: false}, [1]);
    invalid({prefixItems: [{}], unevaluatedItems: false}, [1, 2]);
    valid({items: {}, unevaluatedItems: false}, [1, 2, 3]);
    valid({unevaluatedItems: false}, []);
    invalid({unevaluatedItems: false}, [1]);
  });

  test('a schema instead of false applies to the unevaluated items', () => {
    const schema = {prefixItems: [{type: 'integer'}], unevaluatedItems: {type: 'string'}};
    valid(schema, [1, 'a', 'b']);
    invalid(schema, [1, 'a', 2]);
  });

  test('annotations of successful subschemas count; of failed ones, not', () => {
    const schema = {anyOf: [{prefixItems: [{}, {}]}, {prefixItems: [{type: 'string'}, {}, {}]}], unevaluatedItems: false};
    valid(schema, [1, 2]);
    valid(schema, ['a', 2, 3]);
    invalid(schema, [1, 2, 3]);
    valid({allOf: [{prefixItems: [{}]}, {items: {}}], unevaluatedItems: false}, [1, 2]);
    invalid({not: {not: {items: {}}}, unevaluatedItems: false}, [1]);
  });

  test('if / then / else: the taken branch and a successful if count', () => {
    const schema = {if: {prefixItems: [{const: 'x'}]}, then: {prefixItems: [{}, {}]}, else: {prefixItems: [{}]}, unevaluatedItems: false};
    valid(schema, ['x', 2]);
    invalid(schema, ['x', 2, 3]);
    valid(schema, ['y']);
    invalid(schema, ['y', 2]);
  });

  test('nested arrays: each location has its own evaluated set', () => {
    const schema = {prefixItems: [{prefixItems: [{}], unevaluatedItems: false}], unevaluatedItems: false};
    valid(schema, [[1]]);
    invalid(schema, [[1, 2]]);
    invalid(schema, [[1], 2]);
  });

  test('draft differences: ignored before 2019-09; items / additionalItems evaluate in 2019-09', () => {
    valid({unevaluatedItems: false}, [1], {draft: 'draft7'});
    valid({items: [{}], additionalItems: {}, unevaluatedItems: false}, [1, 2], {draft: 'draft2019-09'});
    invalid({items: [{}], unevaluatedItems: false}, [1, 2], {draft: 'draft2019-09'});
  });

  test('the error of unevaluatedItems: false names the first unevaluated index', () => {
    assert.deepEqual(summary(onlyError({prefixItems: [{}], unevaluatedItems: false}, [1, 2, 3])), {
      keyword: 'unevaluatedItems',
      keywordLocation: '/unevaluatedItems',
      instanceLocation: '/1',
      params: {unevaluatedItem: 1},
      error: 'must NOT have unevaluated item 1',
    });
    assert.deepEqual(summary(onlyError({unevaluatedItems: {type: 'string'}}, ['a', 2])), {
      keyword: 'type',
      keywordLocation: '/unevaluatedItems/type',
      instanceLocation: '/1',
      params: {type: 'string'},
      error: 'must be string',
    });
  });

  test('streaming: at the item when no sibling applies subschemas in place', () => {
    const text = '[1, 2, 3, 4]';
    assert.equal(refusalByte({prefixItems: [{}], unevaluatedItems: false}, text), text.indexOf('2,') + 1);
  });

  test('streaming: false waits for the close when a later annotation could still cover the item', () => {
    const text = '[1, 2, 3, 4]';
    // The branch could evaluate item 1 (it fails on it, so it does not): only the close tells.
    const mixed = '[1, "x", 3]';
    assert.equal(refusalByte({anyOf: [{prefixItems: [{}, {type: 'number'}]}, true], unevaluatedItems: {type: 'number'}}, mixed), mixed.length - 1);
    assert.equal(refusalByte({prefixItems: [{}], contains: {const: 4}, unevaluatedItems: false}, text), text.length - 1);
  });

  test('streaming: at the item when no in-place sibling could evaluate it (rules/inPlaceReach.ts)', () => {
    const text = '[1, 2, 3, 4]';
    assert.equal(refusalByte({allOf: [{prefixItems: [{}]}], unevaluatedItems: false}, text), text.indexOf('2,') + 1);
    // The branch's prefixItems reach item 1, not item 2: that one is decided as it ends.
    assert.equal(refusalByte({anyOf: [{prefixItems: [{}, {type: 'string'}]}, true], unevaluatedItems: false}, text), text.indexOf('3,') + 1);
    assert.equal(refusalByte({$ref: '#/$defs/pair', unevaluatedItems: false, $defs: {pair: {prefixItems: [{}, {}]}}}, text), text.indexOf('3,') + 1);
    // An `items` beside the prefix reaches every index.
    assert.equal(refusalByte({allOf: [{prefixItems: [{}], items: {type: 'number'}}, {maxItems: 3}], unevaluatedItems: false}, text), text.length - 1);
  });

  test('compile: a schema', () => {
    assert.equal(schemaError({unevaluatedItems: []}).schemaLocation, '/unevaluatedItems');
  });
});

describe('unevaluatedItems: annotations stay at their own location', () => {
  test("a nested array's evaluated items do not count for the outer array", () => {
    // The inner schema evaluates the inner array's items 0-2; the outer items 1 and 2 stay unevaluated.
    const schema = {prefixItems: [{prefixItems: [true, true, true], unevaluatedItems: false}], unevaluatedItems: false};
    invalid(schema, [[1, 2, 3], 4, 5]);
    valid(schema, [[1, 2, 3]]);
    const legacy = {items: [{items: [true, true, true], unevaluatedItems: false}], unevaluatedItems: false};
    invalid(legacy, [[1, 2, 3], 4], {draft: 'draft2019-09'});
  });
});
