// src/session/document.ts: one object holds all of one document's state, and the validator's
// whole-document calls each take one of their own. A call made while another is under way — from
// a getter of the value being validated — must neither disturb it nor be disturbed by it.

import assert from 'node:assert/strict';
import {test} from 'node:test';
import {compile} from '../src/index.js';

const schema = {type: 'object', properties: {a: {type: 'string'}, b: {type: 'string'}}, required: ['a']};

/** A value whose getter `b` validates `inner` with `validator` while `validator` is reading the value. */
function reentrant(validator: ReturnType<typeof compile>, inner: unknown, a: unknown): Record<string, unknown> {
  return {
    get b() {
      validator.validate(inner);
      return 'y';
    },
    a,
  };
}

test('a getter that validates with the same validator mid-walk leaves the outer verdict as a fresh validator gives it', () => {
  // Each inner value goes its own way: the checker's pass, the evaluator's walk (not plain JSON),
  // or a failure.
  const inners: unknown[] = [{a: 'x'}, Object.create({}), {a: 5}, 'not an object', new Date(0)];
  for (const inner of inners) {
    for (const a of ['fine', 1, undefined]) {
      const shared = compile(schema);
      const fresh = compile(schema).validate({b: 'y', a});
      assert.deepEqual(shared.validate(reentrant(shared, inner, a)), fresh, `inner ${String(inner)}, a ${String(a)}`);
      // And the validator serves the next document as a fresh one would.
      assert.deepEqual(shared.validate({a: 2}), compile(schema).validate({a: 2}));
    }
  }
});

test('validateText and parseText between a session\'s writes do not touch the session', () => {
  const validator = compile(schema);
  const session = validator.session();
  session.write('{"b": "y", ');
  assert.equal(validator.validateText('{"a": 1}').valid, false);
  assert.equal(validator.parseText('{"a": "x"}').valid, true);
  session.write('"a": 1}');
  assert.deepEqual(session.end(), compile(schema).validateText('{"b": "y", "a": 1}'));
});
