// Work that grows linearly with the input where it once grew quadratically: the format checks on
// long strings, and sessions and validate() on deep nesting. What is asserted here is counted, not
// timed, so that it holds on any machine under any load: the verdicts on the adversarial inputs,
// the containers a session judges apart, and the characters its scans read (support/scanWork.ts).
// How long each takes is a benchmark's to say: benchmarks/linear-time.ts prints the figures
// against the 50 ms target (docs/decisions.md, "Format checks and sessions stay linear").

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {formatsFor} from '../src/formats/index.js';
import {compile} from '../src/index.js';
import {TextChecker} from '../src/engine/checker.js';
import type {Result, Validator} from '../src/types.js';
import {adversarialFormatInputs, deepDocuments} from './support/adversarial.js';
import {countCalls} from './support/countCalls.js';
import {scanWork} from './support/scanWork.js';

const PIECES = 16;

// A format check's own loops and a regular expression's backtracking cannot be counted from
// outside: their time is benchmarks/linear-time.ts's. Asserted here: every format has an input
// built against it, and judges it the same at 100 KB as at a sixteenth of that, without throwing.
describe('each format check judges a 100 KB string built against it', () => {
  const formats = formatsFor('draft2020-12');
  const length = 100_000;
  for (const [name, check] of formats) {
    test(`${name} on 100 KB`, () => {
      assert.ok(name in adversarialFormatInputs(10), `no adversarial input for ${name}`);
      assert.equal(check(adversarialFormatInputs(length)[name]!), check(adversarialFormatInputs(length / PIECES)[name]!));
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

// A value read ahead leaves what was found of its text (quotes, escapes, control characters,
// line feeds) to the next: forgetting it searched the rest of the text again for every item, some
// 4,000 characters read for each one sent.
test('a session reads the items of one long text ahead with scans linear in the text', () => {
  const records = compile({type: 'array', items: {type: 'object', properties: {id: {type: 'integer'}, name: {type: 'string'}}}});
  const text = (count: number): string => `[${Array.from({length: count}, (_, id) => `{"id": ${id}, "name": "item number ${id}", "more": [1, 2, "three"]}`).join(',')}]`;
  for (const count of [4096 / PIECES, 4096]) {
    const document = text(count);
    const read = scanWork(() => {
      const session = records.session();
      session.write(document);
      assert.equal(session.end().valid, true);
    });
    // 3.5 characters read for each one sent, at both sizes.
    assert.ok(read <= 8 * document.length, `${read} characters read for ${document.length} sent (${count} items)`);
  }
});

/** Array elements written by `push` and copied by `slice` while `work` runs. */
function arrayWrites(work: () => void): number {
  let copied = 0;
  const pushed = countCalls(Array.prototype, 'push', () => void (copied = countCalls(Array.prototype, 'slice', work, (copy) => (copy as unknown[]).length)), (_, items) => items.length);
  return pushed + copied;
}

// A failure at the bottom of a deep document travels up a run at every level, and an `anyOf` at
// each level adds its other branch's error: copying the errors gathered below at each level wrote
// 169,496 array elements for 399 levels, 13 times what 100 levels wrote; 11,496 now, 3.8 times
// (src/engine/errorList.ts).
const deepFailures: [string, object, (depth: number) => string][] = [
  ['arrays', {anyOf: [{type: 'array', items: {$ref: '#'}}, {type: 'null'}]}, (depth) => `${'['.repeat(depth)}1${']'.repeat(depth)}`],
  ['objects', {anyOf: [{type: 'object', properties: {a: {$ref: '#'}}, required: ['a']}, {type: 'null'}]}, (depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`],
];
for (const [nesting, schema, nested] of deepFailures) test(`an anyOf failing at every level of deep ${nesting} gathers its errors in work linear in the depth`, () => {
  const branching = compile(schema);
  const inSession = (text: string): Result => {
    const session = branching.session();
    session.write(text);
    return session.end();
  };
  const ways: [string, (text: string) => Result][] = [
    ['validateText', (text) => branching.validateText(text)],
    ['validate', (text) => branching.validate(JSON.parse(text))],
    ['a session', inSession],
  ];
  const writes = new Map<string, number[]>();
  for (const depth of [100, 399]) {
    for (const [way, judge] of ways) {
      let errors = 0;
      const written = arrayWrites(() => void (errors = judge(nested(depth)).errors.length));
      // Two errors for each of the depth + 1 values (`type: null`'s and the anyOf's), and the other branch's at the bottom.
      assert.equal(errors, 2 * depth + 3, way);
      writes.set(way, [...(writes.get(way) ?? []), written]);
    }
  }
  for (const [way, [shallow, deep]] of writes) assert.ok(deep! <= 4 * 1.25 * shallow!, `${way}: ${deep} array elements written for 399 levels, ${shallow} for 100`);
});

// The 2020-12 meta-schema applies each subschema through `$dynamicRef: "#meta"`, which looks for
// the outermost resource of the dynamic scope with that anchor. Reading the scope off the chain of
// runs looked up the anchor once per run above: 322,018 map reads for a schema nested 400 deep,
// 15 times those for 100 levels; 2,819 now, 2.9 times (src/engine/run.ts, dynamicScope).
test('a $dynamicRef at every level of a deep document finds its anchor in work linear in the depth', () => {
  const meta = compile({$ref: 'https://json-schema.org/draft/2020-12/schema'});
  const nested = (depth: number): string => `${'{"not":'.repeat(depth)}{"type":1}${'}'.repeat(depth)}`;
  const ways: [string, (text: string) => Result][] = [
    ['validateText', (text) => meta.validateText(text)],
    ['validate', (text) => meta.validate(JSON.parse(text))],
    ['a session', (text) => {
      const session = meta.session();
      session.write(text);
      return session.end();
    }],
  ];
  for (const [way, judge] of ways) {
    const reads = [100, 400].map((depth) => countCalls(Map.prototype, 'get', () => assert.equal(judge(nested(depth)).valid, false, way)));
    assert.ok(reads[1]! <= 4 * 1.25 * reads[0]!, `${way}: ${reads[1]} map reads for 400 levels, ${reads[0]} for 100`);
  }
});

// A number cut by the end of a piece is carried into the next and read on from the part it was
// in: read again from its start at every piece, 4,096 characters of number sent one at a time
// were 8,458,091 character reads, 15.6 times those for 1,024; 12,290 now, 4 times.
test('a number sent a character at a time is read in work linear in its length', () => {
  const numbers = compile({type: 'array', items: {type: 'number'}});
  const reads = [1024, 4096].map((digits) => {
    // An integer part, a fraction and an exponent: each part cut a character at a time.
    const text = `[-1${'0'.repeat(digits / 2)}.${'0'.repeat(digits / 2 - 10)}5e+7]`;
    return countCalls(String.prototype, 'charCodeAt', () => {
      const session = numbers.session();
      for (const character of text) session.write(character);
      assert.equal(session.end().valid, true);
    });
  });
  assert.ok(reads[1]! <= 4 * 1.25 * reads[0]!, `${reads[1]} character reads for 4,096 digits, ${reads[0]} for 1,024`);
});
