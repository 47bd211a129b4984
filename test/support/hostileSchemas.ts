// Schemas built to hurt a validator: references that loop without reading the instance, nesting
// 10,000 deep, enums of a million members, self-reference through $dynamicRef, and a 2 MB schema.
// test/hostile-schemas.test.ts runs each group in a child process started from this file
// (`node --import tsx test/support/hostileSchemas.ts <group>`), so that a hang or a crash is that
// child's, bounded by a timeout, and reported as such. The child sends one Outcome per case.

import {performance} from 'node:perf_hooks';
import {compile} from '../../src/index.js';
import type {Result, Validator} from '../../src/types.js';
import {largeSchema} from './largeSchema.js';

export interface Instance {
  /** How the test names it. */
  label: string;
  value: unknown;
  /** The verdict the spec gives, when it gives one. */
  valid?: boolean;
}

export interface HostileCase {
  name: string;
  /** `compiles`: a SchemaError would refuse a schema we must take; `either`: refusing it is fine. */
  expect: 'compiles' | 'either';
  schema: () => unknown;
  instances: Instance[];
}

export type Mode = 'validate' | 'validateText' | 'parseText' | 'session';

export interface Verdict {
  valid: boolean;
  /** `params.code` or the keyword of each error. */
  codes: string[];
}

export interface Thrown {
  name: string;
  code?: string;
  message: string;
}

export type ModeOutcome = {verdict: Verdict} | {thrown: Thrown};

export type Outcome =
  | {name: string; compiled: false; thrown: Thrown; milliseconds: number}
  | {name: string; compiled: true; milliseconds: number; instances: Array<{label: string; valid?: boolean; modes: Record<Mode, ModeOutcome>}>};

const MODES: readonly Mode[] = ['validate', 'validateText', 'parseText', 'session'];

/** `levels` schemas, each wrapping the last (built iteratively: the builder must not overflow either). */
function nest(levels: number, wrap: (inner: unknown) => unknown, leaf: unknown): unknown {
  let schema = leaf;
  for (let level = 0; level < levels; level++) schema = wrap(schema);
  return schema;
}

/** `{$defs: {d0: {$ref: d1}, …, d<n>: leaf}, $ref: d0}`: a chain of references, flat in the JSON. */
function referenceChain(length: number, leaf: unknown): unknown {
  const definitions: Record<string, unknown> = {};
  for (let index = 0; index < length; index++) definitions[`d${index}`] = {$ref: `#/$defs/d${index + 1}`};
  definitions[`d${length}`] = leaf;
  return {$defs: definitions, $ref: '#/$defs/d0'};
}

const DEEP = 10_000;
const MEMBERS = 1_000_000;
const scalarsAndContainers: Instance[] = [
  {label: '1', value: 1},
  {label: '"x"', value: 'x'},
  {label: '{}', value: {}},
  {label: '{"a":[1]}', value: {a: [1]}},
];

export const groups: Record<string, HostileCase[]> = {
  'reference cycles with no progress': [
    {name: '{$ref: "#"}', expect: 'either', schema: () => ({$ref: '#'}), instances: scalarsAndContainers},
    {
      name: 'two definitions that refer to each other',
      expect: 'either',
      schema: () => ({$defs: {a: {$ref: '#/$defs/b'}, b: {$ref: '#/$defs/a'}}, $ref: '#/$defs/a'}),
      instances: scalarsAndContainers,
    },
    {name: 'allOf: [{$ref: "#"}]', expect: 'either', schema: () => ({allOf: [{$ref: '#'}]}), instances: scalarsAndContainers},
    {name: 'anyOf: [{$ref: "#"}] beside type: object', expect: 'either', schema: () => ({type: 'object', anyOf: [{$ref: '#'}]}), instances: scalarsAndContainers},
    {name: 'not: {$ref: "#"}', expect: 'either', schema: () => ({not: {$ref: '#'}}), instances: scalarsAndContainers},
    {name: 'if: {$ref: "#"}', expect: 'either', schema: () => ({if: {$ref: '#'}, then: {type: 'string'}}), instances: scalarsAndContainers},
    {
      name: 'a cycle through a second resource',
      expect: 'either',
      schema: () => ({$id: 'https://example.com/a', $defs: {b: {$id: 'https://example.com/b', $ref: 'https://example.com/a'}}, $ref: 'https://example.com/b'}),
      instances: scalarsAndContainers,
    },
    {
      name: 'draft-07: $ref to its own definition',
      expect: 'either',
      schema: () => ({$schema: 'http://json-schema.org/draft-07/schema#', definitions: {a: {$ref: '#/definitions/a'}}, $ref: '#/definitions/a'}),
      instances: scalarsAndContainers,
    },
    {
      name: '2019-09: $recursiveRef to its own root',
      expect: 'either',
      schema: () => ({$schema: 'https://json-schema.org/draft/2019-09/schema', $recursiveAnchor: true, $recursiveRef: '#'}),
      instances: scalarsAndContainers,
    },
  ],
  '10,000-deep subschemas': [
    {name: 'properties', expect: 'either', schema: () => nest(DEEP, (inner) => ({type: 'object', properties: {a: inner}}), {type: 'integer'}), instances: [{label: '{"a":{"a":1}}', value: {a: {a: 1}}}, {label: '1', value: 1, valid: false}]},
    {name: 'items', expect: 'either', schema: () => nest(DEEP, (inner) => ({type: 'array', items: inner}), {type: 'integer'}), instances: [{label: '[[1]]', value: [[1]]}, {label: '"x"', value: 'x', valid: false}]},
    {name: 'allOf', expect: 'either', schema: () => nest(DEEP, (inner) => ({allOf: [inner]}), {type: 'integer'}), instances: [{label: '1', value: 1, valid: true}, {label: '"x"', value: 'x', valid: false}]},
    {name: 'anyOf', expect: 'either', schema: () => nest(DEEP, (inner) => ({anyOf: [{type: 'null'}, inner]}), {type: 'integer'}), instances: [{label: '1', value: 1, valid: true}, {label: '"x"', value: 'x', valid: false}]},
    // An even number of `not`s: the leaf decides.
    {name: 'not', expect: 'either', schema: () => nest(DEEP, (inner) => ({not: inner}), {type: 'integer'}), instances: [{label: '1', value: 1, valid: true}, {label: '"x"', value: 'x', valid: false}]},
    {name: 'a chain of 10,000 $refs', expect: 'either', schema: () => referenceChain(DEEP, {type: 'integer'}), instances: [{label: '1', value: 1, valid: true}, {label: '"x"', value: 'x', valid: false}]},
  ],
  'enums of 1,000,000 members': [
    {
      name: 'strings',
      expect: 'compiles',
      schema: () => ({enum: Array.from({length: MEMBERS}, (_, index) => `member-${index}`)}),
      instances: [
        {label: 'the last member', value: `member-${MEMBERS - 1}`, valid: true},
        {label: 'a string not listed', value: 'member-x', valid: false},
        {label: 'a number', value: 3, valid: false},
        {label: 'an object', value: {a: 1}, valid: false},
      ],
    },
    {
      name: 'numbers',
      expect: 'compiles',
      schema: () => ({enum: Array.from({length: MEMBERS}, (_, index) => index / 4)}),
      instances: [
        {label: 'the last member', value: (MEMBERS - 1) / 4, valid: true},
        {label: 'a number not listed', value: 0.3, valid: false},
        {label: 'a number past the last', value: MEMBERS, valid: false},
        {label: 'a string', value: '0', valid: false},
      ],
    },
    {
      name: 'objects',
      expect: 'either',
      schema: () => ({enum: Array.from({length: MEMBERS}, (_, id) => ({id}))}),
      instances: [
        {label: 'the last member', value: {id: MEMBERS - 1}, valid: true},
        {label: 'an object not listed', value: {id: -1}, valid: false},
      ],
    },
  ],
  'self-reference through $dynamicRef': [
    {name: '$dynamicRef to its own $dynamicAnchor', expect: 'either', schema: () => ({$id: 'https://example.com/s', $dynamicAnchor: 'node', $dynamicRef: '#node'}), instances: scalarsAndContainers},
    {name: 'in allOf', expect: 'either', schema: () => ({$id: 'https://example.com/s', $dynamicAnchor: 'node', allOf: [{$dynamicRef: '#node'}]}), instances: scalarsAndContainers},
    {name: 'in anyOf', expect: 'either', schema: () => ({$id: 'https://example.com/s', $dynamicAnchor: 'node', anyOf: [{$dynamicRef: '#node'}]}), instances: scalarsAndContainers},
    {
      name: 'through a definition and back',
      expect: 'either',
      schema: () => ({$id: 'https://example.com/s', $defs: {a: {$dynamicAnchor: 'node', $ref: '#/$defs/b'}, b: {$dynamicRef: '#node'}}, $ref: '#/$defs/a'}),
      instances: scalarsAndContainers,
    },
    {
      // The cycle reads one level of the instance per turn: legitimate, and bounded by its depth.
      name: 'a tree whose children refer to the dynamic anchor (with progress)',
      expect: 'compiles',
      schema: () => ({$id: 'https://example.com/tree', $dynamicAnchor: 'node', type: 'object', properties: {children: {type: 'array', items: {$dynamicRef: '#node'}}}}),
      instances: [
        {label: 'a tree 400 levels deep', value: nest(400, (inner) => ({children: [inner]}), {}), valid: true},
        {label: 'a tree with a number for a node', value: nest(400, (inner) => ({children: [inner]}), 5), valid: false},
      ],
    },
  ],
  'a 2 MB schema': [
    {
      name: 'hundreds of definitions with references in cycles (test/support/largeSchema.ts)',
      expect: 'compiles',
      schema: () => largeSchema().schema,
      instances: [
        {label: '{}', value: {}, valid: true},
        {label: 'a definition that is not an object', value: {resource0: 5}, valid: false},
        {label: 'a property not listed', value: {nowhere: 1}, valid: false},
      ],
    },
  ],
};

function thrownOf(error: unknown): Thrown {
  const {name, message, code} = error instanceof Error ? (error as Error & {code?: unknown}) : {name: typeof error, message: String(error), code: undefined};
  return typeof code === 'string' ? {name, message, code} : {name, message};
}

function verdictOf(result: Result): Verdict {
  return {valid: result.valid, codes: result.errors.map((unit) => String(unit.params?.['code'] ?? unit.keyword))};
}

function judge(validator: Validator, mode: Mode, value: unknown): Result {
  const text = JSON.stringify(value);
  switch (mode) {
    case 'validate':
      return validator.validate(value);
    case 'validateText':
      return validator.validateText(text);
    case 'parseText':
      return validator.parseText(text);
    case 'session': {
      const session = validator.session();
      const bytes = Buffer.from(text);
      const half = bytes.length >> 1;
      session.write(bytes.subarray(0, half));
      session.write(bytes.subarray(half));
      return session.end();
    }
  }
}

/** Builds the schema (untimed), then compiles it and judges each instance in each mode (timed). */
export function runCase(hostile: HostileCase): Outcome {
  const schema = hostile.schema();
  const started = performance.now();
  let validator: Validator;
  try {
    validator = compile(schema);
  } catch (error) {
    return {name: hostile.name, compiled: false, thrown: thrownOf(error), milliseconds: performance.now() - started};
  }
  const instances = hostile.instances.map(({label, value, valid}) => {
    const modes = {} as Record<Mode, ModeOutcome>;
    for (const mode of MODES) {
      try {
        modes[mode] = {verdict: verdictOf(judge(validator, mode, value))};
      } catch (error) {
        modes[mode] = {thrown: thrownOf(error)};
      }
    }
    return valid === undefined ? {label, modes} : {label, valid, modes};
  });
  return {name: hostile.name, compiled: true, milliseconds: performance.now() - started, instances};
}

// As a child process: run the cases of the group named on the command line, one message each.
if (process.argv[2] === 'run' && process.send !== undefined) {
  const group = groups[process.argv[3] ?? ''] ?? [];
  for (const hostile of group) process.send(runCase(hostile));
  // Sent once the channel has taken every message.
  process.send('done', () => process.disconnect());
}
