// Compile time of large `const` and `enum` literals, against ajv compiling the same schema in the
// same run. A literal's nodes are made as documents reach its members (src/keywords/rules/literal.ts),
// so compiling is one pass that checks the literal holds JSON only.
//
//   npm run build && node --import tsx benchmarks/literals.ts
//
// The target: a 6 MB literal compiles in under 300 ms.

import {Ajv2020} from 'ajv/dist/2020.js';
import {compile} from '../dist/src/index.js';
import {bestAlternating} from './support.js';

const TARGET_MS = 300;

/** An object of `keys` members, small numbers: ~13 bytes of JSON per member. */
function wideObject(keys: number): Record<string, number> {
  const object: Record<string, number> = {};
  for (let i = 0; i < keys; i++) object['k' + i] = i % 100;
  return object;
}

/** Records nested three levels deep, as a configuration or a fixture would hold them. */
function nestedRecords(count: number): unknown[] {
  return Array.from({length: count}, (_, i) => ({id: i, name: `record ${i}`, tags: ['a', 'b', String(i % 7)], address: {city: 'c' + (i % 50), zip: 10000 + i}}));
}

function ajvCompile(schema: object): number {
  return new Ajv2020({strict: false}).compile(schema) === undefined ? 0 : 1;
}

function main(): void {
  const cases: [string, object][] = [
    ['const: an object of 450,000 members', {const: wideObject(450_000)}],
    ['const: 60,000 nested records', {const: nestedRecords(60_000)}],
    ['enum: 1,000 objects of 450 members', {enum: Array.from({length: 1000}, (_, i) => ({...wideObject(450), id: i}))}],
  ];
  let missed = false;
  console.log('| literal | JSON MB | stream-schema compile, best ms | ajv compile, best ms | target |');
  console.log('|---|---:|---:|---:|---:|');
  for (const [name, schema] of cases) {
    const megabytes = JSON.stringify(schema).length / 1e6;
    const times = bestAlternating(() => (compile(schema) === undefined ? 0 : 1), () => ajvCompile(schema), 3);
    const met = times.ours < TARGET_MS;
    missed ||= !met;
    console.log(`| ${name} | ${megabytes.toFixed(1)} | ${Math.round(times.ours)} | ${Math.round(times.theirs)} | under ${TARGET_MS} ms ${met ? 'met' : 'NOT met'} |`);
  }
  if (missed) process.exitCode = 1;
}

main();
