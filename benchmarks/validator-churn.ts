// Validators compiled, used once and dropped, as an app that compiles per tenant, per request or
// per uploaded schema does: after a full collection the heap must stay flat once warmed up, in
// every mode (docs/decisions.md, "Nothing module-level holds a compiled schema").
//
//   npm run build && node --expose-gc --import tsx benchmarks/validator-churn.ts [cycles]

import {performance} from 'node:perf_hooks';
import {none} from 'stream-chain/defs.js';
import {tokenConsumer} from '../dist/adapters/stream-json.js';
import {compile, type Validator} from '../dist/src/index.js';

const CYCLES = Number(process.argv[2] ?? 100_000);
const SAMPLES = 10;
/** Heap growth per cycle below which the heap counts as flat: a leak of a compiled schema is kilobytes. */
const FLAT_BYTES_PER_CYCLE = 16;

const document = {id: 'a1', name: 'example.com', tags: ['x', 'y'], children: [{id: 'b2', name: 'b.example.com', tags: []}]};
const text = JSON.stringify(document);
/** Long enough for a session to judge member values apart. */
const longText = JSON.stringify({...document, note: 'n'.repeat(4096)});

/** A fresh schema document each cycle, as a per-tenant schema would be. */
function tenantSchema(tenant: number): object {
  return {
    $id: `https://example.com/tenant/${tenant}`,
    type: 'object',
    required: ['id'],
    properties: {
      id: {type: 'string', pattern: '^[a-z][0-9]$'},
      name: {type: 'string', format: 'hostname'},
      tags: {type: 'array', uniqueItems: true, items: {type: 'string'}},
      children: {type: 'array', items: {$ref: '#'}},
    },
  };
}

function session(validator: Validator, input: string, parse: boolean): boolean {
  const started = validator.session({parse});
  started.write(Buffer.from(input));
  return started.end().valid;
}

function consumeTokens(validator: Validator): boolean {
  const consume = tokenConsumer(validator);
  for (const token of [{name: 'startObject'}, {name: 'keyValue', value: 'id'}, {name: 'stringValue', value: 'a1'}, {name: 'endObject'}]) consume(token);
  const result = consume(none);
  return result !== none && result.valid;
}

/** One use per cycle, in turn: every front door gets its share of the cycles. */
const uses: readonly ((validator: Validator) => boolean)[] = [
  (validator) => validator.validate(document).valid,
  (validator) => validator.validateText(text).valid,
  (validator) => validator.parseText(text).valid,
  (validator) => session(validator, longText, false),
  (validator) => session(validator, text, true),
  consumeTokens,
];

function heapAfterCollection(collect: () => void): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

function main(): void {
  const collect = (globalThis as {gc?: () => void}).gc;
  if (collect === undefined) throw new Error('run with node --expose-gc (npm run bench passes it)');
  const every = Math.max(1, Math.floor(CYCLES / SAMPLES));
  const samples: {cycles: number; heap: number}[] = [];
  let valid = 0;
  const started = performance.now();
  for (let cycle = 1; cycle <= CYCLES; cycle++) {
    if (uses[cycle % uses.length]!(compile(tenantSchema(cycle)))) valid++;
    if (cycle % every === 0) samples.push({cycles: cycle, heap: heapAfterCollection(collect)});
  }
  const seconds = (performance.now() - started) / 1000;
  if (valid !== CYCLES) throw new Error(`${CYCLES - valid} cycles judged the valid document invalid`);

  console.log(`${CYCLES.toLocaleString('en-US')} cycles of compile, one use, drop in ${seconds.toFixed(1)} s (${((seconds / CYCLES) * 1e6).toFixed(0)} us a cycle)`);
  console.log('| cycles | heap after a full collection (MB) |');
  console.log('|---:|---:|');
  for (const {cycles, heap} of samples) console.log(`| ${cycles.toLocaleString('en-US')} | ${(heap / 2 ** 20).toFixed(2)} |`);
  // The first sample is the warm-up: the JIT's code and the module-level tables settle there.
  const warm = samples[0]!;
  const last = samples[samples.length - 1]!;
  const perCycle = (last.heap - warm.heap) / (last.cycles - warm.cycles);
  const verdict = perCycle < FLAT_BYTES_PER_CYCLE ? 'flat' : 'NOT flat';
  console.log(`\ngrowth after warm-up: ${perCycle.toFixed(1)} bytes a cycle (${verdict}: the target is under ${FLAT_BYTES_PER_CYCLE})`);
  if (perCycle >= FLAT_BYTES_PER_CYCLE) process.exitCode = 1;
}

main();
