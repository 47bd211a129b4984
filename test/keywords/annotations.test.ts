// src/keywords/annotations.ts: keywords with no effect on the verdict whose values still have a
// shape to check: identifiers, anchors, `$comment`, `$defs` / `definitions` (compiled even when
// nothing refers to them), `then` / `else` without `if`, and `contentSchema`.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {invalid, schemaError, valid} from './check.js';

describe('annotation keywords', () => {
  test('they do not change any verdict', () => {
    const schema = {
      $id: 'https://example.com/a',
      $comment: 'note',
      $anchor: 'top',
      title: 't',
      description: 'd',
      default: 5,
      examples: [1],
      deprecated: true,
      readOnly: true,
      writeOnly: false,
      contentMediaType: 'application/json',
      contentEncoding: 'base64',
      contentSchema: false,
      $defs: {never: false},
      then: false,
      else: false,
    };
    for (const value of [null, 1, 'x', [1], {a: 1}]) valid(schema, value);
  });

  test('identifiers and $comment are strings', () => {
    assert.equal(schemaError({$id: 5}).schemaLocation, '/$id');
    assert.equal(schemaError({$schema: 5}).schemaLocation, '/$schema');
    assert.equal(schemaError({$comment: 5}).schemaLocation, '/$comment');
    assert.equal(schemaError({id: 5}, {draft: 'draft4'}).schemaLocation, '/id');
  });

  test('draft differences: id is draft 4 only, $comment from draft 7', () => {
    valid({id: 5}, 1, {draft: 'draft6'});
    valid({$comment: 5}, 1, {draft: 'draft6'});
    assert.equal(schemaError({$comment: 5}, {draft: 'draft7'}).schemaLocation, '/$comment');
  });

  test('anchors are plain names', () => {
    valid({$anchor: 'good-name.1_x'}, 1);
    assert.equal(schemaError({$anchor: '1bad'}).schemaLocation, '/$anchor');
    assert.equal(schemaError({$anchor: 'a b'}).schemaLocation, '/$anchor');
    assert.equal(schemaError({$dynamicAnchor: '#x'}).schemaLocation, '/$dynamicAnchor');
    assert.equal(schemaError({$anchor: 1}).code, 'schema.keyword.invalid');
  });

  test('$recursiveAnchor is a boolean (2019-09)', () => {
    valid({$recursiveAnchor: true}, 1, {draft: 'draft2019-09'});
    assert.equal(schemaError({$recursiveAnchor: 'yes'}, {draft: 'draft2019-09'}).schemaLocation, '/$recursiveAnchor');
  });

  test('$defs / definitions are compiled even when unreferenced: a broken subschema is reported', () => {
    assert.equal(schemaError({$defs: {a: {type: 'bogus'}}}).schemaLocation, '/$defs/a/type');
    assert.equal(schemaError({definitions: {'x/y': {minimum: 'no'}}}, {draft: 'draft7'}).schemaLocation, '/definitions/x~1y/minimum');
    assert.equal(schemaError({$defs: {a: 3}}).schemaLocation, '/$defs/a');
    assert.equal(schemaError({$defs: []}).schemaLocation, '/$defs');
  });

  test('$defs does not exist before 2019-09', () => {
    valid({$defs: {a: {type: 'bogus'}}}, 1, {draft: 'draft7'});
  });

  test('$id inside $defs and contentSchema is found by $ref', () => {
    invalid({$defs: {a: {$id: 'https://example.com/d', type: 'string'}}, $ref: 'https://example.com/d'}, 1);
    invalid({contentSchema: {$id: 'https://example.com/c', type: 'string'}, $ref: 'https://example.com/c'}, 1);
  });

  test('strict mode: known annotations pass, unknown keywords are SchemaErrors', () => {
    valid({title: 'x', $comment: 'c', examples: []}, 1, {strict: true});
    const error = schemaError({titel: 'x'}, {strict: true});
    assert.equal(error.code, 'schema.keyword.unknown');
    assert.equal(error.schemaLocation, '/titel');
    assert.equal(schemaError({readOnly: true}, {strict: true, draft: 'draft6'}).code, 'schema.keyword.unknown');
    valid({titel: 'x'}, 1);
  });

  test(
    'then, else and contentSchema values must be schemas even without if',
    () => {
      assert.equal(schemaError({then: 5}).schemaLocation, '/then');
      assert.equal(schemaError({else: 'x'}).schemaLocation, '/else');
      assert.equal(schemaError({contentSchema: 5}).schemaLocation, '/contentSchema');
    },
  );
});
