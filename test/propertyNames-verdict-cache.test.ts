// The text checker keeps a property name's pass of `propertyNames` on the name's member
// (Member.nameAccepted, src/engine/checker.ts): a verdict on the name alone. That holds for the
// draft's keywords, not for a custom keyword or a custom format, whose function may answer
// differently from one document to the next (a list of allowed names that changes); they are
// asked each time everywhere else, by the evaluator, and for a member's value by the checker too.
// A name once passed must not keep passing after its function refuses it.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {compile} from '../src/index.js';

describe("propertyNames with functions of one's own, through one validator", () => {
  test('a custom keyword that refuses a name it once accepted refuses it in every mode', () => {
    const allowed = new Set(['a']);
    const schema = {type: 'object', propertyNames: {allowedName: true}};
    const options = {keywords: [{keyword: 'allowedName', type: 'string' as const, validate: (_value: unknown, name: unknown) => allowed.has(name as string)}]};
    const validator = compile(schema, options);
    assert.equal(validator.validateText('{"a": 1}').valid, true);
    assert.equal(validator.validate({a: 1}).valid, true);
    allowed.delete('a');
    // The evaluator alone (annotations: true turns the checker off) and a new validator refuse it.
    assert.equal(compile(schema, {...options, annotations: true}).validateText('{"a": 1}').valid, false);
    assert.equal(compile(schema, options).validateText('{"a": 1}').valid, false);
    assert.equal(validator.validateText('{"a": 1}').valid, false, 'validateText');
    assert.equal(validator.parseText('{"a": 1}').valid, false, 'parseText');
    assert.equal(validator.validate({a: 1}).valid, false, 'validate');
  });

  test('a custom format that refuses a name it once accepted refuses it', () => {
    const allowed = new Set(['a']);
    const validator = compile({type: 'object', propertyNames: {format: 'tenant'}}, {formats: 'assert', customFormats: {tenant: (name: string) => allowed.has(name)}});
    assert.equal(validator.validateText('{"a": 1}').valid, true);
    allowed.delete('a');
    assert.equal(validator.validateText('{"a": 1}').valid, false, 'validateText');
    assert.equal(validator.validate({a: 1}).valid, false, 'validate');
  });
});
