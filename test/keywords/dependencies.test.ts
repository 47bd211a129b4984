// src/keywords/dependencies.ts: draft 4 to 7 `dependencies`: an array value acts as
// dependentRequired, a schema value as dependentSchemas, both in one keyword.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {invalid, onlyError, refusalByte, schemaError, summary, valid} from './check.js';

const drafts = ['draft4', 'draft6', 'draft7'] as const;

describe('dependencies', () => {
  test('an array: the trigger requires the listed names', () => {
    for (const draft of drafts) {
      const schema = {dependencies: {a: ['b', 'c']}};
      valid(schema, {a: 1, b: 2, c: 3}, {draft});
      valid(schema, {b: 2}, {draft});
      invalid(schema, {a: 1, b: 2}, {draft});
    }
  });

  test('a schema: applies to the whole object when the trigger is present', () => {
    for (const draft of drafts) {
      const schema = {dependencies: {a: {properties: {b: {type: 'string'}}}}};
      valid(schema, {a: 1, b: 'x'}, {draft});
      invalid(schema, {a: 1, b: 2}, {draft});
      invalid(schema, {b: 2, a: 1}, {draft});
      valid(schema, {b: 2}, {draft});
    }
  });

  test('both forms in one keyword', () => {
    const schema = {dependencies: {a: ['b'], c: {required: ['d']}, e: false}};
    valid(schema, {a: 1, b: 1, c: 1, d: 1}, {draft: 'draft7'});
    invalid(schema, {a: 1}, {draft: 'draft7'});
    invalid(schema, {c: 1}, {draft: 'draft7'});
    invalid(schema, {e: 1}, {draft: 'draft7'});
    valid(schema, {b: 1, d: 1}, {draft: 'draft7'});
  });

  test('not in 2019-09 and later', () => {
    valid({dependencies: {a: ['b']}}, {a: 1}, {draft: 'draft2019-09'});
    valid({dependencies: {a: ['b']}}, {a: 1}, {draft: 'draft2020-12'});
  });

  test('errors: the array form is reported by dependencies itself, the schema form by the subschema', () => {
    assert.deepEqual(summary(onlyError({dependencies: {a: ['b']}}, {a: 1}, {draft: 'draft7'})), {
      keyword: 'dependencies',
      keywordLocation: '/dependencies',
      instanceLocation: '',
      params: {property: 'a', missingProperty: 'b', depsCount: 1, deps: 'b'},
      error: 'must have property "b" when property "a" is present',
    });
    assert.deepEqual(summary(onlyError({dependencies: {c: {required: ['d']}}}, {c: 1}, {draft: 'draft7'})), {
      keyword: 'required',
      keywordLocation: '/dependencies/c/required',
      instanceLocation: '',
      params: {missingProperty: 'd'},
      error: 'must have required property "d"',
    });
  });

  test('streaming: the schema form fails at the trigger when it failed before; the array form at the close', () => {
    const text = '{"x": 1, "c": 1, "y": 2}';
    assert.equal(refusalByte({dependencies: {c: {properties: {x: false}}}}, text, {draft: 'draft7'}), text.indexOf('c"') + 1);
    const array = '{"a": 1, "z": 2}';
    assert.equal(refusalByte({dependencies: {a: ['b']}}, array, {draft: 'draft7'}), array.length - 1);
  });

  test('compile: an object of schemas or string arrays', () => {
    assert.equal(schemaError({dependencies: []}, {draft: 'draft7'}).schemaLocation, '/dependencies');
    assert.equal(schemaError({dependencies: {a: 3}}, {draft: 'draft7'}).schemaLocation, '/dependencies/a');
  });

  test('compile: a bad array entry is reported at its own location', () => {
    assert.equal(schemaError({dependencies: {a: ['b', 2]}}, {draft: 'draft7'}).schemaLocation, '/dependencies/a/1');
  });
});
