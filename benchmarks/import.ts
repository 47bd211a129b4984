// Cold start: how long `import()` of the package's entries takes in a fresh Node, against
// `import('ajv/dist/2020.js')` in the same rounds. Each import runs in its own child process, the
// tools alternating round by round; the best round of each is compared. Beside the bundle users
// load (dist/bundle/, scripts/bundle.mjs), tsc's files of the same entry: what bundling saves.
//
//   npm run build && node --import tsx benchmarks/import.ts [rounds, default 7]

import {spawnSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {printSummary} from './support.js';

const ROOT = new URL('..', import.meta.url).pathname;
const rounds = Number(process.argv[2] ?? 7);
if (!(rounds >= 1)) throw new RangeError(`rounds must be at least 1, got ${process.argv[2]}`);

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {exports: Record<string, string | {types: string; default: string}>};
const entry = (path: string): {types: string; default: string} => manifest.exports[path] as {types: string; default: string};
/** tsc's JavaScript for an entry, beside its declarations. */
const compiled = (path: string): string => entry(path).types.replace(/\.d\.ts$/, '.js');

const AJV = pathToFileURL(join(ROOT, 'node_modules/ajv/dist/2020.js')).href;
const tools: {name: string; url: string}[] = [
  {name: 'ajv/dist/2020.js', url: AJV},
  ...['.', './express', './fastify', './stream'].flatMap((path) => [
    {name: `stream-schema${path.slice(1)} (bundle)`, url: pathToFileURL(join(ROOT, entry(path).default)).href},
    {name: `stream-schema${path.slice(1)} (tsc's files)`, url: pathToFileURL(join(ROOT, compiled(path))).href},
  ]),
];

/** Milliseconds one fresh Node takes to import `url`. */
function importTime(url: string): number {
  const source = `const started = performance.now(); await import(${JSON.stringify(url)}); console.log(performance.now() - started);`;
  const child = spawnSync(process.execPath, ['--input-type=module', '--eval', source], {encoding: 'utf8'});
  if (child.status !== 0) throw new Error(`importing ${url} failed: ${child.stderr}`);
  return Number(child.stdout.trim());
}

const times = new Map(tools.map((tool) => [tool.name, [] as number[]]));
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? tools : [...tools].reverse();
  for (const tool of order) times.get(tool.name)!.push(importTime(tool.url));
}
const best = (name: string): number => Math.min(...times.get(name)!);
const ajv = best('ajv/dist/2020.js');

console.log(`\nimport() in a fresh Node, best of ${rounds} rounds (ratio: ajv's time / ours; above 1, we start sooner)`);
console.log('| import | best ms | all rounds, ms | vs ajv |');
console.log('|---|---:|---|---:|');
for (const tool of tools) {
  const all = times.get(tool.name)!.map((ms) => ms.toFixed(0)).join(', ');
  console.log(`| ${tool.name} | ${best(tool.name).toFixed(1)} | ${all} | ${(ajv / best(tool.name)).toFixed(2)}x |`);
}
printSummary(
  tools
    .filter((tool) => tool.name.endsWith('(bundle)'))
    .map((tool) => ({workload: `import ${tool.name.replace(' (bundle)', '')}, fresh Node, best of ${rounds}`, ratio: ajv / best(tool.name), versus: 'import ajv'})),
);
