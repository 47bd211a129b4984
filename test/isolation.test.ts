// Isolation of documents in the core API: a compiled validator is shared by every document it
// judges, so no way out of one document (malformed or cut-off input, a limit, an early verdict,
// an abandoned session, the caller's own exception) may change what the next one is told. Each
// property runs a sequence of generated documents, hostile ones among them, through one validator
// and compares every outcome (verdict, errors with their positions, parseText's value, each
// session write's answer) with a validator compiled for that document alone.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import fc from 'fast-check';
import {compile} from '../src/index.js';
import {schemaCaseArbitrary} from './support/arbitraries.js';
import {assertIsolated, isolationParameters, scenarioArbitrary, type Entry} from './support/isolation.js';

/** The reproduction: a closed object with a nested member, cut off inside that member. */
const accountSchema = {
  type: 'object',
  properties: {name: {type: 'string'}, role: {enum: ['user']}, data: {type: 'object'}},
  required: ['name'],
  additionalProperties: false,
};
const cutInsideData = '{"role":"user","data":{"n":1,';
const adminBody = '{"name":"x","role":"admin"}';

describe('a document cut off inside a nested member does not change the verdict on the next one', () => {
  test('validateText: the admin document is invalid after the cut-off one, as before it', () => {
    const validator = compile(accountSchema);
    const before = validator.validateText(adminBody);
    assert.equal(before.valid, false);
    const cutOff = validator.validateText(cutInsideData);
    assert.deepEqual(cutOff.errors.map((unit) => unit.params?.code), ['syntax.end']);
    assert.deepStrictEqual(validator.validateText(adminBody), before);
  });

  test('parseText: the admin document is invalid after the cut-off one, with no value and no exception', () => {
    const validator = compile(accountSchema);
    const before = validator.parseText(adminBody);
    assert.equal(before.valid, false);
    assert.equal(validator.parseText(cutInsideData).valid, false);
    assert.deepStrictEqual(validator.parseText(adminBody), before);
  });
});

function isolationProperty(name: string, entries: readonly Entry[], runs: number, interleave = false): void {
  test(name, () => {
    fc.assert(
      fc.property(scenarioArbitrary(schemaCaseArbitrary, entries, {interleave, maxTasks: interleave ? 8 : 12}), assertIsolated),
      isolationParameters(runs),
    );
  });
}

describe('one shared validator tells every document what a fresh validator tells it', () => {
  isolationProperty('validate: values after hostile values (past a limit, not JSON, a cycle, a throwing getter)', ['validate'], 60);
  isolationProperty('validateText: documents after truncated, corrupted, repeated-key, trailing, over-limit and non-UTF-8 ones', ['validateText'], 80);
  isolationProperty('parseText: the same verdict, errors and value, and never an exception', ['parseText'], 80);
  isolationProperty('session() with any chunking, some sessions abandoned before their end', ['session'], 60);
  isolationProperty('two and more sessions written alternately', ['session'], 60, true);
  isolationProperty('every entry point interleaved on one validator', ['validate', 'validateText', 'parseText', 'session'], 80, true);
});
