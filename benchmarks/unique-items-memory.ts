// What `uniqueItems` keeps per item, in each engine, and the CLI's peak RSS on a large array.
//
//   npm run build && node --expose-gc --import tsx benchmarks/unique-items-memory.ts [items]
//
// 1. The evaluator (a session): an array of `items` scalars is written but for its closing
//    bracket, so everything kept for it is still held; the heap and the array buffers after a
//    full GC, less the same for `{type: 'array'}`, per item.
// 2. The checker (`validate()`, which asks it first): the same measurement, taken from a getter
//    on the array's last item, while the checker holds every item before it.
// 3. The CLI on a file `[0,1,2,…]` of ~47 MB, with and without `uniqueItems`: its peak RSS (VmHWM,
//    polled), as a user runs it (dist/bundle/cli.js).
//
// Booleans and null repeat after two items: an array of them longer than that is a duplicate at
// its third item, so they are measured in an array of [true, false] pairs nested one level
// ([[true,false],[false,true],…] has at most two distinct items too): what remains is the numbers
// and strings.

import {spawn} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync, createWriteStream} from 'node:fs';
import {once} from 'node:events';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {compile, type Validator} from '../dist/src/index.js';

const gc = (globalThis as {gc?: () => void}).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

const ROOT = new URL('..', import.meta.url).pathname;
const items = Number(process.argv[2] ?? 1_000_000);

/** Heap and array buffers after a full GC, in bytes. A regexp match drops V8's last subject. */
function held(): number {
  /y/.test('y');
  gc!();
  gc!();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

const itemTexts: Record<string, (i: number) => string> = {
  'numbers 0..n': (i) => String(i),
  'numbers, decimals': (i) => (i / 8).toFixed(3),
  'short strings': (i) => `"s${i}"`,
};

/** What a session holds for the array of `items` written but not closed, per item. */
function sessionBytes(validator: Validator, item: (i: number) => string): number {
  const session = validator.session();
  const before = held();
  session.write('[');
  let chunk = '';
  for (let i = 0; i < items; i++) {
    chunk += (i === 0 ? '' : ',') + item(i);
    if (chunk.length > 65536) {
      session.write(chunk);
      chunk = '';
    }
  }
  session.write(chunk);
  chunk = '';
  const bytes = held() - before;
  if (session.failed) throw new Error('the array failed');
  session.end();
  return bytes;
}

/** What validate() holds while it reads the last item of an array of `items`, per item. */
function checkerBytes(validator: Validator, item: (i: number) => string): number {
  const values: unknown[] = [];
  for (let i = 0; i < items - 1; i++) values.push(JSON.parse(item(i)));
  let bytes = 0;
  const last = JSON.parse(item(items - 1));
  const before = held();
  Object.defineProperty(values, items - 1, {
    enumerable: true,
    get() {
      bytes = held() - before;
      return last;
    },
  });
  if (!validator.validate(values).valid) throw new Error('the array failed');
  return bytes;
}

const unique = compile({uniqueItems: true});
const plain = compile({type: 'array'});
console.log(`uniqueItems: bytes held per item of an array of ${items.toLocaleString('en-US')} (heap + array buffers, after GC, less {type: 'array'})`);
for (const [name, item] of Object.entries(itemTexts)) {
  const evaluator = (sessionBytes(unique, item) - sessionBytes(plain, item)) / items;
  const checker = (checkerBytes(unique, item) - checkerBytes(plain, item)) / items;
  console.log(`  ${name.padEnd(18)} evaluator (session) ${evaluator.toFixed(1).padStart(6)}   checker (validate) ${checker.toFixed(1).padStart(6)}`);
}
const pair = (i: number): string => (i % 2 === 0 ? '[true,false]' : '[false,true]');
const pairs = compile({items: {uniqueItems: true}});
console.log(`  ${'boolean pairs'.padEnd(18)} evaluator (session) ${((sessionBytes(pairs, pair) - sessionBytes(plain, pair)) / items).toFixed(1).padStart(6)}`);

/** Peak RSS of the CLI validating `file` against `schema`, in MB. */
async function cliPeakMb(schema: string, file: string): Promise<{peakMb: number; exit: number | null}> {
  const child = spawn(process.execPath, [join(ROOT, 'dist/bundle/cli.js'), 'validate', '--quiet', '--schema', schema, file], {stdio: 'ignore'});
  let peakKb = 0;
  const poll = setInterval(() => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      peakKb = Math.max(peakKb, Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0));
    } catch {
      // Gone between two polls: keep the last reading.
    }
  }, 20);
  const [exit] = (await once(child, 'exit')) as [number | null];
  clearInterval(poll);
  return {peakMb: peakKb / 1024, exit};
}

const directory = mkdtempSync(join(tmpdir(), 'unique-items-'));
try {
  const file = join(directory, 'numbers.json');
  const out = createWriteStream(file);
  let written = 0;
  let count = 0;
  out.write('[');
  while (written < 47 * 1024 * 1024) {
    let chunk = '';
    for (let i = 0; i < 10_000; i++, count++) chunk += (count === 0 ? '' : ',') + count;
    written += chunk.length;
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end(']');
  await once(out, 'finish');
  const withUnique = join(directory, 'unique.json');
  const without = join(directory, 'array.json');
  writeFileSync(withUnique, JSON.stringify({type: 'array', uniqueItems: true}));
  writeFileSync(without, JSON.stringify({type: 'array'}));
  console.log(`\nCLI, ${(written / 1024 / 1024).toFixed(0)} MB file [0,1,…,${count - 1}] (${count.toLocaleString('en-US')} items): peak RSS`);
  for (const [name, schema] of [['{type: array}', without], ['{type: array, uniqueItems: true}', withUnique]] as const) {
    const {peakMb, exit} = await cliPeakMb(schema, file);
    console.log(`  ${name.padEnd(34)} ${peakMb.toFixed(0).padStart(5)} MB (exit ${exit})`);
  }
} finally {
  rmSync(directory, {recursive: true, force: true});
}
