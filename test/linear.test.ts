// Work that grows linearly with the input where it once grew quadratically: the format checks on
// long strings, and sessions and validate() on deep nesting. The counts are exact. The format
// checks' timings compare one input with sixteen inputs a sixteenth its size: linear work costs
// about the same, quadratic work sixteen times more. Growth, not speed, is asserted, with generous bounds, so that a loaded
// machine does not fail them; benchmarks/linear-time.ts prints the figures against the 50 ms
// target.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {formatsFor} from '../src/formats/index.js';
import {compile} from '../src/index.js';
import {TextChecker} from '../src/engine/checker.js';
import type {Validator} from '../src/types.js';
import {adversarialFormatInputs, deepDocuments} from './support/adversarial.js';

const PIECES = 16;
/** How much more the whole may cost than its sixteen pieces (garbage collection grows with the live heap). */
const MAX_GROWTH = 6;
/** Below this, CPU time is too coarse to compare (ms). */
const FLOOR = 2;
/** Generous: the targets are 50 ms (benchmarks/linear-time.ts). */
const MAX_FORMAT_MS = 500;

/** The least CPU time (ms) of two runs of `work`: CPU time, not wall time, so other processes on the machine count less. */
function cpuTime(work: (run: number) => void): number {
  let least = Infinity;
  for (let run = 0; run < 2; run++) {
    const start = process.cpuUsage();
    work(run);
    const {user, system} = process.cpuUsage(start);
    least = Math.min(least, (user + system) / 1000);
  }
  return least;
}

/**
 * Assert that `whole(run)` costs not much more than `PIECES` calls of `piece(run, index)`. Other
 * processes and the collector only ever add time, so a measurement that misses is taken again
 * (up to three in all): a quadratic path misses every time.
 */
function assertLinear(what: string, whole: (run: number) => void, piece: (run: number, index: number) => void, bound: number): void {
  let report = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const pieces = cpuTime((run) => {
      for (let index = 0; index < PIECES; index++) piece(run, index);
    });
    const all = cpuTime(whole);
    if (all <= MAX_GROWTH * Math.max(pieces, FLOOR) && all <= bound) return;
    report += `\n${all.toFixed(1)} ms whole, ${pieces.toFixed(1)} ms in ${PIECES} pieces`;
  }
  assert.fail(`${what} grows faster than its input, or takes more than ${bound} ms:${report}`);
}

describe('each format check is linear in the length of the string', () => {
  const formats = formatsFor('draft2020-12');
  const length = 100_000;
  for (const [name, check] of formats) {
    test(`${name} on 100 KB`, () => {
      assert.ok(name in adversarialFormatInputs(10), `no adversarial input for ${name}`);
      // The salt keeps the regex engine from reusing a pattern it compiled for an earlier call.
      const whole = (run: number) => check(adversarialFormatInputs(length, run)[name]!);
      const piece = (run: number, index: number) => check(adversarialFormatInputs(length / PIECES, 10 + run * PIECES + index)[name]!);
      assertLinear(name, whole, piece, MAX_FORMAT_MS);
    });
  }
});

const limits = {maxDepth: 100_000};
const anything = compile({}, {limits});
const tree = {type: ['array', 'object', 'number'], items: {$ref: '#'}, additionalProperties: {$ref: '#'}};
const recursive = compile(tree, {limits});
/** Every array at every depth asks for its items' fingerprints: each value must be hashed once, not once per array around it. */
const distinctTree = compile({uniqueItems: true, items: {$ref: '#'}}, {limits});

/** Ways to give a session a document, by what they exercise. */
const feeds: Record<string, (validator: Validator, text: string) => boolean> = {
  'one write': (validator, text) => {
    const session = validator.session();
    session.write(text);
    return session.end().valid;
  },
  // Decoded in slices (src/index.ts): the nested values do not end in the text they start in.
  'one Buffer': (validator, text) => {
    const session = validator.session();
    session.write(Buffer.from(text));
    return session.end().valid;
  },
  '4 KiB chunks': (validator, text) => {
    const session = validator.session();
    const bytes = Buffer.from(text);
    for (let at = 0; at < bytes.length; at += 4096) session.write(bytes.subarray(at, at + 4096));
    return session.end().valid;
  },
  'parse: true': (validator, text) => {
    const session = validator.session({parse: true});
    session.write(Buffer.from(text));
    return session.end().valid;
  },
  // Value mode; JSON.parse is linear too.
  'validate()': (validator, text) => validator.validate(JSON.parse(text)).valid,
};

// How long 64 KB of nesting takes is measured by benchmarks/linear-time.ts, not asserted here:
// the whole against sixteen pieces swung past any bound from one machine's load to the next, on
// code that had not changed. The verdicts on the deep documents are asserted, in every feed.
describe('a session and validate() judge 64 KB of nesting (maxDepth 100,000) in every feed', () => {
  const cases: [string, Validator, string, boolean][] = [];
  for (const feed of Object.keys(feeds)) {
    for (const shape of ['arrays', 'objects', 'arrays and objects']) cases.push([`${shape}, ${feed}`, anything, shape, true]);
    // The evaluator keeps runs at every level until the failure travels up through all of them.
    cases.push([`arrays around a failing string, recursive schema, ${feed}`, recursive, 'arrays around a string', false]);
    cases.push([`arrays, recursive uniqueItems, ${feed}`, distinctTree, 'arrays', true]);
  }
  const wholeDocuments = deepDocuments(64 * 1024);
  const pieceDocuments = deepDocuments((64 * 1024) / PIECES);
  for (const [name, validator, shape, valid] of cases) {
    const feed = feeds[name.slice(name.lastIndexOf(', ') + 2)]!;
    test(name, () => {
      assert.equal(feed(validator, wholeDocuments[shape]!), valid);
      assert.equal(feed(validator, pieceDocuments[shape]!), valid);
    });
  }
});

/** How many objects and arrays the session's text checkers were given while `work` ran. */
function containersJudgedApart(work: () => void): number {
  const {startArray, startObject} = TextChecker.prototype;
  let count = 0;
  TextChecker.prototype.startArray = function (this: TextChecker) {
    count++;
    startArray.call(this);
  };
  TextChecker.prototype.startObject = function (this: TextChecker) {
    count++;
    startObject.call(this);
  };
  try {
    work();
  } finally {
    Object.assign(TextChecker.prototype, {startArray, startObject});
  }
  return count;
}

describe('a session judges each nested value apart at most once per text', () => {
  const depth = 4000;

  test('when the value does not end in the text it starts in', () => {
    for (const [open, close] of [['[', ']'], ['{"a":', '}']]) {
      const count = containersJudgedApart(() => {
        const session = anything.session();
        session.write(open.repeat(depth));
        session.write(`${open === '[' ? '' : '1'}${close.repeat(depth)}`);
        assert.equal(session.end().valid, true);
      });
      assert.ok(count <= depth, `${open}: ${count} containers judged apart for ${depth} levels`);
    }
  });

  test('when the value fails deep inside', () => {
    const count = containersJudgedApart(() => {
      const session = recursive.session();
      session.write(`${'['.repeat(depth)}"x"${']'.repeat(depth)}`);
      assert.equal(session.end().valid, false);
    });
    assert.ok(count <= depth, `${count} containers judged apart for ${depth} levels`);
  });
});

test('a session reads the items of one long text ahead in time linear in the text', () => {
  const records = compile({type: 'array', items: {type: 'object', properties: {id: {type: 'integer'}, name: {type: 'string'}}}});
  const text = (count: number): string => `[${Array.from({length: count}, (_, id) => `{"id": ${id}, "name": "item number ${id}", "more": [1, 2, "three"]}`).join(',')}]`;
  const whole = text(4096);
  const piece = text(4096 / PIECES);
  const judge = (document: string): void => {
    const session = records.session();
    session.write(document);
    assert.equal(session.end().valid, true);
  };
  assertLinear('reading items ahead', () => judge(whole), () => judge(piece), 500);
});
