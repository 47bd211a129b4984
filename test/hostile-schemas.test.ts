// Hostile schemas (test/support/hostileSchemas.ts) either compile and validate in bounded time or
// fail with a SchemaError: never a stack overflow, another throw, a crash or a hang. Each group
// runs in a child process, killed if it outlives GROUP_TIMEOUT_MS, so a hang fails its cases
// instead of the whole run. The bound on each case is generous (machines here are shared and
// slow); what it catches is the difference between milliseconds and minutes.

import assert from 'node:assert/strict';
import {fork} from 'node:child_process';
import {describe, it} from 'node:test';
import {fileURLToPath} from 'node:url';
import {groups, type Mode, type ModeOutcome, type Outcome} from './support/hostileSchemas.js';

const CASE_BOUND_MS = 5000;
const GROUP_TIMEOUT_MS = 60_000;
const SCRIPT = fileURLToPath(new URL('./support/hostileSchemas.ts', import.meta.url));

/** The outcomes of one group, by case name, from a child process; rejected if it dies or hangs. */
function runGroup(group: string): Map<string, Promise<Outcome>> {
  const pending = new Map<string, {resolve(outcome: Outcome): void; reject(error: Error): void}>();
  const outcomes = new Map<string, Promise<Outcome>>();
  for (const {name} of groups[group]!) outcomes.set(name, new Promise((resolve, reject) => pending.set(name, {resolve, reject})));
  const child = fork(SCRIPT, ['run', group], {execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc']});
  const timer = setTimeout(() => child.kill('SIGKILL'), GROUP_TIMEOUT_MS);
  child.on('message', (message: Outcome | 'done') => {
    if (message === 'done') return;
    pending.get(message.name)?.resolve(message);
    pending.delete(message.name);
  });
  child.on('exit', (code, signal) => {
    clearTimeout(timer);
    const why = signal === 'SIGKILL' ? `no outcome within ${GROUP_TIMEOUT_MS} ms (a hang)` : `the child exited (code ${code}, signal ${signal}) before it`;
    for (const {reject} of pending.values()) reject(new Error(why));
  });
  return outcomes;
}

function describeMode(outcome: ModeOutcome): string {
  return 'thrown' in outcome ? `threw ${outcome.thrown.name}: ${outcome.thrown.message}` : `valid: ${outcome.verdict.valid} (${outcome.verdict.codes.join(', ')})`;
}

function assertBounded(outcome: Outcome): void {
  assert.ok(outcome.milliseconds < CASE_BOUND_MS, `took ${Math.round(outcome.milliseconds)} ms (bound ${CASE_BOUND_MS} ms)`);
}

/** Every mode answers with a result, all four agree, and the verdict is the spec's where it gives one. */
function assertVerdicts(outcome: Extract<Outcome, {compiled: true}>): void {
  for (const instance of outcome.instances) {
    const modes = Object.entries(instance.modes) as [Mode, ModeOutcome][];
    for (const [mode, result] of modes) assert.ok('verdict' in result, `${instance.label}, ${mode}: ${describeMode(result)}`);
    const verdicts = modes.map(([mode, result]) => `${mode}: ${describeMode(result)}`);
    const valid = new Set(modes.map(([, result]) => 'verdict' in result && result.verdict.valid));
    assert.equal(valid.size, 1, `${instance.label}: the modes disagree\n${verdicts.join('\n')}`);
    if (instance.valid !== undefined) assert.equal([...valid][0], instance.valid, `${instance.label}\n${verdicts.join('\n')}`);
  }
}

for (const [group, cases] of Object.entries(groups)) {
  describe(group, () => {
    let outcomes: Map<string, Promise<Outcome>> | undefined;
    for (const hostile of cases) {
      const claim = hostile.expect === 'compiles' ? 'compiles and validates in bounded time' : 'compiles and validates in bounded time, or is a SchemaError';
      it(`${hostile.name}: ${claim}`, async () => {
        outcomes ??= runGroup(group);
        const outcome = await outcomes.get(hostile.name)!;
        assertBounded(outcome);
        if (!outcome.compiled) {
          assert.equal(hostile.expect, 'either', `must compile, but threw ${outcome.thrown.name}: ${outcome.thrown.message}`);
          assert.equal(outcome.thrown.name, 'SchemaError', `threw ${outcome.thrown.name}: ${outcome.thrown.message}`);
          return;
        }
        assertVerdicts(outcome);
      });
    }
  });
}
