// Where a record's time goes: the fixed costs (tokenizer, evaluator with no keyword) and the
// keywords, per document, in CPU time. These are the measurements behind the optimisations listed
// in docs/decisions.md ("Engine speed"); run it before and after a change to the engine.
//
//   npm run build && node --import tsx benchmarks/breakdown.ts

import {compile} from '../dist/src/index.js';
import {ApplicationCount, Evaluator} from '../dist/src/engine/evaluator.js';
import {Scope} from '../dist/src/engine/dynamicScope.js';
import {KeyPlans} from '../dist/src/engine/keyPlan.js';
import {compileSchema} from '../dist/src/compile/compile.js';
import {defaultLimits} from '../dist/src/json/limits.js';
import {Tokenizer} from '../dist/src/json/tokenizer.js';
import {noopSink as noop, printSummary} from './support.js';

/** Best CPU time per call, in nanoseconds, over a few rounds of `count` calls. */
function nanoseconds(count: number, work: (i: number) => unknown): number {
  let best = Infinity;
  for (let round = 0; round < 5; round++) {
    const start = process.cpuUsage();
    for (let i = 0; i < count; i++) work(i);
    best = Math.min(best, process.cpuUsage(start).user);
  }
  return (best * 1000) / count;
}

/** The headline ratios: each validateText against JSON.parse of the same document. */
const summary: {workload: string; ratio: number; versus: string}[] = [];

function report(title: string, rows: [string, number][]): void {
  console.log(`\n${title}`);
  for (const [name, value] of rows) console.log(`  ${name.padEnd(44)} ${value.toFixed(0).padStart(6)} ns`);
  const parse = rows.find(([name]) => name === 'JSON.parse');
  for (const [name, value] of rows) {
    if (parse !== undefined && name.startsWith('validateText')) summary.push({workload: `${title.replace(/, per document$/, '')}: ${name}`, ratio: parse[1] / value, versus: 'JSON.parse'});
  }
}

// 1. A 10-property object of short strings.
const properties: Record<string, unknown> = {};
const flat: Record<string, string> = {};
for (let i = 0; i < 10; i++) {
  properties['p' + i] = {type: 'string'};
  flat['p' + i] = 'value' + i;
}
const flatText = JSON.stringify(flat);
const propsTrue = Object.fromEntries(Object.keys(properties).map((name) => [name, true]));
const always = compile(true);
const typed = compile({type: 'object', properties});
const permissive = compile({type: 'object', properties: propsTrue});
// Nine of the ten names unknown to the schema: each is judged as a member nothing applies to, with
// no lookup by name, where only `properties` selects names (Sources.selectsOtherNames).
const oneListed = compile({type: 'object', properties: {p0: {type: 'string'}}});
// The same object as a map: every name has the one member additionalProperties gives it.
const map = compile({type: 'object', additionalProperties: {type: 'string'}});
const N = 200_000;
report('10 string properties (~150 bytes), per document', [
  ['JSON.parse', nanoseconds(N, () => JSON.parse(flatText))],
  ['tokenizer alone (no-op sink)', nanoseconds(N, () => {
    const tokenizer = new Tokenizer(noop);
    tokenizer.write(flatText);
    tokenizer.end();
  })],
  ['validateText, schema true', nanoseconds(N, () => always.validateText(flatText))],
  ['validateText, properties: {type: string}', nanoseconds(N, () => typed.validateText(flatText))],
  ['validateText, properties: true', nanoseconds(N, () => permissive.validateText(flatText))],
  ['validateText, one of the ten in properties', nanoseconds(N, () => oneListed.validateText(flatText))],
  ['validateText, additionalProperties: string', nanoseconds(N, () => map.validateText(flatText))],
  ['validate, schema true', nanoseconds(N, () => always.validate(flat))],
  ['validate, properties: {type: string}', nanoseconds(N, () => typed.validate(flat))],
  ['validate, properties: true', nanoseconds(N, () => permissive.validate(flat))],
  ['validate, one of the ten in properties', nanoseconds(N, () => oneListed.validate(flat))],
]);

// 2. The evaluator alone, fed events directly: the fixed cost per event, and the repeated-key check.
const {root} = compileSchema(true, {});
const evaluator = new Evaluator(root, false, new KeyPlans(), new Scope(null, null), new ApplicationCount(defaultLimits.maxApplications), 'document');
const keys = Array.from({length: 10}, (_, i) => 'k' + i);
const input = {position: () => ({offset: 0, line: 1, column: 1}), stop() {}};
const tenKeys = (fromText: boolean) => () => {
  evaluator.reset(fromText ? input : null);
  evaluator.startObject();
  for (let i = 0; i < 10; i++) {
    evaluator.keyValue(keys[i]);
    evaluator.numberValue('1');
  }
  evaluator.endObject();
};
report('evaluator alone, schema true, per document', [
  ['reset + {}', nanoseconds(N, () => {
    evaluator.reset(input);
    evaluator.startObject();
    evaluator.endObject();
  })],
  ['reset + 10 keys and numbers, from text', nanoseconds(N, tenKeys(true))],
  ['reset + 10 keys and numbers, parsed value', nanoseconds(N, tenKeys(false))],
]);

// 3. Numbers: the integer fast path of the tokenizer.
const numbers = '{' + Array.from({length: 10}, (_, i) => `"k${i}":${1000 + i}`).join(',') + '}';
report('10 integer properties, per document', [
  ['JSON.parse', nanoseconds(N, () => JSON.parse(numbers))],
  ['tokenizer alone (no-op sink)', nanoseconds(N, () => {
    const tokenizer = new Tokenizer(noop);
    tokenizer.write(numbers);
    tokenizer.end();
  })],
  ['validateText, schema true', nanoseconds(N, () => always.validateText(numbers))],
]);

// 4. An array of 30 items, strings and integers: the items untyped (read by the code as values
// nothing applies to), and typed.
const items = JSON.stringify(Array.from({length: 30}, (_, i) => (i % 2 === 0 ? i : 'tag' + i)));
const untyped = compile({type: 'array'});
const typedItems = compile({type: 'array', items: {type: ['string', 'integer']}});
report('an array of 30 strings and integers, per document', [
  ['JSON.parse', nanoseconds(N, () => JSON.parse(items))],
  ['validateText, type: array', nanoseconds(N, () => untyped.validateText(items))],
  ['validateText, items: string or integer', nanoseconds(N, () => typedItems.validateText(items))],
]);

printSummary(summary);
