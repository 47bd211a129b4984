// src/keywords/unevaluatedProperties.ts: properties no successful subschema at this location
// evaluated must validate against it. The verdict waits for the object's close; meanwhile only the
// names of candidates that failed are remembered.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {invalid, onlyError, refusalByte, run, schemaError, summary, valid} from './check.js';

describe('unevaluatedProperties', () => {
  test('false: properties evaluated by siblings pass, others fail', () => {
    const schema = {properties: {a: true}, patternProperties: {'^x-': true}, unevaluatedProperties: false};
    valid(schema, {a: 1, 'x-1': 2});
    invalid(schema, {a: 1, b: 2});
    valid(schema, {});
    valid({unevaluatedProperties: false}, {});
    valid({unevaluatedProperties: false}, [1]);
    valid({additionalProperties: true, unevaluatedProperties: false}, {any: 1});
  });

  test('a schema applies to the unevaluated properties only', () => {
    const schema = {properties: {a: {type: 'integer'}}, unevaluatedProperties: {type: 'string'}};
    valid(schema, {a: 1, b: 'x'});
    invalid(schema, {a: 1, b: 2});
  });

  test('in-place applicators contribute: allOf, $ref, successful anyOf/oneOf branches, if/then/else', () => {
    valid({allOf: [{properties: {a: true}}], unevaluatedProperties: false}, {a: 1});
    valid({$defs: {d: {properties: {a: true}}}, $ref: '#/$defs/d', unevaluatedProperties: false}, {a: 1});
    const anyOf = {anyOf: [{properties: {a: true}}, {properties: {b: true}}], unevaluatedProperties: false};
    valid(anyOf, {a: 1, b: 2});
    invalid(anyOf, {a: 1, c: 2});
    valid({oneOf: [{properties: {a: true}, required: ['a']}, {required: ['b']}], unevaluatedProperties: false}, {a: 1});
    const conditional = {if: {properties: {k: {const: 1}}}, then: {properties: {t: true}}, else: {properties: {e: true}}, unevaluatedProperties: false};
    valid(conditional, {k: 1, t: 1});
    invalid(conditional, {k: 1, e: 1});
    // A failed if evaluates nothing: k is unevaluated unless someone else takes it.
    invalid(conditional, {k: 2, e: 1});
    valid({...conditional, properties: {k: true}}, {k: 2, e: 1});
  });

  test('annotations of failed subschemas do not count; not never contributes', () => {
    invalid({anyOf: [{properties: {a: {type: 'string'}}}, true], unevaluatedProperties: false}, {a: 1});
    invalid({not: {not: {properties: {a: true}}}, unevaluatedProperties: false}, {a: 1});
  });

  test('a failing candidate is fine if a sibling subschema evaluates the name by the close', () => {
    const schema = {anyOf: [{properties: {a: true}}], unevaluatedProperties: {type: 'string'}};
    valid(schema, {a: 1});
    invalid(schema, {b: 1});
  });

  test('a subschema cannot see the properties of its parent', () => {
    invalid({properties: {a: true}, allOf: [{unevaluatedProperties: false}]}, {a: 1});
  });

  test('nested objects have their own evaluated sets', () => {
    const schema = {properties: {o: {properties: {x: true}, unevaluatedProperties: false}}, unevaluatedProperties: false};
    valid(schema, {o: {x: 1}});
    invalid(schema, {o: {x: 1, y: 2}});
    invalid(schema, {o: {x: 1}, x: 2});
  });

  test('Object.prototype names are ordinary names', () => {
    invalid({unevaluatedProperties: false}, JSON.parse('{"__proto__": 1}'));
    valid(JSON.parse('{"properties": {"__proto__": true}, "unevaluatedProperties": false}'), JSON.parse('{"__proto__": 1}'));
    invalid({properties: {toString: true}, unevaluatedProperties: false}, {constructor: 1});
  });

  test('draft differences: ignored before 2019-09', () => {
    valid({unevaluatedProperties: false}, {a: 1}, {draft: 'draft7'});
    invalid({unevaluatedProperties: false}, {a: 1}, {draft: 'draft2019-09'});
  });

  test('errors: false names the property; a schema reports its own error', () => {
    assert.deepEqual(summary(onlyError({properties: {a: true}, unevaluatedProperties: false}, {a: 1, 'b/c': 2, d: 3})), {
      keyword: 'unevaluatedProperties',
      keywordLocation: '/unevaluatedProperties',
      instanceLocation: '/b~1c',
      params: {unevaluatedProperty: 'b/c'},
      error: 'must NOT have unevaluated property "b/c"',
    });
    assert.deepEqual(summary(onlyError({unevaluatedProperties: {type: 'string'}}, {a: 'x', b: 2})), {
      keyword: 'type',
      keywordLocation: '/unevaluatedProperties/type',
      instanceLocation: '/b',
      params: {type: 'string'},
      error: 'must be string',
    });
    const all = run({unevaluatedProperties: false}, '{"a": 1, "b": 2}', {allErrors: true});
    assert.deepEqual(all.errors.map((unit) => unit.params), [{unevaluatedProperty: 'a'}, {unevaluatedProperty: 'b'}]);
  });

  test('streaming: at the key when no sibling applies subschemas in place (nobody else can evaluate it)', () => {
    const text = '{"bad": 1, "a": 2, "more": {"x": [1, 2, 3]}}';
    assert.equal(refusalByte({properties: {a: true}, unevaluatedProperties: false}, text), text.indexOf('"bad"') + 4);
    const typed = '{"a": 1, "b": "x", "c": 3}';
    // A string of the wrong kind, at its opening quote (src/engine/judgedByKind.ts).
    assert.equal(refusalByte({properties: {a: true}, unevaluatedProperties: {type: 'number'}}, typed), typed.indexOf('"x"'));
  });

  test('streaming: only at the object close when an in-place sibling could still evaluate the key', () => {
    const text = '{"bad": 1, "a": 2, "more": {"x": [1, 2, 3]}}';
    // The branch could evaluate "bad" (it fails on it, so it does not): only the close tells.
    const others = {a: true, more: true};
    assert.equal(refusalByte({properties: others, anyOf: [{properties: {bad: {type: 'string'}}}, true], unevaluatedProperties: false}, text), text.length - 1);
    assert.equal(refusalByte({properties: others, anyOf: [{patternProperties: {'^b': {type: 'string'}}}, true], unevaluatedProperties: false}, text), text.length - 1);
    assert.equal(refusalByte({properties: others, anyOf: [{additionalProperties: {type: 'string'}}, true], unevaluatedProperties: false}, text), text.length - 1);
    // A nested unevaluatedProperties evaluates what passes it.
    assert.equal(refusalByte({properties: others, anyOf: [{unevaluatedProperties: {type: 'string'}}, true], unevaluatedProperties: false}, text), text.length - 1);
  });

  test('streaming: at the key when no in-place sibling could evaluate it (rules/inPlaceReach.ts)', () => {
    const text = '{"bad": 1, "a": 2, "more": {"x": [1, 2, 3]}}';
    const atBad = text.indexOf('"bad"') + 4;
    assert.equal(refusalByte({allOf: [{properties: {a: true}}], unevaluatedProperties: false}, text), atBad);
    assert.equal(refusalByte({$ref: '#/$defs/base', unevaluatedProperties: false, $defs: {base: {properties: {a: true}, patternProperties: {'^m': true}}}}, text), atBad);
    assert.equal(refusalByte({if: {properties: {a: true}}, then: {properties: {more: true}}, else: {not: {properties: {bad: true}}}, unevaluatedProperties: false}, text), atBad);
    assert.equal(refusalByte({dependentSchemas: {a: {properties: {more: true}}}, unevaluatedProperties: false}, text), atBad);
    const nested = '{"o": {"bad": 1}, "after": 2}';
    assert.equal(refusalByte({properties: {o: {anyOf: [{required: ['x']}, true], unevaluatedProperties: false}}}, nested), nested.indexOf('"bad"') + 4);
  });

  test('compile: a schema', () => {
    assert.equal(schemaError({unevaluatedProperties: 1}).schemaLocation, '/unevaluatedProperties');
  });
});
