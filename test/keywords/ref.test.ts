// src/keywords/ref.ts: the referenced schema applies in place, resolved once at compile time;
// before 2019-09 `$ref` hides its siblings.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {invalid, onlyError, refusalByte, run, schemaError, summary, valid} from './check.js';

describe('$ref', () => {
  test('JSON pointer, anchor and $id references', () => {
    valid({$defs: {pos: {minimum: 0}}, $ref: '#/$defs/pos'}, 1);
    invalid({$defs: {pos: {minimum: 0}}, $ref: '#/$defs/pos'}, -1);
    invalid({$defs: {a: {$anchor: 'int', type: 'integer'}}, $ref: '#int'}, 'x');
    invalid({$id: 'https://example.com/root', $defs: {s: {$id: 'str', type: 'string'}}, $ref: 'str'}, 1);
    valid({$defs: {'a/b': {type: 'string'}, 'c~d': {type: 'integer'}}, properties: {x: {$ref: '#/$defs/a~1b'}, y: {$ref: '#/$defs/c~0d'}}}, {x: 's', y: 1});
  });

  test('other documents come from options.schemas, never from the network', () => {
    const options = {schemas: {'https://example.com/other': {type: 'string'}}};
    valid({$id: 'https://example.com/root', $ref: 'other'}, 'x', options);
    invalid({$id: 'https://example.com/root', $ref: 'other'}, 1, options);
    assert.equal(schemaError({$ref: 'https://example.com/nowhere'}).code, 'schema.ref.unresolved');
  });

  test('recursion follows the instance', () => {
    const list = {properties: {next: {$ref: '#'}}, required: ['v']};
    valid(list, {v: 1, next: {v: 2, next: {v: 3}}});
    invalid(list, {v: 1, next: {v: 2, next: {}}});
  });

  test('a cycle that never descends is a limit error, not a hang', () => {
    for (const schema of [{$ref: '#'}, {$defs: {a: {$ref: '#/$defs/b'}, b: {$ref: '#/$defs/a'}}, $ref: '#/$defs/a'}]) {
      const outcome = run(schema, '1');
      assert.equal(outcome.valid, false);
      assert.equal(outcome.errors[0].kind, 'limit');
      assert.deepEqual(outcome.errors[0].params, {code: 'limit.recursion'});
    }
  });

  test('siblings: ignored up to draft 7, applied from 2019-09', () => {
    const schema = {definitions: {s: {type: 'string'}}, $ref: '#/definitions/s', maxLength: 1};
    for (const draft of ['draft4', 'draft6', 'draft7'] as const) valid(schema, 'long', {draft});
    for (const draft of ['draft2019-09', 'draft2020-12'] as const) invalid(schema, 'long', {draft});
  });

  test('the error: keywordLocation through $ref, absoluteKeywordLocation at the target', () => {
    const error = onlyError({$id: 'https://example.com/s', $defs: {pos: {minimum: 0}}, properties: {a: {$ref: '#/$defs/pos'}}}, {a: -1});
    assert.deepEqual(summary(error), {keyword: 'minimum', keywordLocation: '/properties/a/$ref/minimum', instanceLocation: '/a', params: {comparison: '>=', limit: 0}, error: 'must be >= 0'});
    assert.equal(error.absoluteKeywordLocation, 'https://example.com/s#/$defs/pos/minimum');
  });

  test('streaming: as early as the target decides', () => {
    const text = '{"a": [1], "b": 2}';
    assert.equal(refusalByte({$defs: {o: {properties: {a: {type: 'string'}}}}, $ref: '#/$defs/o'}, text), text.indexOf('['));
  });

  test('compile: a string that resolves', () => {
    assert.equal(schemaError({$ref: 5}).schemaLocation, '/$ref');
    const missing = schemaError({$ref: '#/$defs/missing'});
    assert.equal(missing.code, 'schema.ref.unresolved');
    assert.equal(missing.schemaLocation, '/$ref');
  });
});
