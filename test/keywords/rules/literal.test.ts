// src/keywords/literal.ts: JSON literals compiled into nodes that accept exactly one value (used by const and
// enum). Objects match regardless of key order, arrays item by item, numbers by value.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {kindOf} from '../../../src/keywords/rules/literal.js';
import {ARRAY, BOOLEAN, NULL, NUMBER, OBJECT, STRING} from '../../../src/schema/node.js';
import {compileSchema} from '../../../src/compile/compile.js';
import {defaultLimits} from '../../../src/json/limits.js';
import {CompiledValidator} from '../../../src/session/validator.js';
import {invalid, refusalByte, schemaError, valid, verdictOfText} from '../check.js';

describe('kindOf', () => {
  test('JSON kinds, and undefined for what JSON cannot hold', () => {
    assert.equal(kindOf(null), NULL);
    assert.equal(kindOf('s'), STRING);
    assert.equal(kindOf(1.5), NUMBER);
    assert.equal(kindOf(false), BOOLEAN);
    assert.equal(kindOf([]), ARRAY);
    assert.equal(kindOf({}), OBJECT);
    for (const value of [undefined, Number.NaN, Infinity, -Infinity, () => 1, Symbol('x'), 1n]) assert.equal(kindOf(value), undefined, String(value));
  });
});

describe('literal nodes (through const)', () => {
  test('objects: same key set, equal members, any order', () => {
    const literal = {x: 1, y: 'two', z: null};
    valid({const: literal}, {z: null, y: 'two', x: 1});
    invalid({const: literal}, {x: 1, y: 'two'});
    invalid({const: literal}, {x: 1, y: 'two', z: null, w: 0});
    invalid({const: literal}, {x: 1, y: 'two', w: null});
    valid({const: {}}, {});
    invalid({const: {}}, {a: 1});
  });

  test('arrays: same length, equal items in order', () => {
    valid({const: [1, 'a', [2]]}, [1, 'a', [2]]);
    invalid({const: [1, 'a', [2]]}, ['a', 1, [2]]);
    invalid({const: [1, 'a', [2]]}, [1, 'a']);
    invalid({const: [1, 'a', [2]]}, [1, 'a', [2], 3]);
    valid({const: []}, []);
    invalid({const: []}, [[]]);
  });

  test('deep nesting, kinds never coerced', () => {
    const literal = {a: [{b: [true, {c: ''}]}]};
    valid({const: literal}, {a: [{b: [true, {c: ''}]}]});
    invalid({const: literal}, {a: [{b: [1, {c: ''}]}]});
    invalid({const: literal}, {a: [{b: [true, {c: null}]}]});
    invalid({const: literal}, {a: [{b: [true, []]}]});
    invalid({const: literal}, {a: {b: [true, {c: ''}]}});
  });

  test('numbers inside literals compare by value', () => {
    assert.equal(verdictOfText({const: {n: [10, 0.5]}}, '{"n": [1e1, 5e-1]}'), true);
    assert.equal(verdictOfText({const: {n: [10, 0.5]}}, '{"n": [10.0, 0.50]}'), true);
    assert.equal(verdictOfText({const: {n: [10, 0.5]}}, '{"n": [10, 0.51]}'), false);
  });

  test('keys that are Object.prototype names are ordinary keys', () => {
    const proto = JSON.parse('{"__proto__": {"a": 1}}');
    valid({const: proto}, JSON.parse('{"__proto__": {"a": 1}}'));
    invalid({const: proto}, JSON.parse('{"__proto__": {"a": 2}}'));
    invalid({const: proto}, {});
    invalid({const: {}}, JSON.parse('{"__proto__": {}}'));
    invalid({const: {constructor: 1}}, {toString: 1});
    invalid({const: {a: 1}}, {a: 1, hasOwnProperty: 1});
  });

  test('keys with pointer characters', () => {
    valid({const: {'a/b': 1, 'c~d': 2, '': 3}}, {'': 3, 'c~d': 2, 'a/b': 1});
    invalid({const: {'a/b': 1}}, {'a~1b': 1});
  });

  test('streaming: the match stops at the first token that differs', () => {
    const schema = {const: {a: [1, 2, 3], b: 'x'}};
    const wrongKind = '{"a": {"0": 1}, "b": "x"}';
    assert.equal(refusalByte(schema, wrongKind), wrongKind.indexOf('{"0"'));
    const wrongItem = '{"a": [1, 5, 3], "b": "x"}';
    assert.equal(refusalByte(schema, wrongItem), wrongItem.indexOf(', 3'));
    const wrongString = '{"b": "xy", "a": [1, 2, 3]}';
    assert.equal(refusalByte(schema, wrongString), wrongString.indexOf('y"') + 1);
    const missingItem = '{"a": [1, 2], "b": "x"}';
    assert.equal(refusalByte(schema, missingItem), missingItem.indexOf(']'));
  });
});

describe('compiling a literal is one pass over it', () => {
  /** A validator of `schema`, and the count of nodes its compilation has made so far. */
  function compiled(schema: object): {validator: CompiledValidator; nodes: () => number} {
    const {root, draft} = compileSchema(schema, {});
    const validator = new CompiledValidator(root, draft, false, defaultLimits);
    return {validator, nodes: () => root.resource.compilation.nodeCount};
  }

  function wide(keys: number): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    for (let i = 0; i < keys; i++) object['k' + i] = i % 10 === 0 ? {nested: [i, 'x']} : i;
    return object;
  }

  test('a const makes as many nodes at compile whatever its size: members get theirs as documents reach them', () => {
    const small = compiled({const: wide(10)});
    const large = compiled({const: wide(10_000)});
    assert.equal(large.nodes(), small.nodes());
    // A document that differs at its first member reaches one member of the literal.
    const before = large.nodes();
    assert.equal(large.validator.validateText('{"k0": {"nested": [0, "y"]}}').valid, false);
    assert.ok(large.nodes() - before < 10, `${large.nodes() - before} nodes made for one member`);
  });

  test('an enum of large literals makes a node per literal at compile, not per member', () => {
    const literals = Array.from({length: 50}, () => wide(1_000));
    const {nodes} = compiled({enum: literals});
    assert.ok(nodes() < 60, `${nodes()} nodes`);
  });

  test('a literal compiled lazily still matches exactly, member by member', () => {
    const literal = wide(1_000);
    const {validator} = compiled({const: literal});
    assert.equal(validator.validate(structuredClone(literal)).valid, true);
    assert.equal(validator.validateText(JSON.stringify(literal)).valid, true);
    const changed = structuredClone(literal);
    (changed.k990 as {nested: unknown[]}).nested[1] = 'y';
    assert.equal(validator.validate(changed).valid, false);
    assert.equal(validator.validateText(JSON.stringify(changed)).valid, false);
    const {k999: _dropped, ...missing} = literal;
    assert.equal(validator.validateText(JSON.stringify(missing)).valid, false);
  });
});

describe('a literal holds JSON only', () => {
  test('a hole in an array, NaN or undefined deep inside: a SchemaError that says where', () => {
    assert.equal(schemaError({const: {a: [1, , 3]}}).schemaLocation, '/const/a/1');
    assert.equal(schemaError({enum: [1, {b: [{c: Number.NaN}]}]}).schemaLocation, '/enum/1/b/0/c');
    assert.equal(schemaError({const: {a: {b: undefined}}}).schemaLocation, '/const/a/b');
  });
});
