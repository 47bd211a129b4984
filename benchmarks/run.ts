// `npm run bench`: every benchmark, one after the other, each in its own process so they do not
// share a heap or a JIT. Each prints ratios against its competitor measured in the same run.
//
//   npm run bench                      all of them (the NDJSON memory run uses a 1 GiB file)
//   NDJSON_BENCH_MB=100 npm run bench  a quicker NDJSON memory run
//   npm run bench -- engine http       only the named ones
//   npm run bench -- load              the load run alone (60 s per server at 100 connections)

import {spawnSync} from 'node:child_process';
import {existsSync} from 'node:fs';
import {fileURLToPath} from 'node:url';

const all = ['tokenizer', 'breakdown', 'engine', 'value-options', 'keywords', 'ceiling', 'http', 'http-cpu', 'http-reader', 'rejection-floor', 'ndjson-memory', 'ndjson-jobs', 'huge-document', 'unique-items-memory', 'name-cache-memory', 'validator-churn', 'linear-time', 'compile', 'literals', 'redos', 'load'];
/** Node flags a benchmark needs: the memory runs collect garbage themselves before each heap sample. */
const nodeFlags: Readonly<Record<string, readonly string[]>> = {
  'validator-churn': ['--expose-gc'],
  'unique-items-memory': ['--expose-gc'],
  'name-cache-memory': ['--expose-gc'],
};
const chosen = process.argv.slice(2).length > 0 ? process.argv.slice(2) : all;
let failed = false;
for (const name of chosen) {
  const script = fileURLToPath(new URL(`./${name}.ts`, import.meta.url));
  if (!existsSync(script)) {
    console.error(`no benchmark named ${name} (have: ${all.join(', ')})`);
    failed = true;
    continue;
  }
  console.log(`\n=== ${name} ===`);
  const run = spawnSync(process.execPath, [...(nodeFlags[name] ?? []), '--import', 'tsx', script], {stdio: 'inherit'});
  if (run.status !== 0) failed = true;
}
process.exitCode = failed ? 1 : 0;
