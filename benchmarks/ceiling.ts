// How fast could streaming validation of the engine benchmark's records be, with our tokenizer?
// A validator written by hand for that one schema (benchmarks/workloads.ts) as a TokenSink: no
// runs, no hooks, state in a few fields per open container, checks inline. It is what a schema
// compiled to code would at best amount to; it is not part of the package and knows nothing but
// this schema. It answers whether issue 2's 0.6x target is within reach of our tokenizer at all,
// and how much of today's time is the engine's machinery (docs/decisions.md, "Engine speed").
//
//   npm run build && node --import tsx benchmarks/ceiling.ts

import {spawnSync} from 'node:child_process';
import {fileURLToPath} from 'node:url';
import {Ajv} from 'ajv';
import {compile} from '../dist/src/index.js';
import {Tokenizer} from '../dist/src/json/tokenizer.js';
import type {TokenSink} from '../src/types.js';
import {best, noopSink, printSummary} from './support.js';
import {record, recordSchema} from './workloads.js';

// Where a value sits, as far as the schema cares.
const enum At {
  Root,
  User,
  Items,
  Item,
  Tags,
  /** Anything inside a value no subschema constrains further (an item's unknown property). */
  Free,
}

const ROOT_REQUIRED = 0b1111; // id, type, timestamp, user
const PURCHASE_REQUIRED = 0b111_0000; // amount, currency, items
/** The root property's bit among the required ones; 0 for other declared properties, -1 for undeclared. */
function rootBit(key: string): number {
  switch (key) {
    case 'id':
      return 1;
    case 'type':
      return 2;
    case 'timestamp':
      return 4;
    case 'user':
      return 8;
    case 'amount':
      return 16;
    case 'currency':
      return 32;
    case 'items':
      return 64;
    case 'tags':
    case 'session':
    case 'agent':
    case 'referrer':
      return 0;
    default:
      return -1;
  }
}
const EVENT_TYPES = new Set(['click', 'view', 'purchase', 'signup']);
const ID = /^evt_[0-9a-f]{12}$/;
const X_KEY = /^x-/;

class RecordValidator implements TokenSink {
  valid = true;
  private readonly at: At[] = [];
  private readonly seen: number[] = [];
  private readonly keys: string[][] = [];
  private key = '';
  private purchase = false;
  private itemCount = 0;

  reset(): void {
    this.valid = true;
    this.at.length = 0;
    this.seen.length = 0;
    this.keys.length = 0;
    this.purchase = false;
  }

  private fail(): void {
    this.valid = false;
  }

  /** What the value starting now is: its container context and, in an object, its key. */
  private here(): At {
    return this.at.length === 0 ? At.Root : this.at[this.at.length - 1]!;
  }

  private open(kind: 'object' | 'array'): void {
    const at = this.here();
    let next = At.Free;
    if (this.at.length === 0) next = kind === 'object' ? At.Root : (this.fail(), At.Free);
    else if (at === At.Root && this.key === 'user') next = kind === 'object' ? At.User : (this.fail(), At.Free);
    else if (at === At.Root && this.key === 'items') next = kind === 'array' ? At.Items : (this.fail(), At.Free);
    else if (at === At.Root && this.key === 'tags') next = kind === 'array' ? At.Tags : (this.fail(), At.Free);
    else if (at === At.Items) {
      if (++this.itemCount > 20) this.fail();
      next = kind === 'object' ? At.Item : (this.fail(), At.Free);
    } else if (at !== At.Free && at !== At.Item) this.fail();
    if (next === At.Items) this.itemCount = 0;
    this.at.push(next);
    this.seen.push(0);
    if (kind === 'object') this.keys.push([]);
  }

  startObject(): void {
    this.open('object');
  }

  startArray(): void {
    this.open('array');
  }

  endObject(): void {
    const at = this.at.pop()!;
    const seen = this.seen.pop()!;
    this.keys.pop();
    if (at === At.Root && ((seen & ROOT_REQUIRED) !== ROOT_REQUIRED || (this.purchase && (seen & PURCHASE_REQUIRED) !== PURCHASE_REQUIRED))) this.fail();
    if (at === At.User && (seen & 3) !== 3) this.fail();
    if (at === At.Item && (seen & 3) !== 3) this.fail();
  }

  endArray(): void {
    this.at.pop();
    this.seen.pop();
  }

  keyValue(key: string): void {
    const keys = this.keys[this.keys.length - 1]!;
    for (let i = 0; i < keys.length; i++) if (keys[i] === key) this.fail();
    keys.push(key);
    this.key = key;
    const top = this.at.length - 1;
    const at = this.at[top];
    if (at === At.Root) {
      const bit = rootBit(key);
      if (bit > 0) this.seen[top]! |= bit;
      else if (bit < 0 && !X_KEY.test(key)) this.fail();
    } else if (at === At.User) {
      if (key === 'id') this.seen[top]! |= 1;
      else if (key === 'email') this.seen[top]! |= 2;
      else if (key !== 'name' && key !== 'country') this.fail();
    } else if (at === At.Item) {
      if (key === 'sku') this.seen[top]! |= 1;
      else if (key === 'qty') this.seen[top]! |= 2;
    }
  }

  stringValue(value: string): void {
    const at = this.here();
    const key = this.key;
    if (at === At.Root) {
      if (key === 'id') {
        if (!ID.test(value)) this.fail();
      } else if (key === 'type') {
        if (!EVENT_TYPES.has(value)) this.fail();
        this.purchase = value === 'purchase';
      } else if (key === 'currency') {
        if (value.length !== 3) this.fail();
      } else if (key === 'agent') {
        if (value.length > 512) this.fail();
      } else if (key === 'timestamp' || key === 'amount' || key === 'user' || key === 'items' || key === 'tags') this.fail();
    } else if (at === At.User) {
      if (key === 'id') this.fail();
      else if (key === 'email' && value.length > 120) this.fail();
      else if (key === 'country' && value.length !== 2) this.fail();
    } else if (at === At.Item) {
      if (key === 'qty' || key === 'price') this.fail();
    } else if (at === At.Items) this.fail();
  }

  numberValue(text: string): void {
    const at = this.here();
    const key = this.key;
    const value = Number(text);
    if (at === At.Root) {
      if (key === 'timestamp') {
        if (!Number.isInteger(value) || value < 0) this.fail();
      } else if (key === 'amount') {
        if (value < 0) this.fail();
      } else this.fail();
    } else if (at === At.User) {
      if (key !== 'id' || !Number.isInteger(value)) this.fail();
    } else if (at === At.Item) {
      if (key === 'sku' || (key === 'qty' && (!Number.isInteger(value) || value < 1))) this.fail();
    } else if (at !== At.Free) this.fail();
  }

  private literal(): void {
    const at = this.here();
    if (at === At.Free || (at === At.Item && this.key !== 'sku' && this.key !== 'qty' && this.key !== 'price')) return;
    if (at === At.Root && this.key === 'referrer') return;
    this.fail();
  }

  nullValue(): void {
    this.literal();
  }

  trueValue(): void {
    this.literal();
  }

  falseValue(): void {
    this.literal();
  }
}

const recordCount = Number(process.argv[3] ?? 100_000);
const records = Array.from({length: recordCount}, (_, i) => record(i));
const lines = records.map((value) => JSON.stringify(value));

const byHand = new RecordValidator();
const checkByHand = (line: string): boolean => {
  byHand.reset();
  const tokenizer = new Tokenizer(byHand);
  tokenizer.write(line);
  tokenizer.end();
  return byHand.valid;
};
const ajvRecord = new Ajv({allowMatchingProperties: true}).compile(recordSchema);

/** It must agree with the engine and ajv, or the ceiling means nothing: every record, and broken ones. */
function check(): void {
  const ours = compile(recordSchema);
  const broken = [
    (r: Record<string, any>) => ({...r, id: 'evt_x'}),
    (r: Record<string, any>) => ({...r, type: 'purchase'}),
    (r: Record<string, any>) => ({...r, timestamp: -1}),
    (r: Record<string, any>) => ({...r, user: {...r.user, extra: 1}}),
    (r: Record<string, any>) => ({...r, user: {...r.user, country: 'NOR'}}),
    (r: Record<string, any>) => ({...r, unknown: 1}),
    (r: Record<string, any>) => ({...r, 'x-n': 1}),
    (r: Record<string, any>) => ({...r, tags: [1]}),
    (r: Record<string, any>) => ({...r, type: 'purchase', amount: 1, currency: 'EUR', items: [{sku: 'a', qty: 0}]}),
    (r: Record<string, any>) => ({...r, referrer: 3}),
  ];
  for (let i = 0; i < Math.min(recordCount, 2000); i++) {
    for (const line of [lines[i]!, ...broken.map((change) => JSON.stringify(change(records[i]!)))]) {
      const expected = ours.validateText(line).valid;
      if (checkByHand(line) !== expected || ajvRecord(JSON.parse(line)) !== expected) throw new Error(`the hand-written validator disagrees on ${line}`);
    }
  }
}

/** Best time per record, in ns, over 7 rounds (after a warm-up). */
function perRecord(work: (line: string) => unknown): number {
  const milliseconds = best(() => {
    for (let i = 0; i < lines.length; i++) work(lines[i]!);
    return 0;
  });
  return (milliseconds * 1e6) / lines.length;
}

const variants: Record<string, [string, () => number]> = {
  theirs: ['JSON.parse + ajv (the competitor)', () => perRecord((line) => ajvRecord(JSON.parse(line)))],
  tokenizer: ['our tokenizer, no-op sink', () => perRecord((line) => {
    const tokenizer = new Tokenizer(noopSink);
    tokenizer.write(line);
    tokenizer.end();
  })],
  byHand: ['our tokenizer + the hand-written validator', () => perRecord(checkByHand)],
  ours: ['stream-schema validateText', () => {
    const ours = compile(recordSchema);
    return perRecord((line) => ours.validateText(line));
  }],
};

const variant = process.argv[2];
if (variant === 'check') check();
else if (variant !== undefined) {
  const chosen = variants[variant];
  if (chosen === undefined) throw new Error(`no variant ${variant} (have: check, ${Object.keys(variants).join(', ')}); run without arguments for all`);
  console.log(chosen[1]());
}
else {
  // Each variant in a process of its own: sharing the tokenizer between sinks would make its call
  // sites polymorphic and slow every variant down.
  const run = (name: string): string => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), name, String(recordCount)], {encoding: 'utf8'});
    if (child.status !== 0) throw new Error(`${name} failed: ${child.stderr}`);
    return child.stdout.trim();
  };
  run('check');
  const times = Object.fromEntries(Object.keys(variants).map((name) => [name, Number(run(name))]));
  console.log(`per ~${Math.round(lines.reduce((sum, line) => sum + line.length, 0) / lines.length)}-byte record, best of 7 rounds of ${recordCount}, each in its own process`);
  for (const [name, [title]] of Object.entries(variants)) {
    console.log(`  ${title.padEnd(44)} ${times[name]!.toFixed(0).padStart(6)} ns   ${(times['theirs']! / times[name]!).toFixed(2)}x of the competitor`);
  }
  printSummary(
    Object.entries(variants)
      .filter(([name]) => name !== 'theirs')
      .map(([name, [title]]) => ({workload: `${title}, per record (each in its own process)`, ratio: times['theirs']! / times[name]!, versus: 'JSON.parse + ajv'})),
  );
}
