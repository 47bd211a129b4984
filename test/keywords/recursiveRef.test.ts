// src/keywords/recursiveRef.ts: `$recursiveRef` (2019-09) is `$ref: "#"` unless the current
// resource root has `$recursiveAnchor: true`: then the outermost resource root in the dynamic scope
// with `$recursiveAnchor: true` is the target.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {invalid, onlyError, schemaError, summary, valid} from './check.js';

const draft = 'draft2019-09' as const;
const tree = {
  $id: 'https://example.com/tree',
  $recursiveAnchor: true,
  type: 'object',
  properties: {data: true, children: {type: 'array', items: {$recursiveRef: '#'}}},
};
const strictTree = {$id: 'https://example.com/strict-tree', $recursiveAnchor: true, $ref: 'tree', unevaluatedProperties: false};
const options = {draft, schemas: {'https://example.com/tree': tree}};

describe('$recursiveRef', () => {
  test('alone: the root of its own resource', () => {
    valid(tree, {children: [{children: [{daat: 1}]}]}, {draft});
    invalid(tree, {children: [1]}, {draft});
  });

  test('with $recursiveAnchor in the outer resource too, recursion goes to the outer root', () => {
    valid(strictTree, {data: 1, children: [{data: 2}]}, options);
    invalid(strictTree, {children: [{daat: 1}]}, options);
    invalid(strictTree, {children: [{children: [{daat: 1}]}]}, options);
  });

  test('without $recursiveAnchor at the target resource, it is a plain reference', () => {
    const plain = {...tree, $recursiveAnchor: false};
    valid(strictTree, {children: [{daat: 1}]}, {draft, schemas: {'https://example.com/tree': plain}});
  });

  test('the error location runs through $ref and $recursiveRef', () => {
    assert.deepEqual(summary(onlyError(strictTree, {children: [{daat: 1}]}, options)), {
      keyword: 'unevaluatedProperties',
      keywordLocation: '/$ref/properties/children/items/$recursiveRef/unevaluatedProperties',
      instanceLocation: '/children/0/daat',
      params: {unevaluatedProperty: 'daat'},
      error: 'must NOT have unevaluated property "daat"',
    });
  });

  test('only in 2019-09', () => {
    valid({$defs: {no: false}, $recursiveRef: '#/$defs/no'}, 1, {draft: 'draft2020-12'});
    invalid({$defs: {no: false}, $recursiveRef: '#/$defs/no'}, 1, {draft});
    valid({properties: {a: {$recursiveRef: '#'}}, required: ['b']}, {b: 1, a: {b: 2}}, {draft});
    invalid({properties: {a: {$recursiveRef: '#'}}, required: ['b']}, {b: 1, a: {}}, {draft});
  });

  test('compile: a string; $recursiveAnchor a boolean', () => {
    assert.equal(schemaError({$recursiveRef: 5}, {draft}).schemaLocation, '/$recursiveRef');
    assert.equal(schemaError({$recursiveAnchor: 'yes'}, {draft}).schemaLocation, '/$recursiveAnchor');
  });
});
