#!/usr/bin/env node
// What the package's users load: tsc's output joined by esbuild into <dist>/bundle/, one file per
// entry of package.json's `exports` (found from its `types`: ./dist/x/y.d.ts is tsc's ./dist/x/y.js),
// the CLI's `bin` and the NDJSON worker, around shared chunks of the engine. Node 20 loads an ES
// module file by file (resolve, stat, read, compile): the engine is 140 of tsc's files, and importing
// it took 120–180 ms, ajv 55–80 ms; the CLI paid it again in every worker of --jobs
// (docs/decisions.md, "What users load is bundled"). The declarations stay tsc's; so do the
// JavaScript files the benchmarks import, which reach inside the engine.
//
//   node scripts/bundle.mjs [dist directory, default dist]

import {build} from 'esbuild';
import {existsSync, readFileSync, rmSync} from 'node:fs';
import {join, resolve} from 'node:path';

const dist = resolve(process.argv[2] ?? 'dist');
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** The bundle's file named by `target` (./dist/bundle/<name>.js), as esbuild's entry name. */
function entryName(target) {
  const match = /^\.\/dist\/bundle\/([\w-]+)\.js$/.exec(target);
  if (match === null) throw new Error(`package.json names ${target}, not a file of ./dist/bundle/`);
  return match[1];
}

const entryPoints = {};
for (const [path, target] of Object.entries(manifest.exports)) {
  if (typeof target === 'string') continue; // ./package.json
  const compiled = /^\.\/dist\/(.+)\.d\.ts$/.exec(target.types);
  if (compiled === null) throw new Error(`exports["${path}"].types is not a declaration of ./dist/: ${target.types}`);
  entryPoints[entryName(target.default)] = join(dist, `${compiled[1]}.js`);
}
entryPoints[entryName(manifest.bin['stream-schema'])] = join(dist, 'adapters/cli.js');
// Started by URL from the chunk that holds adapters/ndjson-workers.js: new URL('./ndjson-worker.js',
// import.meta.url), beside it as in tsc's output. Every chunk is in the bundle's one directory.
entryPoints['ndjson-worker'] = join(dist, 'adapters/ndjson-worker.js');
if (manifest.main !== manifest.exports['.'].default) throw new Error('package.json: main is not exports["."].default');
for (const entry of Object.values(entryPoints)) if (!existsSync(entry)) throw new Error(`no ${entry}: run tsc first`);

// Chunks are named by their hash: the last build's would stay beside this one's.
const outdir = join(dist, 'bundle');
rmSync(outdir, {recursive: true, force: true});

await build({
  entryPoints,
  outdir,
  bundle: true,
  // One copy of each module for all entries: a class the Express door throws is the class
  // `stream-schema` exports, and one copy of the engine's symbols (src/session/validator.ts).
  splitting: true,
  chunkNames: 'chunk-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Mapped through tsc's maps to the TypeScript sources the package ships.
  sourcemap: true,
  sourcesContent: false,
  // Dependencies and peers are the user's; a --coerce-types module and the like are imported by
  // URL at run time.
  packages: 'external',
  logLevel: 'warning',
});
