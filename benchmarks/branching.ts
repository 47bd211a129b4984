// Documents that keep two recursive subschemas open at each of their levels, and a schema whose
// references fan out: the time to a verdict, or to the `limit.applications` refusal, in each mode,
// beside ajv on the same parsed value (docs/decisions.md, "A bound on the subschemas applied to
// one document"). ajv runs up to 16 levels: where its time doubles with each, 18 take 4 s.
//
//   npm run build && node --import tsx benchmarks/branching.ts

import {Ajv2020} from 'ajv/dist/2020.js';
import {compile, type Result, type Validator} from '../dist/src/index.js';
import {branchingLists, branchingTree, nestedLists, treeWithKindLast} from '../test/support/branching.js';

/** References that fan out: `depth` steps of `allOf: [{$ref: next}, {$ref: next}]`. */
const fanOut = (depth: number): object => {
  const defs: Record<string, object> = {};
  for (let step = 0; step < depth; step++) defs[`d${step}`] = {allOf: [{$ref: `#/$defs/d${step + 1}`}, {$ref: `#/$defs/d${step + 1}`}]};
  defs[`d${depth}`] = {type: 'object'};
  return {$defs: defs, $ref: '#/$defs/d0'};
};

const modes: [string, (validator: Validator, text: string) => Result][] = [
  ['validate', (validator, text) => validator.validate(JSON.parse(text))],
  ['validateText', (validator, text) => validator.validateText(text)],
  ['a session', (validator, text) => {
    const session = validator.session();
    session.write(text);
    return session.end();
  }],
];

/** Milliseconds of the fastest of `runs`, and the verdict. */
function timed(work: () => string, runs = 3): [number, string] {
  let verdict = work();
  let fastest = Infinity;
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    verdict = work();
    fastest = Math.min(fastest, performance.now() - start);
  }
  return [fastest, verdict];
}

const verdictOf = (result: Result): string => (result.valid ? 'valid' : String(result.errors[0]?.params?.['code'] ?? result.errors[0]?.keyword));
const AJV_MAX_DEPTH = 16;

console.log('| case | levels | bytes | validate | validateText | a session | ajv |');
console.log('|---|---:|---:|---|---|---|---|');
const cases: [string, object, (depth: number) => string, number[]][] = [
  ['tree, kind last', branchingTree, treeWithKindLast, [8, 12, 16, 24, 64]],
  ['lists, failing at the bottom', branchingLists, nestedLists, [8, 12, 16, 20, 64]],
  ...[8, 12, 16, 24].map((depth): [string, object, (depth: number) => string, number[]] => [`references fanning out ${depth} steps`, fanOut(depth), () => '{}', [depth]]),
];
for (const [name, schema, textOf, depths] of cases) {
  const ours = compile(schema);
  const ajv = new Ajv2020({strict: false}).compile(schema);
  for (const depth of depths) {
    const text = textOf(depth);
    const cells = modes.map(([, judge]) => {
      const [ms, verdict] = timed(() => verdictOf(judge(ours, text)));
      return `${verdict}, ${ms.toFixed(1)} ms`;
    });
    let theirs = `not run past ${AJV_MAX_DEPTH} levels`;
    if (depth <= AJV_MAX_DEPTH) {
      const value: unknown = JSON.parse(text);
      const [ms, verdict] = timed(() => (ajv(value) ? 'valid' : 'invalid'), 1);
      theirs = `${verdict}, ${ms.toFixed(1)} ms`;
    }
    console.log(`| ${name} | ${depth} | ${text.length} | ${cells.join(' | ')} | ${theirs} |`);
  }
}
