// The official JSON-Schema-Test-Suite, every required file of every draft, in value mode, in
// validateText (compact and pretty-printed), and through session() fed random chunks and 1-byte
// chunks of the UTF-8 bytes, and through parseText (its verdict is validateText's, its value
// JSON.parse's). The optional files run with formats asserted (support/suite.ts suiteFormats). One loop, an explicit
// skip list with a reason per entry, counts printed at the end.

import assert from 'node:assert/strict';
import {after, describe, test} from 'node:test';
import {compile} from '../src/index.js';
import type {Draft, Result, Validator} from '../src/types.js';
import {byteChunks, feed, random, randomChunks} from './support/chunks.js';
import {drafts, remotes, suiteFiles, suiteFormats, suiteSkips as skip, type SuiteFile} from './support/suite.js';


const modes = ['value', 'text', 'pretty', 'chunks', 'bytes', 'parse'] as const;
type Mode = (typeof modes)[number];
type Counts = Record<Mode, {passed: number; failed: number; skipped: number}>;

const schemas = remotes();
const encoder = new TextEncoder();
const counts = new Map<string, Counts>();

function countsFor(label: string): Counts {
  let entry = counts.get(label);
  if (entry === undefined) {
    entry = Object.fromEntries(modes.map((mode) => [mode, {passed: 0, failed: 0, skipped: 0}])) as Counts;
    counts.set(label, entry);
  }
  return entry;
}

/** Errors without stream positions: what value mode and streaming mode must agree on. */
function locations(result: Result): string[] {
  return result.errors.map((unit) => `${unit.kind} ${unit.keywordLocation} ${unit.instanceLocation} ${unit.error}`);
}

/**
 * The verdict in one mode. Streaming modes must also report exactly what validateText reports for
 * the same text (errors, locations, positions), and the same errors as value mode.
 */
function verdict(validator: Validator, data: unknown, mode: Mode, seed: number): boolean {
  switch (mode) {
    case 'value':
      return validator.validate(data).valid;
    case 'text': {
      const result = validator.validateText(JSON.stringify(data));
      assert.deepEqual(locations(result), locations(validator.validate(data)), 'value mode and streaming mode report the same errors');
      return result.valid;
    }
    case 'pretty':
      return validator.validateText(encoder.encode(JSON.stringify(data, null, 2))).valid;
    case 'chunks': {
      const text = JSON.stringify(data, null, 1);
      const {refusedAt, ...result} = feed(validator, randomChunks(encoder.encode(text), random(seed)));
      assert.deepEqual(result, validator.validateText(text), 'a chunked session reports what validateText reports');
      return result.valid;
    }
    case 'bytes': {
      const text = JSON.stringify(data);
      const {refusedAt, ...result} = feed(validator, byteChunks(encoder.encode(text)));
      assert.deepEqual(result, validator.validateText(text), 'a byte-by-byte session reports what validateText reports');
      return result.valid;
    }
    case 'parse': {
      const text = JSON.stringify(data, null, 1);
      const {value, ...result} = validator.parseText(encoder.encode(text));
      assert.deepEqual(result, validator.validateText(text), 'parseText reports what validateText reports');
      assert.deepEqual(value, result.valid ? JSON.parse(text) : undefined, 'parseText gives the value JSON.parse gives');
      return result.valid;
    }
  }
}

function runFile(draft: Draft, file: SuiteFile, label: string, optional: boolean): void {
  describe(`${draft}/${file.name}`, () => {
    file.cases.forEach((suiteCase, caseIndex) => {
      test(suiteCase.description, () => {
        const validator = compile(suiteCase.schema, {draft, schemas, ...suiteFormats(optional)});
        const problems: string[] = [];
        suiteCase.tests.forEach((suiteTest, testIndex) => {
          const id = `${draft}/${file.name}/${suiteCase.description}/${suiteTest.description}`;
          const tally = countsFor(label);
          if (skip.has(id) || skip.has(`${draft}/${file.name}`)) {
            for (const mode of modes) tally[mode].skipped++;
            return;
          }
          for (const mode of modes) {
            const valid = verdict(validator, suiteTest.data, mode, caseIndex * 1000 + testIndex);
            if (valid === suiteTest.valid) tally[mode].passed++;
            else {
              tally[mode].failed++;
              problems.push(`${mode}: "${suiteTest.description}" expected ${suiteTest.valid ? 'valid' : 'invalid'}`);
            }
          }
        });
        assert.deepEqual(problems, []);
      });
    });
  });
}

for (const draft of drafts) {
  for (const file of suiteFiles(draft, false)) runFile(draft, file, `${draft} required`, false);
  for (const file of suiteFiles(draft, true)) runFile(draft, file, `${draft} optional`, true);
}

after(() => {
  const lines = ['JSON-Schema-Test-Suite results (passed/failed/skipped per mode):'];
  for (const [label, tally] of counts) {
    lines.push(`  ${label.padEnd(22)} ` + modes.map((mode) => `${mode} ${tally[mode].passed}/${tally[mode].failed}/${tally[mode].skipped}`).join('  '));
  }
  lines.push('Skipped, with reasons:');
  for (const [id, reason] of skip) lines.push(`  ${id}: ${reason}`);
  console.log(lines.join('\n'));
});
