// What value mode could reach without `new Function` (issue 24 point 5: 0.7x ajv on the engine's
// records). Three readers of the same parsed records, each measured against ajv in the same run:
//
// 1. stream-schema's value mode (`validate`): code generated from the checker's shapes
//    (src/engine/programs.ts), and the checker alone, as where code may not be generated;
// 2. a closure interpreter written for this benchmark alone, the fastest design we know that
//    needs no generated code (as the Rust `jsonschema` crate's `is_valid`): each keyword of the
//    record schema made into a specialised `(value) => boolean` when it is compiled, each
//    subschema a list of them, properties by a Map, the limits checked inline. It knows only the
//    keywords of benchmarks/workloads.ts, has no error paths and no repeated-key or
//    `unevaluated*` bookkeeping: an upper bound on any interpreter, not a validator;
// 3. the limits' floor: a bare recursive `for...in` walk of every value with the default limits
//    (`Limits` says value mode enforces them on every key and string), judging nothing.
//
// Run: `npm run bench -- value-interpreters`, or `node --import tsx benchmarks/value-interpreters.ts`.

import {Ajv} from 'ajv';
import {compile} from '../dist/src/index.js';
import {bestAlternating, printTable, type Row} from './support.js';
import {record, recordSchema} from './workloads.js';

type Check = (value: unknown, depth: number) => boolean;

const MAX_DEPTH = 1000;
const MAX_STRING = 16 * 1024 * 1024;
const MAX_KEY = 64 * 1024;
const MAX_PROPERTIES = 1024 * 1024;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const types: Record<string, (value: unknown) => boolean> = {
  string: (value) => typeof value === 'string',
  integer: (value) => Number.isInteger(value),
  number: (value) => typeof value === 'number',
  boolean: (value) => typeof value === 'boolean',
  null: (value) => value === null,
  array: (value) => Array.isArray(value),
  object: isObject,
};

/** The closure interpreter's compiler: only the keywords the record schema uses. */
function interpret(schema: unknown): Check {
  if (schema === true || schema === undefined) return () => true;
  if (schema === false) return () => false;
  const s = schema as Record<string, any>;
  const checks: Check[] = [];
  if (s.type !== undefined) {
    const each = ([] as string[]).concat(s.type).map((name) => types[name]!);
    checks.push(each.length === 1 ? each[0]! : (value) => each.some((type) => type(value)));
  }
  if (s.minimum !== undefined) {
    const minimum: number = s.minimum;
    checks.push((value) => typeof value !== 'number' || value >= minimum);
  }
  if (s.minLength !== undefined) {
    const minLength: number = s.minLength;
    checks.push((value) => typeof value !== 'string' || value.length >= minLength);
  }
  if (s.maxLength !== undefined) {
    const maxLength: number = s.maxLength;
    checks.push((value) => typeof value !== 'string' || value.length <= maxLength);
  }
  if (s.maxItems !== undefined) {
    const maxItems: number = s.maxItems;
    checks.push((value) => !Array.isArray(value) || value.length <= maxItems);
  }
  if (s.pattern !== undefined) {
    const pattern = new RegExp(s.pattern, 'u');
    checks.push((value) => typeof value !== 'string' || pattern.test(value));
  }
  if (s.enum !== undefined) {
    const allowed = new Set<unknown>(s.enum);
    checks.push((value) => allowed.has(value));
  }
  if (s.const !== undefined) {
    const constant: unknown = s.const;
    checks.push((value) => value === constant);
  }
  if (s.required !== undefined) {
    const required: string[] = s.required;
    checks.push((value) => !isObject(value) || required.every((name) => value[name] !== undefined));
  }
  if (s.properties !== undefined || s.patternProperties !== undefined || s.additionalProperties !== undefined) {
    const properties = new Map(Object.entries(s.properties ?? {}).map(([name, subschema]) => [name, interpret(subschema)]));
    const patterns = Object.entries(s.patternProperties ?? {}).map(([pattern, subschema]) => [new RegExp(pattern, 'u'), interpret(subschema)] as const);
    const additional = s.additionalProperties === undefined ? null : interpret(s.additionalProperties);
    checks.push((value, depth) => {
      if (!isObject(value)) return true;
      if (Object.getPrototypeOf(value) !== Object.prototype) return false;
      let count = 0;
      for (const name in value) {
        if (++count > MAX_PROPERTIES || name.length > MAX_KEY) return false;
        const member = value[name];
        if (member === undefined) continue;
        const property = properties.get(name);
        let known = property !== undefined;
        if (known && !property!(member, depth + 1)) return false;
        for (const [pattern, check] of patterns) {
          if (!pattern.test(name)) continue;
          known = true;
          if (!check(member, depth + 1)) return false;
        }
        if (!known && additional !== null && !additional(member, depth + 1)) return false;
      }
      return true;
    });
  }
  if (s.items !== undefined) {
    const items = interpret(s.items);
    checks.push((value, depth) => !Array.isArray(value) || value.every((item) => items(item, depth + 1)));
  }
  if (s.if !== undefined) {
    const condition = interpret(s.if);
    const then = interpret(s.then);
    checks.push((value, depth) => !condition(value, depth) || then(value, depth));
  }
  return (value, depth) => {
    if (depth > MAX_DEPTH) return false;
    if (typeof value === 'string' ? value.length > MAX_STRING : typeof value === 'number' && !Number.isFinite(value)) return false;
    for (let i = 0; i < checks.length; i++) if (!checks[i]!(value, depth)) return false;
    return true;
  };
}

/** The limits' floor: every value visited, every limit checked, nothing judged. */
function walk(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return value.length <= MAX_STRING;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object' || value === null) return true;
  if (depth >= MAX_DEPTH) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!walk(value[i], depth + 1)) return false;
    return true;
  }
  let count = 0;
  for (const name in value) {
    if (++count > MAX_PROPERTIES || name.length > MAX_KEY) return false;
    if (!walk((value as Record<string, unknown>)[name], depth + 1)) return false;
  }
  return true;
}

const recordCount = Number(process.argv[2] ?? 20_000);
const values = Array.from({length: recordCount}, (_, i) => JSON.parse(JSON.stringify(record(i))) as unknown);
const bytes = values.reduce<number>((sum, value) => sum + JSON.stringify(value).length + 1, 0);
const ajv = new Ajv({allErrors: false, allowMatchingProperties: true}).compile(recordSchema);
const ours = compile(recordSchema);
const interpreter = interpret(recordSchema);
// The checker alone, as where code may not be generated: the same validator with no programs
// (CheckerCache.programOf answers null once its value programs are null). ajv cannot run in a process
// that refuses code generation, so both are measured here.
const checkerAlone = compile(recordSchema);
(checkerAlone as unknown as {parts: {checkerCache: {programs: {value: null}}}}).parts.checkerCache.programs.value = null;

// Sanity: every reader passes every record, and the interpreter fails a bad one.
for (const value of values) if (!ajv(value) || !ours.validate(value).valid || !checkerAlone.validate(value).valid || !interpreter(value, 0) || !walk(value, 0)) throw new Error('a record did not pass');
for (const bad of [{...(values[0] as object), id: 'evt_x'}, {...(values[0] as object), extra: 1}]) if (interpreter(bad, 0) || ajv(bad)) throw new Error('a bad record passed');

/** Valid records counted, with `check`, over all the records (a number, for bestAlternating). */
const passes = (check: (value: unknown) => boolean) => (): number => {
  let valid = 0;
  for (let i = 0; i < values.length; i++) if (check(values[i])) valid++;
  return valid;
};
const theirs = passes((value) => ajv(value));
const rows: Row[] = [
  {name: `stream-schema value mode, ${recordCount} records (code generated from the shapes)`, ...bestAlternating(passes((value) => ours.validate(value).valid), theirs, 9), bytes, target: 0.7},
  {name: 'stream-schema value mode where code may not be generated (the checker alone)', ...bestAlternating(passes((value) => checkerAlone.validate(value).valid), theirs, 9), bytes, target: 0.7},
  {name: 'a closure interpreter, no code generated (an upper bound)', ...bestAlternating(passes((value) => interpreter(value, 0)), theirs, 9), bytes},
  {name: 'a bare walk with the limits, judging nothing (the floor)', ...bestAlternating(passes((value) => walk(value, 0)), theirs, 9), bytes},
];
printTable('value mode readers vs ajv', rows);
