#!/usr/bin/env node
// The CLI as the package's `bin` runs it: tsc's output for adapters/cli.js and the NDJSON worker,
// joined by esbuild into a few files in <dist>/cli/. Node 20 loads an ES module file by file
// (resolve, stat, read, compile), and the CLI's graph is 140 files: 70 ms of a 250 ms start,
// paid again by every worker of --jobs (docs/decisions.md, "The CLI's bin is bundled").
// The library's entry points stay tsc's files.
//
//   node scripts/bundle-cli.mjs [dist directory, default dist]

import {build} from 'esbuild';
import {existsSync, rmSync} from 'node:fs';
import {join, resolve} from 'node:path';

const dist = resolve(process.argv[2] ?? 'dist');
const entryPoints = ['adapters/cli.js', 'adapters/ndjson-worker.js'].map((file) => join(dist, file));
for (const entry of entryPoints) if (!existsSync(entry)) throw new Error(`no ${entry}: run tsc first`);

// The engine chunk's name is its hash: the last build's would stay beside this one's.
rmSync(join(dist, 'cli'), {recursive: true, force: true});

await build({
  entryPoints,
  outdir: join(dist, 'cli'),
  bundle: true,
  // One copy of the engine for the CLI and its workers, in a chunk both import. The worker is
  // found beside the chunk that starts it (new URL('./ndjson-worker.js', import.meta.url)).
  splitting: true,
  chunkNames: 'engine-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // A user's --coerce-types module and the like are imported by URL at run time.
  packages: 'external',
  logLevel: 'warning',
});
