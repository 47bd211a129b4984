// The official JSON-Schema-Test-Suite, judged by validators that have just seen something
// hostile: each schema is compiled once, and every test document is judged, in every mode, right after a
// predecessor made from a sibling test's data (cut off at any byte, a byte changed, a key
// repeated, content after its end, a number past maxNumberLength, bytes that are not UTF-8, a
// value that is no JSON). In every mode the verdict must be the suite's, and the result (errors
// and positions, parseText's value) what a validator that never saw the predecessors gives.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {compile, defaultLimits} from '../src/index.js';
import type {Draft, Result, Session, Validator} from '../src/types.js';
import {random, randomChunks} from './support/chunks.js';
import {fuzzing} from './support/property.js';
import {drafts, remotes, suiteFiles, suiteFormats, suiteSkips, type SuiteFile, type SuiteTest} from './support/suite.js';

const modes = ['validate', 'validateText', 'parseText', 'session', 'sessions written alternately'] as const;
type Mode = (typeof modes)[number];

const schemas = remotes();
/** Predecessors differ from run to run under `npm run fuzz`; the failure message names the seed. */
const seedBase = fuzzing ? Math.floor(Math.random() * 2 ** 30) : 0;
const encoder = new TextEncoder();

// ---------------------------------------------------------------------------------------------
// Hostile predecessors, made from a sibling test's data with a seeded PRNG.

type Next = () => number;
const pick = <T>(next: Next, items: readonly T[]): T => items[Math.floor(next() * items.length)]!;

const invalidSequences = [[0x80], [0xc0, 0xaf], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf8], [0xfc], [0xfe], [0xff]];

/** Cut inside the deepest container when there is one: the predecessor ends in the middle of a member. */
function truncated(bytes: Uint8Array, next: Next): Uint8Array {
  let depth = 0;
  const inside: number[] = [];
  bytes.forEach((byte, index) => {
    if (byte === 0x7b || byte === 0x5b) depth++;
    if (byte === 0x7d || byte === 0x5d) depth--;
    if (depth >= 1 && byte !== 0x7d && byte !== 0x5d) inside.push(index + 1);
  });
  const cut = inside.length > 0 && next() < 0.7 ? pick(next, inside) : Math.floor(next() * bytes.length);
  return bytes.subarray(0, cut);
}

function hostileText(data: unknown, next: Next): Uint8Array {
  const text = JSON.stringify(data, null, next() < 0.5 ? 1 : undefined);
  const bytes = encoder.encode(text);
  const at = Math.floor(next() * (bytes.length + 1));
  const join = (...parts: (Uint8Array | number[])[]): Uint8Array => new Uint8Array(Buffer.concat(parts.map((part) => Uint8Array.from(part))));
  switch (Math.floor(next() * 8)) {
    case 0:
    case 1:
      return truncated(bytes, next);
    case 2:
      return join(bytes.subarray(0, at), [pick(next, [0x7b, 0x7d, 0x5b, 0x5d, 0x2c, 0x3a, 0x22, 0x5c, 0x30, 0x00])], bytes.subarray(at + 1));
    case 3: {
      // The first member written twice, in the outermost object that has one.
      const member = /"(?:[^"\\]|\\.)*"\s*:\s*/.exec(text);
      if (member === null) return encoder.encode(`{"a":${text},"a":${text}}`);
      return encoder.encode(`${text.slice(0, member.index)}${member[0]}0,${text.slice(member.index)}`);
    }
    case 4:
      return join(bytes, encoder.encode(pick(next, [' x', '}', ']', ',1', '{"a":1}', '\n[1'])));
    case 5:
      // One past maxNumberLength, as a member when the data is a container, so that the predecessor breaks inside it.
      return encoder.encode(wrapInside(data, '1'.repeat(defaultLimits.maxNumberLength + 1)));
    default: {
      const sequence = pick(next, invalidSequences);
      const quote = text.indexOf('"', Math.floor(next() * text.length));
      const where = quote >= 0 ? quote + 1 : at;
      return join(bytes.subarray(0, where), sequence, next() < 0.3 ? [] : bytes.subarray(where));
    }
  }
}

/** `data` as JSON text with `literal` (raw JSON) put inside its first container, or alone. */
function wrapInside(data: unknown, literal: string): string {
  if (Array.isArray(data)) return `[${literal}${data.length > 0 ? ',' + JSON.stringify(data).slice(1) : ']'}`;
  if (typeof data === 'object' && data !== null) {
    const rest = JSON.stringify(data).slice(1);
    return `{"a":${literal}${rest === '}' ? '}' : ',' + rest}`;
  }
  return literal;
}

/** A value no JSON text gives, deep inside a copy of `data` when it is a container. */
function hostileValue(data: unknown, next: Next): unknown {
  const strange = pick<() => unknown>(next, [
    () => Number.NaN,
    () => () => 1,
    () => 10n,
    () => Object.defineProperty({}, 'a', {enumerable: true, get: () => {
      throw new Error('a getter that throws');
    }}),
  ])();
  if (typeof data !== 'object' || data === null) return strange;
  const copy = JSON.parse(JSON.stringify(data)) as Record<string, unknown> | unknown[];
  if (Array.isArray(copy)) copy.push(strange);
  else copy[Object.keys(copy)[0] ?? 'a'] = strange;
  return copy;
}

// ---------------------------------------------------------------------------------------------
// Judging one test document in one mode, right after its predecessor.

interface Judged {
  result: Result;
  /** What a validator that never saw a predecessor gives for the same input. */
  clean: Result;
}

/** Writes `chunks` of each session alternately (by `next`), then ends them in a random order. */
function writeAlternately(sessions: Session[], chunks: Uint8Array[][], next: Next): Result[] {
  const written = sessions.map(() => 0);
  for (;;) {
    const open = sessions.map((_, index) => index).filter((index) => written[index]! < chunks[index]!.length);
    if (open.length === 0) break;
    const index = pick(next, open);
    sessions[index]!.write(chunks[index]![written[index]!++]!);
  }
  const order = sessions.map((_, index) => index).sort(() => next() - 0.5);
  const results: Result[] = [];
  for (const index of order) results[index] = sessions[index]!.end();
  return results;
}

/**
 * A predecessor's chunks: a few of them for the long ones. (A number past maxNumberLength in tiny
 * chunks costs time quadratic in its length, a matter apart from isolation.)
 */
function hostileChunks(hostile: Uint8Array, next: Next): Uint8Array[] {
  return randomChunks(hostile, next, Math.max(16, hostile.length >> 2));
}

function judge(mode: Mode, shared: Validator, clean: Validator, suiteTest: SuiteTest, predecessor: SuiteTest, next: Next): Judged {
  const text = JSON.stringify(suiteTest.data, null, next() < 0.5 ? 1 : undefined);
  const bytes = encoder.encode(text);
  const hostile = hostileText(predecessor.data, next);
  switch (mode) {
    case 'validate':
      shared.validate(hostileValue(predecessor.data, next));
      return {result: shared.validate(suiteTest.data), clean: clean.validate(suiteTest.data)};
    case 'validateText':
      shared.validateText(hostile);
      return {result: shared.validateText(next() < 0.5 ? text : bytes), clean: clean.validateText(text)};
    case 'parseText': {
      shared.parseText(hostile);
      const parsed = shared.parseText(bytes);
      const {value, ...result} = parsed;
      assert.deepStrictEqual(value, result.valid ? JSON.parse(text) : undefined, 'parseText gives the value JSON.parse gives');
      return {result, clean: clean.validateText(text)};
    }
    case 'session': {
      // The predecessor is written in chunks and, half the time, abandoned without end().
      const abandoned = shared.session();
      for (const piece of hostileChunks(hostile, next)) abandoned.write(piece);
      if (next() < 0.5) abandoned.end();
      const session = shared.session();
      for (const piece of randomChunks(bytes, next)) session.write(piece);
      return {result: session.end(), clean: clean.validateText(text)};
    }
    case 'sessions written alternately': {
      const sessions = [shared.session(), shared.session()];
      const [, result] = writeAlternately(sessions, [hostileChunks(hostile, next), randomChunks(bytes, next)], next);
      return {result: result!, clean: clean.validateText(text)};
    }
  }
}

// ---------------------------------------------------------------------------------------------

function testId(draft: Draft, file: SuiteFile, caseDescription: string, testDescription: string): string {
  return `${draft}/${file.name}/${caseDescription}/${testDescription}`;
}

function runFiles(draft: Draft, optional: boolean): {judged: number; problems: string[]} {
  const problems: string[] = [];
  let judged = 0;
  for (const file of suiteFiles(draft, optional)) {
    if (suiteSkips.has(`${draft}/${file.name}`)) continue;
    file.cases.forEach((suiteCase, caseIndex) => {
      const tests = suiteCase.tests.filter((suiteTest) => !suiteSkips.has(testId(draft, file, suiteCase.description, suiteTest.description)));
      if (tests.length === 0) return;
      const options = {draft, schemas, ...suiteFormats(optional)};
      // One validator, compiled once, judges every test of the case in every mode in turn.
      const shared = compile(suiteCase.schema, options);
      const clean = compile(suiteCase.schema, options);
      const next = random(seedBase + caseIndex * 7919 + file.name.length);
      tests.forEach((suiteTest, index) => {
        for (const mode of modes) {
          const where = `${mode}: ${testId(draft, file, suiteCase.description, suiteTest.description)}`;
          let judgedHere: Judged;
          try {
            judgedHere = judge(mode, shared, clean, suiteTest, tests[(index + 1) % tests.length]!, next);
          } catch (error) {
            problems.push(`${where}: threw ${(error as Error).message}`);
            continue;
          }
          judged++;
          const {result, clean: expected} = judgedHere;
          if (result.valid !== suiteTest.valid) problems.push(`${where}: ${result.valid ? 'valid' : 'invalid'} after a hostile predecessor, the suite says ${suiteTest.valid ? 'valid' : 'invalid'}`);
          else if (JSON.stringify(result) !== JSON.stringify(expected)) problems.push(`${where}: ${JSON.stringify(result.errors)}, a validator that saw no predecessor: ${JSON.stringify(expected.errors)}`);
        }
      });
    });
  }
  return {judged, problems};
}

describe('the official suite, each document right after a hostile predecessor, by one validator per schema', () => {
  for (const draft of drafts) {
    for (const optional of [false, true]) {
      test(`${draft}${optional ? ' optional (formats asserted)' : ''}: ${modes.join(', ')}`, () => {
        const {judged, problems} = runFiles(draft, optional);
        assert.ok(judged > 0, 'the suite has documents to judge');
        // The first few of each mode, so that one mode's many do not hide another's.
        const firstOfEach = modes.flatMap((mode) => problems.filter((problem) => problem.startsWith(`${mode}: `)).slice(0, 3));
        assert.deepEqual(firstOfEach, [], `${problems.length} problem(s) in ${judged} judgements (seed base ${seedBase}); the first ones of each mode`);
      });
    }
  }
});
