// A pattern whose matching time is exponential in its string's length (ReDoS: `^(a+)+$` on a run
// of `a`s and a `!`), against ajv in the same run: each door runs a failing pattern once per
// document (src/engine/patterns.ts), so its time is one run's, as ajv's is. Then the protections:
// `refuseExponentialPatterns` refuses the schema at compile, and V8's linear-time engine, tried
// in a child process started with the flag that falls back to it on excessive backtracking.
//
//   npm run build && node --import tsx benchmarks/redos.ts [a's, default 24]

import {spawnSync} from 'node:child_process';
import {fileURLToPath} from 'node:url';
import {Ajv2020} from 'ajv/dist/2020.js';
import {SchemaError, compile} from '../dist/src/index.js';
import {bestAlternating} from './support.js';

const PATTERN = '^(a+)+$';
const LINEAR_FLAG = '--enable-experimental-regexp-engine-on-excessive-backtracks';
const length = Number(process.argv[2] ?? 24);
const schema = {type: 'object', properties: {name: {pattern: PATTERN}}};
const text = JSON.stringify({name: 'a'.repeat(length) + '!'});

function measure(): void {
  const ours = compile(schema);
  const ajv = new Ajv2020({strict: false}).compile(schema);
  const ajvTime = (): number => (ajv(JSON.parse(text)) ? 1 : 0);
  const doors: [string, () => number][] = [
    ['validate', () => (ours.validate(JSON.parse(text)).valid ? 1 : 0)],
    ['validateText', () => (ours.validateText(text).valid ? 1 : 0)],
    ['parseText', () => (ours.parseText(text).valid ? 1 : 0)],
    ['session', () => {
      const session = ours.session();
      session.write(text);
      return session.end().valid ? 1 : 0;
    }],
  ];
  const engine = process.execArgv.includes(LINEAR_FLAG) ? `with ${LINEAR_FLAG}` : 'default engine';
  for (const [door, work] of doors) {
    const times = bestAlternating(work, ajvTime, 2);
    console.log(`| ${engine} | ${door} | ${Math.round(times.ours)} | ${Math.round(times.theirs)} | ${(times.ours / times.theirs).toFixed(2)}x |`);
  }
}

function refusedAtCompile(): void {
  try {
    compile(schema, {refuseExponentialPatterns: true});
    console.log('refuseExponentialPatterns: compiled (not refused)');
    process.exitCode = 1;
  } catch (error) {
    if (!(error instanceof SchemaError)) throw error;
    console.log(`refuseExponentialPatterns: compile throws SchemaError ${error.code} at "${error.schemaLocation}"; no document reaches the pattern`);
  }
}

if (process.argv[3] === 'child') measure();
else {
  console.log(`${PATTERN} on ${length} a's and "!", best of 2, ms (ajv: JSON.parse and its validator)`);
  console.log('| engine | door | stream-schema | ajv | ours / ajv |');
  console.log('|---|---|---:|---:|---:|');
  measure();
  // Patterns compile with the `u` flag (2020-12 core §6.4). Node 20's V8 runs none of those on its
  // linear-time engine ("cannot be executed in linear time"), so the flag changes nothing there;
  // a runtime whose linear engine takes Unicode-mode patterns would show it here.
  const script = fileURLToPath(import.meta.url);
  spawnSync(process.execPath, [LINEAR_FLAG, '--import', 'tsx', script, String(length), 'child'], {stdio: 'inherit'});
  refusedAtCompile();
}
