// A validator that is dropped is garbage-collected, whatever it was used for: apps compile per
// tenant, per request or per uploaded schema, and a validator kept alive by module-level state
// (it once was: src/engine/checker.ts's root scopes) leaks until the process dies.

import assert from 'node:assert/strict';
import {execFile} from 'node:child_process';
import {before, describe, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {promisify} from 'node:util';
import {uses} from './support/collectable.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const probe = new URL('./support/collectable.ts', import.meta.url).href;

/**
 * The probe runs in a child process started with --expose-gc rather than here with
 * v8.setFlagsFromString('--expose-gc'): Node documents flags changed after startup as undefined
 * behaviour, and a fresh process has no test-runner state on its heap to blur what survives.
 */
async function survivorsByUse(): Promise<Record<string, string[]>> {
  const script = `const {survivors, uses} = await import(${JSON.stringify(probe)});
const report = {};
for (const name of Object.keys(uses)) report[name] = await survivors(name);
process.stdout.write(JSON.stringify(report));`;
  const {stdout} = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '--eval', script], {cwd: root});
  return JSON.parse(stdout) as Record<string, string[]>;
}

describe('a dropped validator is collectable after use', () => {
  let report: Record<string, string[]>;
  before(async () => {
    report = await survivorsByUse();
  });

  for (const name of Object.keys(uses)) {
    test(`after ${name}`, () => {
      assert.ok(name in report, `the probe did not report ${name}`);
      assert.deepEqual(report[name], [], `still alive after ${name}: ${report[name]?.join(', ')}`);
    });
  }
});
