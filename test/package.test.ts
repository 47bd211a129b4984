// What a user of the package loads: each entry of package.json's `exports`, built as `npm run build`
// builds it (tsc, then scripts/bundle.mjs), against the source module the tests import everywhere
// else. The bundle is those modules joined, so the question is only whether the joining lost or
// doubled something: an export, a module's one copy (a class two doors share), the NDJSON worker
// found by URL beside the engine, or a verdict.

import assert from 'node:assert/strict';
import {existsSync, readFileSync, rmSync} from 'node:fs';
import {join} from 'node:path';
import {Readable} from 'node:stream';
import {after, before, test} from 'node:test';
import {pathToFileURL} from 'node:url';
import {buildPackage, ROOT} from './support/cliRun.js';

type Module = Record<string, unknown>;

interface Entry {
  /** The `exports` key: '.', './express'… */
  path: string;
  /** The built files its conditions name, in the test's build. */
  types: string;
  bundled: string;
  /** The source module tsc compiled its `types` from. */
  source: string;
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  main: string;
  bin: Record<string, string>;
  exports: Record<string, string | {types: string; default: string}>;
};

let build = '';
let entries: Entry[] = [];
const loaded = new Map<string, {bundled: Module; source: Module}>();

before(async () => {
  const built = await buildPackage();
  build = built.build;
  const inBuild = (target: string): string => join(build, target.replace(/^\.\/dist\//, ''));
  entries = Object.entries(manifest.exports).flatMap(([path, target]) => {
    if (typeof target === 'string') return [];
    const source = join(ROOT, target.types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts'));
    return [{path, types: inBuild(target.types), bundled: inBuild(target.default), source}];
  });
  for (const entry of entries) {
    const [bundled, source] = await Promise.all([import(pathToFileURL(entry.bundled).href), import(pathToFileURL(entry.source).href)]);
    loaded.set(entry.path, {bundled: bundled as Module, source: source as Module});
  }
});

after(() => {
  if (build !== '') rmSync(build, {recursive: true, force: true});
});

const both = (path: string): {bundled: Module; source: Module} => loaded.get(path)!;

test('every entry of `exports` has its declarations and its bundled file, and `main` and `bin` are bundled files', () => {
  assert.ok(entries.length >= 9, `exports lists ${entries.length} entries`);
  for (const entry of entries) {
    assert.ok(existsSync(entry.types), `${entry.path}: no ${entry.types}`);
    assert.ok(existsSync(entry.bundled), `${entry.path}: no ${entry.bundled}`);
    assert.ok(existsSync(entry.source), `${entry.path}: no source ${entry.source}`);
  }
  assert.equal(manifest.main, (manifest.exports['.'] as {default: string}).default);
  for (const bin of Object.values(manifest.bin)) assert.match(bin, /^\.\/dist\/bundle\/[\w-]+\.js$/);
});

test('each bundled entry exports what its source module exports', () => {
  for (const entry of entries) {
    const {bundled, source} = both(entry.path);
    assert.deepEqual(Object.keys(bundled).sort(), Object.keys(source).sort(), entry.path);
    for (const name of Object.keys(source)) assert.equal(typeof bundled[name], typeof source[name], `${entry.path}: ${name}`);
  }
});

test('a binding two entries export is one value in the bundle exactly when it is one in the source', () => {
  let shared = 0;
  for (const first of entries) {
    for (const second of entries) {
      if (first.path >= second.path) continue;
      for (const name of Object.keys(both(first.path).source)) {
        if (!(name in both(second.path).source)) continue;
        const same = both(first.path).source[name] === both(second.path).source[name];
        if (same) shared++;
        assert.equal(both(first.path).bundled[name] === both(second.path).bundled[name], same, `${first.path} and ${second.path}: ${name}`);
      }
    }
  }
  // HttpError, parseLimit and toProblem are each exported by several doors.
  assert.ok(shared >= 3, `${shared} shared bindings`);
});

test('a validator compiled by the bundle gives the source’s verdicts, and its doors take it', async () => {
  const schema = {type: 'object', properties: {n: {type: 'integer', minimum: 1}, s: {type: 'string', pattern: '^a'}}, required: ['n']};
  const texts = ['{"n": 2, "s": "ab"}', '{"n": 0}', '{"s": "b"}', '{"n": 1,', '{"n": 1, "n": 2}', '[]'];
  const ours = both('.').bundled as typeof import('../src/index.js');
  const theirs = both('.').source as typeof import('../src/index.js');
  const bundled = ours.compile(schema);
  const source = theirs.compile(schema);
  for (const text of texts) {
    assert.deepEqual(bundled.validateText(text), source.validateText(text), text);
    if (!text.endsWith(',')) assert.deepEqual(bundled.validate(JSON.parse(text)), source.validate(JSON.parse(text)), text);
  }
  assert.equal(ours.isValidator(bundled), true);
  const express = both('./express').bundled as typeof import('../adapters/express.js');
  assert.doesNotThrow(() => express.validateBody(bundled));
  // A broken schema is the SchemaError the bundle exports, from a door as from compile.
  assert.throws(() => express.validateBody({type: 'nonsense'}), ours.SchemaError);
});

test('the bundle’s NDJSON workers start, and give the records one thread gives', async () => {
  const schema = {type: 'object', properties: {id: {type: 'integer'}}, required: ['id']};
  const lines = Array.from({length: 3_000}, (_, i) => (i % 7 === 3 ? `{"id": "${i}"}` : i % 11 === 5 ? '{"id": ' : `{"id": ${i}}`)).join('\n');
  const records = async (module: Module, options: object): Promise<unknown[]> => {
    const {ndjsonValidator} = module as typeof import('../adapters/stream.js');
    const out: unknown[] = [];
    for await (const record of Readable.from([Buffer.from(lines)]).pipe(ndjsonValidator(schema, {onInvalid: 'emit', ...options}))) out.push(record);
    return out;
  };
  const alone = await records(both('./stream').source, {});
  assert.equal(alone.length, 3_000);
  assert.deepEqual(await records(both('./stream').bundled, {workers: 2, batchSize: 4096}), alone);
  assert.deepEqual(await records(both('./stream').bundled, {}), alone);
});
