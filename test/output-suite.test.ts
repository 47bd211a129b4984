// The official suite's output tests (../shared/json-schema-test-suite/output-tests): each case's
// result, as the basic output format, must satisfy the test's schema for `basic`. Compiled with
// `annotations: true`, and judged in value mode, validateText, parseText and sessions fed random
// chunks and 1-byte chunks. One loop, counts printed at the end. And the validation suite again
// with `annotations: true`: collecting annotations changes no verdict, and value mode and text
// report the same annotations.

import assert from 'node:assert/strict';
import {readFileSync, readdirSync} from 'node:fs';
import {join} from 'node:path';
import {after, describe, test} from 'node:test';
import {compile} from '../src/index.js';
import type {Result, Validator} from '../src/types.js';
import {byteChunks, feed, random, randomChunks} from './support/chunks.js';
import {drafts, remotes, requireSuite, suiteFiles, suiteFormats, suiteSkips} from './support/suite.js';

interface OutputTest {
  description: string;
  data: unknown;
  output: {basic?: unknown};
}

interface OutputCase {
  description: string;
  schema: unknown;
  tests: OutputTest[];
}

const modes = ['value', 'text', 'parse', 'chunks', 'bytes'] as const;
type Mode = (typeof modes)[number];

const root = join(requireSuite(), 'output-tests');
const encoder = new TextEncoder();
const counts = Object.fromEntries(modes.map((mode) => [mode, {passed: 0, failed: 0}])) as Record<Mode, {passed: number; failed: number}>;

/**
 * A result in the basic output format (2020-12 core §12.4.2): a list is left out when it is
 * empty, as the format has a valid result carry no `errors`, and an invalid one no `annotations`.
 */
function basicOutput({valid, errors, annotations}: Result): Record<string, unknown> {
  const output: Record<string, unknown> = {valid};
  if (errors.length > 0) output.errors = errors;
  if (annotations !== undefined && annotations.length > 0) output.annotations = annotations;
  return output;
}

function resultIn(mode: Mode, validator: Validator, data: unknown, seed: number): Result {
  const text = JSON.stringify(data, null, 1);
  switch (mode) {
    case 'value':
      return validator.validate(data);
    case 'text':
      return validator.validateText(text);
    case 'parse': {
      const {value: _value, ...result} = validator.parseText(text);
      return result;
    }
    case 'chunks': {
      const {refusedAt: _refusedAt, ...result} = feed(validator, randomChunks(encoder.encode(text), random(seed)));
      return result;
    }
    case 'bytes': {
      const {refusedAt: _refusedAt, ...result} = feed(validator, byteChunks(encoder.encode(text)));
      return result;
    }
  }
}

for (const draft of readdirSync(root).filter((name) => name.startsWith('draft')).sort()) {
  const outputSchema = JSON.parse(readFileSync(join(root, draft, 'output-schema.json'), 'utf8')) as {$id: string};
  const schemas = {[outputSchema.$id]: outputSchema};
  const directory = join(root, draft, 'content');
  for (const file of readdirSync(directory).filter((name) => name.endsWith('.json')).sort()) {
    const cases = JSON.parse(readFileSync(join(directory, file), 'utf8')) as OutputCase[];
    describe(`${draft}/content/${file}`, () => {
      cases.forEach((outputCase, caseIndex) => {
        test(outputCase.description, () => {
          const validator = compile(outputCase.schema, {annotations: true});
          const problems: string[] = [];
          outputCase.tests.forEach((outputTest, testIndex) => {
            assert.ok(outputTest.output.basic !== undefined, 'every content test has a schema for basic output');
            const basic = compile(outputTest.output.basic, {schemas});
            for (const mode of modes) {
              const output = basicOutput(resultIn(mode, validator, outputTest.data, caseIndex * 1000 + testIndex));
              const verdict = basic.validate(output);
              if (verdict.valid) counts[mode].passed++;
              else {
                counts[mode].failed++;
                problems.push(`${mode}: "${outputTest.description}": ${JSON.stringify(output)} fails ${verdict.errors.map((unit) => `${unit.keywordLocation} (${unit.error})`).join(', ')}`);
              }
            }
          });
          assert.deepEqual(problems, []);
        });
      });
    });
  }
}

test('annotations: true changes no verdict of the validation suite, and every mode reports the same annotations', () => {
  const remoteSchemas = remotes();
  const problems: string[] = [];
  for (const draft of drafts) {
    for (const optional of [false, true]) {
      for (const file of suiteFiles(draft, optional)) {
        for (const suiteCase of file.cases) {
          const validator = compile(suiteCase.schema, {draft, schemas: remoteSchemas, ...suiteFormats(optional), annotations: true});
          for (const suiteTest of suiteCase.tests) {
            const id = `${draft}/${file.name}/${suiteCase.description}/${suiteTest.description}`;
            if (suiteSkips.has(id) || suiteSkips.has(`${draft}/${file.name}`)) continue;
            const value = validator.validate(suiteTest.data);
            const text = validator.validateText(JSON.stringify(suiteTest.data));
            if (value.valid !== suiteTest.valid || text.valid !== suiteTest.valid) problems.push(`verdict: ${id}`);
            if (JSON.stringify(value.annotations) !== JSON.stringify(text.annotations)) problems.push(`annotations: ${id}`);
          }
        }
      }
    }
  }
  assert.deepEqual(problems, []);
});

after(() => {
  console.log(`Output tests (basic format, annotations: true), passed/failed per mode: ${modes.map((mode) => `${mode} ${counts[mode].passed}/${counts[mode].failed}`).join('  ')}`);
});
