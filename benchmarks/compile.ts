// Compile time of a large schema (test/support/largeSchema.ts: hundreds of definitions with
// patterns, formats, enums, nested objects and references in cycles), against ajv compiling the
// same schema in the same run.
//
//   npm run build && node --import tsx benchmarks/compile.ts
//
// The target: a 2 MB schema compiles in under a second. The other sizes show whether the time
// grows with the schema in proportion. "compile + first use" adds one validateText and one
// validate of a small document, so that work a validator puts off to its first use is counted.

import {Ajv2020} from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import {compile} from '../dist/src/index.js';
import {largeSchema} from '../test/support/largeSchema.js';
import {best, bestAlternating} from './support.js';

const MiB = 1024 * 1024;
const TARGET_MS = 1000;

function compileOurs(schema: unknown): number {
  return compile(schema) === undefined ? 0 : 1;
}

function compileAndUse(schema: unknown): number {
  const validator = compile(schema);
  const text = validator.validateText('{"resource0": {"title": 1}}').valid ? 1 : 0;
  return text + (validator.validate({resource1: null}).valid ? 1 : 0);
}

function compileAjv(schema: object): number {
  // Not strict: ajv's strict mode refuses formats and keywords it does not know by default.
  const ajv = new Ajv2020({strict: false});
  addFormats.default(ajv);
  return ajv.compile(schema) === undefined ? 0 : 1;
}

function main(): void {
  const rows: Array<Record<string, string | number>> = [];
  for (const size of [0.5, 1, 2, 4]) {
    const {schema, bytes, definitions} = largeSchema(size * MiB);
    const ours = best(() => compileOurs(schema), 5);
    const used = best(() => compileAndUse(schema), 3);
    rows.push({schema: `${(bytes / MiB).toFixed(1)} MB`, definitions, 'compile, best ms': Math.round(ours), 'compile + first use, best ms': Math.round(used), 'ms per MB': Math.round(ours / (bytes / MiB))});
  }
  console.table(rows);

  const {schema, bytes} = largeSchema(2 * MiB);
  const times = bestAlternating(() => compileOurs(schema), () => compileAjv(schema), 3);
  console.log(
    `${(bytes / MiB).toFixed(1)} MB schema: stream-schema ${Math.round(times.ours)} ms, ajv ${Math.round(times.theirs)} ms (best of 3, alternating): ` +
      `${(times.theirs / times.ours).toFixed(1)}x ajv's speed; target under ${TARGET_MS} ms ${times.ours < TARGET_MS ? 'met' : 'NOT met'}`,
  );
  if (times.ours >= TARGET_MS) process.exitCode = 1;
}

main();
