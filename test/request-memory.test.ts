// Nothing a request sends outlives its answer, but bounded copies in the validator's caches. Key
// plans once kept each unique property name as a slice of its body, and V8 keeps a slice's whole
// parent alive: 3,000 invalid 60 KB bodies with a unique key each left ~180 MB on Express and on
// Fastify. And the validator's pooled document kept its last document's tokenizer and runs,
// whose errors quote the keys: one body per validator, whatever its size.
//
// Heap sizes are measured in child processes started with --expose-gc (see test/gc.test.ts for
// why not here), after a full GC.

import assert from 'node:assert/strict';
import {execFile, spawn} from 'node:child_process';
import {once} from 'node:events';
import {before, describe, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {promisify} from 'node:util';
import {calls, invalidBody} from './support/requestMemory.js';

const root = fileURLToPath(new URL('..', import.meta.url));

async function post(origin: string, path: string, text: string): Promise<{status: number; text: string}> {
  const response = await fetch(origin + path, {method: 'POST', headers: {'content-type': 'application/json'}, body: text});
  return {status: response.status, text: await response.text()};
}
const probe = new URL('./support/requestMemory.ts', import.meta.url).href;
const childFlags = ['--expose-gc', '--import', 'tsx', '--input-type=module', '--eval'];

const BODIES = 3000;
/** Bodies sent before the heap is first measured: the server's and the engine's first-use state. */
const WARM_UP = 200;
const MAX_GROWTH_MB = 10;

async function inChild(script: string): Promise<unknown> {
  const {stdout} = await promisify(execFile)(process.execPath, [...childFlags, script], {cwd: root, maxBuffer: 1 << 20});
  return JSON.parse(stdout);
}

describe('a validator keeps nothing of the bodies it judged', {timeout: 300_000}, () => {
  let report: Record<string, {growth: number; retained: number}>;
  before(async () => {
    report = (await inChild(`const {calls, growthOverBodies, retainedAfterOneBody} = await import(${JSON.stringify(probe)});
const report = {};
for (const name of Object.keys(calls)) report[name] = {growth: growthOverBodies(name, ${BODIES}, ${WARM_UP}), retained: retainedAfterOneBody(name)};
process.stdout.write(JSON.stringify(report));`)) as typeof report;
    if (process.env.MEMORY_REPORT) console.log(JSON.stringify(report));
  });

  for (const name of Object.keys(calls)) {
    test(`${BODIES.toLocaleString('en-US')} invalid 60 KB bodies with a unique key each, ${name}: the heap grows by less than ${MAX_GROWTH_MB} MB`, () => {
      assert.ok(report[name]!.growth < MAX_GROWTH_MB, `grew by ${report[name]!.growth.toFixed(1)} MB`);
    });
    test(`one invalid 10 MB body, ${name}: less than 1 MB of it is kept once it is judged`, () => {
      assert.ok(report[name]!.retained < 1, `kept ${report[name]!.retained.toFixed(1)} MB`);
    });
  }
});

describe('the caches of names are capped in bytes', {timeout: 300_000}, () => {
  test('3,000 invalid bodies with a unique key of 60,000 characters each: the heap grows by less than 10 MB', async () => {
    const growth = (await inChild(`const {growthOverLongKeys} = await import(${JSON.stringify(probe)});
process.stdout.write(JSON.stringify(growthOverLongKeys(3000)));`)) as number;
    assert.ok(growth < MAX_GROWTH_MB, `grew by ${growth.toFixed(1)} MB`);
    if (process.env.MEMORY_REPORT) console.log(`60,000-character keys: grew by ${growth.toFixed(1)} MB`);
  });

  test('3,000 documents giving each of 20 object nodes a unique 256-character name: the heap grows by less than 10 MB', async () => {
    const growth = (await inChild(`const {growthOverManyNames} = await import(${JSON.stringify(probe)});
process.stdout.write(JSON.stringify(growthOverManyNames(3000)));`)) as number;
    assert.ok(growth < MAX_GROWTH_MB, `grew by ${growth.toFixed(1)} MB`);
    if (process.env.MEMORY_REPORT) console.log(`20 nodes, 256-character names: grew by ${growth.toFixed(1)} MB`);
  });

  test("copyName's copies of 13+-character slices keep nothing of the text they were cut from", async () => {
    const retained = (await inChild(`const {retainedByCopies} = await import(${JSON.stringify(probe)});
process.stdout.write(JSON.stringify(retainedByCopies(200)));`)) as number;
    // 200 texts of 1 MB (half of them two bytes a character): 300 MB if the copies were slices.
    assert.ok(retained < 1, `kept ${retained.toFixed(1)} MB`);
  });
});

/** A server in a child process: its port, and a way to read its heap after a GC. */
async function serverInChild(door: 'express' | 'fastify'): Promise<{origin: string; heap(): Promise<number>; stop(): void}> {
  const script = `const {serve} = await import(${JSON.stringify(probe)});
process.stdout.write(String(await serve(${JSON.stringify(door)})) + '\\n');`;
  const child = spawn(process.execPath, [...childFlags, script], {cwd: root, stdio: ['ignore', 'pipe', 'inherit']});
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  const origin = `http://127.0.0.1:${Number(line.toString())}`;
  return {
    origin,
    heap: async () => Number(await (await fetch(origin + '/heap')).text()),
    stop: () => child.kill(),
  };
}

/** `count` invalid bodies, numbered from `from`, a few at a time: each must be refused. */
async function sendInvalid(origin: string, from: number, count: number): Promise<void> {
  const inFlight = 4;
  let next = from;
  const worker = async (): Promise<void> => {
    while (next < from + count) {
      const i = next++;
      const {status} = await post(origin, '/closed', invalidBody(i));
      assert.ok(status >= 400 && status < 500, `body ${i} answered ${status}`);
    }
  };
  await Promise.all(Array.from({length: inFlight}, worker));
}

for (const [door, name] of [['express', 'Express'], ['fastify', 'Fastify']] as const) {
  describe(`a ${name} server keeps nothing of the bodies it refused`, {timeout: 300_000}, () => {
    test(`${BODIES.toLocaleString('en-US')} invalid 60 KB bodies with a unique key each: the heap grows by less than ${MAX_GROWTH_MB} MB`, async () => {
      const server = await serverInChild(door);
      try {
        await sendInvalid(server.origin, 0, WARM_UP);
        const before = await server.heap();
        await sendInvalid(server.origin, WARM_UP, BODIES);
        const growth = (await server.heap()) - before;
        assert.ok(growth < MAX_GROWTH_MB, `grew by ${growth.toFixed(1)} MB`);
        if (process.env.MEMORY_REPORT) console.log(`${name}: grew by ${growth.toFixed(1)} MB`);
      } finally {
        server.stop();
      }
    });
  });
}
