// The RxJS operator on the example event log: every record's verdict with its line number, and a
// tally of events by type for the valid ones.
//
//   node --import tsx examples/validate-ndjson.ts [events.ndjson] [schema.json]

import { createReadStream, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tap, reduce } from 'rxjs';
import { fromReadable, validateNdjson, type NdjsonRecord } from '../adapters/rxjs.js';

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));
const eventsFile = process.argv[2] ?? here('events.ndjson');
const schemaFile = process.argv[3] ?? here('event.schema.json');
const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as object;

function reportInvalid(record: NdjsonRecord): void {
  if (record.valid) return;
  for (const error of record.errors) {
    const where = error.kind === 'validation' ? ` at ${error.instanceLocation || '(the record)'}` : '';
    console.log(`line ${record.line}: ${error.kind}${where}: ${error.error}`);
  }
}

interface Tally {
  valid: number;
  invalid: number;
  byType: Record<string, number>;
}

function count(tally: Tally, record: NdjsonRecord): Tally {
  if (!record.valid) {
    tally.invalid++;
    return tally;
  }
  tally.valid++;
  const type = (record.value as { type: string }).type;
  tally.byType[type] = (tally.byType[type] ?? 0) + 1;
  return tally;
}

fromReadable(createReadStream(eventsFile))
  .pipe(
    validateNdjson(schema, { parse: true }),
    tap(reportInvalid),
    reduce(count, { valid: 0, invalid: 0, byType: {} } as Tally),
  )
  .subscribe({
    next(tally) {
      console.log(`\n${tally.valid} valid events, ${tally.invalid} invalid`);
      for (const [type, total] of Object.entries(tally.byType)) console.log(`  ${type.padEnd(10)} ${total}`);
    },
    error(error: unknown) {
      console.error(error);
      process.exitCode = 2;
    },
  });
