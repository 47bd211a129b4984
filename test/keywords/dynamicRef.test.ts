// src/keywords/dynamicRef.ts: `$dynamicRef` (2020-12) resolves like `$ref`, but when its initial
// target is a `$dynamicAnchor` of that name, the outermost resource in the dynamic scope that
// defines the anchor wins.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {strictTree, tree, treeSchemas} from '../support/trees.js';
import {invalid, onlyError, schemaError, summary, valid} from './check.js';

const options = {schemas: treeSchemas};

describe('$dynamicRef', () => {
  test('alone, the anchor is in its own resource: behaves as $ref', () => {
    valid(tree, {children: [{children: [{daat: 1}]}]});
    invalid(tree, {children: [1]});
  });

  test('an outer resource with the same dynamic anchor takes over the recursion', () => {
    valid(strictTree, {data: 1, children: [{data: 2, children: []}]}, options);
    invalid(strictTree, {children: [{daat: 1}]}, options);
    invalid(strictTree, {children: [{children: [{daat: 1}]}]}, options);
  });

  test('the error location runs through $ref and $dynamicRef to the outer schema', () => {
    const error = onlyError(strictTree, {children: [{daat: 1}]}, options);
    assert.deepEqual(summary(error), {
      keyword: 'unevaluatedProperties',
      keywordLocation: '/$ref/properties/children/items/$dynamicRef/unevaluatedProperties',
      instanceLocation: '/children/0/daat',
      params: {unevaluatedProperty: 'daat'},
      error: 'must NOT have unevaluated property "daat"',
    });
    assert.equal(error.absoluteKeywordLocation, 'https://example.com/strict-tree#/unevaluatedProperties');
  });

  test('a fragment that is not a dynamic anchor is a plain reference', () => {
    invalid({$defs: {x: {type: 'string'}}, $dynamicRef: '#/$defs/x'}, 1);
    // A plain $anchor is not dynamic: the outer resource's same-named $anchor does not take over.
    const inner = {$id: 'https://example.com/inner', $defs: {n: {$anchor: 'node', type: 'integer'}}, $dynamicRef: '#node'};
    const outer = {$id: 'https://example.com/outer', $defs: {n: {$dynamicAnchor: 'node', type: 'string'}}, $ref: 'inner'};
    valid(outer, 1, {schemas: {'https://example.com/inner': inner}});
  });

  test('only in 2020-12', () => {
    valid({$dynamicRef: '#/$defs/x', $defs: {x: false}}, 1, {draft: 'draft2019-09'});
  });

  test('compile: a string that resolves', () => {
    assert.equal(schemaError({$dynamicRef: 5}).schemaLocation, '/$dynamicRef');
    assert.equal(schemaError({$dynamicRef: '#nowhere'}).code, 'schema.ref.unresolved');
  });
});
