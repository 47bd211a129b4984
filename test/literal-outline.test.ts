// The text checker's outline of `enum` and `const` (src/keywords/rules/literal.ts) must agree with
// the evaluator wherever a literal's verdict is read through a branch: a pass there must be a pass,
// or `not`, `if` and `oneOf` turn the checker's mistake into a valid verdict (fail open). Each case
// is judged by validateText and validate (the checker first) and by a validator whose checker is
// off (`annotations: true`: the evaluator alone), which must agree.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {compile} from '../src/index.js';

function agreesWithEvaluator(schema: unknown, text: string, expected: boolean): void {
  const label = `${JSON.stringify(schema)} on ${text}`;
  assert.equal(compile(schema, {annotations: true}).validateText(text).valid, expected, `evaluator: ${label}`);
  const validator = compile(schema);
  assert.equal(validator.validateText(text).valid, expected, `validateText: ${label}`);
  assert.equal(validator.parseText(text).valid, expected, `parseText: ${label}`);
  assert.equal(validator.validate(JSON.parse(text)).valid, expected, `validate: ${label}`);
}

describe('enum and const literals in the text checker', () => {
  // An enum with an object or array literal outlines `some` over the container literals for every
  // value, scalars too: a scalar equal to one of its scalar literals fails that `some`, so inside a
  // branch the enum reads as failed.
  test('a scalar equal to a scalar literal of an enum that also lists containers passes it inside not, if and oneOf', () => {
    agreesWithEvaluator({not: {enum: [1, {}]}}, '1', false);
    agreesWithEvaluator({not: {enum: [false, []]}}, 'false', false);
    agreesWithEvaluator({not: {enum: ['a', {b: 1}]}}, '"a"', false);
    agreesWithEvaluator({properties: {a: {not: {enum: [null, [2]]}}}}, '{"a": null}', false);
    agreesWithEvaluator({if: {enum: [1, {}]}, then: false}, '1', false);
    agreesWithEvaluator({oneOf: [{enum: [false, {}]}, {type: 'boolean'}]}, 'false', false);
    // Still right where the enum's failure is the document's: these already held.
    agreesWithEvaluator({not: {enum: [1, {}]}}, '2', true);
    agreesWithEvaluator({enum: [1, {}]}, '1', true);
  });

  // Matching an array literal evaluates no item (enum and const keep no annotations, 2020-12 core
  // §11.2), as the object literal's members already say.
  test('the items of an array literal are not evaluated for unevaluatedItems', () => {
    agreesWithEvaluator({const: ['x'], unevaluatedItems: false}, '["x"]', false);
    agreesWithEvaluator({enum: [['x']], unevaluatedItems: {type: 'integer'}}, '["x"]', false);
    agreesWithEvaluator({allOf: [{const: ['x']}], unevaluatedItems: false}, '["x"]', false);
    agreesWithEvaluator({const: {a: 1}, unevaluatedProperties: false}, '{"a": 1}', false);
  });
});
