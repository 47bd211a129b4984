// The validator compile() returns: what its value-mode calls give back, and its type guard.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';

import {compile} from '../src/index.js';

const userSchema = {type: 'object', properties: {name: {type: 'string'}}, required: ['name']} as const;

describe('validate: a valid result carries the value', () => {
  const users = compile(userSchema);

  test('the very value given, on the fast path and on the evaluated one', () => {
    const user = {name: 'Ada'};
    const fast = users.validate(user);
    assert.equal(fast.valid, true);
    assert.equal(fast.value, user);
    // Every error wanted: the evaluator decides, not the fast verdict.
    const evaluated = compile(userSchema, {allErrors: true}).validate(user);
    assert.equal(evaluated.valid, true);
    assert.equal(evaluated.value, user);
  });

  test('an invalid result has none', () => {
    const result = users.validate({});
    assert.equal(result.valid, false);
    assert.equal('value' in result, false);
  });
});

describe('is: a type guard with the verdict of validate', () => {
  const users = compile(userSchema);

  test('true for a valid value, false for an invalid one or one JSON cannot hold', () => {
    assert.equal(users.is({name: 'Ada'}), true);
    assert.equal(users.is({name: 1}), false);
    assert.equal(users.is(undefined), false);
  });

  test('narrows the value to the schema type', () => {
    const body: unknown = JSON.parse('{"name": "Ada"}');
    assert.ok(users.is(body));
    const name: string = body.name;
    assert.equal(name, 'Ada');
  });
});

describe('error units have valid: false (2020-12 core §12.4.2, the basic output format)', () => {
  test('schema violations, syntax and limit errors, in every mode', () => {
    const validator = compile({type: 'object', properties: {n: {type: 'integer'}}, required: ['n']}, {allErrors: true, limits: {maxDepth: 3}});
    const session = validator.session();
    session.write('{"n": 1.5, ');
    const units = [
      ...validator.validate({n: 'x'}).errors,
      ...validator.validateText('{"n": "x"}').errors,
      ...validator.parseText('{"n": [[[[1]]]]}').errors,
      ...validator.validateText('{"n": 1,}').errors,
      ...session.end().errors,
    ];
    assert.deepEqual(new Set(units.map((unit) => unit.kind)), new Set(['validation', 'syntax', 'limit']));
    for (const unit of units) assert.equal(unit.valid, false, JSON.stringify(unit));
  });
});
