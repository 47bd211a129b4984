// Parser agreement: every case of JSONTestSuite goes through validateText, parseText, sessions
// cut at every point and jsonValidator, and each gives the verdict and errors of the whole text,
// and the verdict JSON.parse(new TextDecoder().decode(bytes)) gives, except the listed exceptions
// (test/fixtures/jsontestsuite/cases.ts). The middlewares: test/parser-agreement-http.test.ts.

import assert from 'node:assert/strict';
import {after, describe, it} from 'node:test';

import {jsonValidator} from '../adapters/stream.js';
import {compile, defaultLimits} from '../src/index.js';
import {memberValues} from '../src/memberSink.js';
import type {OutputUnit, Result, Validator} from '../src/types.js';
import {
  exceptionReasons,
  packageDecoder,
  prefixExceptions,
  rawBytes,
  reference,
  referenceOfBytes,
  suiteCases,
  type Exception,
  type SuiteCase,
} from './fixtures/jsontestsuite/cases.js';
import {byteChunks, random, randomChunks} from './support/chunks.js';
import {fuzzing} from './support/property.js';

/** The schemas every case runs under: none, and keywords that fail on some cases so errors are compared too. */
const keywordSchema = {
  type: ['array', 'object', 'string'],
  items: {type: ['string', 'number', 'array', 'object', 'null', 'boolean'], maxLength: 3},
  properties: {a: {type: 'string'}},
  propertyNames: {maxLength: 3},
  maxItems: 3,
};
const schemas: readonly (readonly [label: string, schema: object])[] = [
  ['{}', {}],
  ['keywords', keywordSchema],
];
const validators = schemas.map(([label, schema]) => [label, compile(schema), schema] as const);

/** Cases longer than this are cut at a sample of points (see splitPoints). */
const EVERY_SPLIT_LIMIT = 4096;
const randomChunkings = fuzzing ? 40 : 3;

// ---------------------------------------------------------------------------------------------

describe('the vendored bytes of JSONTestSuite', () => {
  it('are exactly the cases the package holds with U+FFFD, that is, lost bytes', () => {
    const lossy = suiteCases.filter((suiteCase) => suiteCase.text.includes('\ufffd')).map((suiteCase) => suiteCase.name);
    assert.deepEqual(Object.keys(rawBytes).sort(), lossy.sort());
  });

  it('decode to the package string, as the package decoded them (UTF-8 with replacement, BOM kept)', () => {
    for (const suiteCase of suiteCases) {
      assert.equal(packageDecoder.decode(suiteCase.bytes), suiteCase.text, suiteCase.name);
    }
  });

  it('are not UTF-8, or the package would have kept them', () => {
    const strict = new TextDecoder('utf-8', {fatal: true});
    for (const name of Object.keys(rawBytes)) {
      const bytes = suiteCases.find((suiteCase) => suiteCase.name === name)!.bytes;
      assert.throws(() => strict.decode(bytes), TypeError, name);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// How each case is fed

/** A Result without the parsed value, for comparing verdicts and errors. */
function verdictOf({value: _value, ...result}: Result): Result {
  return result;
}

function session(validator: Validator, chunks: readonly (Uint8Array | string)[], parse = false): Result {
  const running = validator.session({parse});
  for (const chunk of chunks) running.write(chunk);
  return running.end();
}

/** The same, with every member value the text checker can judge judged apart (src/memberSink.ts). */
function sessionJudgingApart(validator: Validator, chunks: readonly (Uint8Array | string)[]): Result {
  const threshold = memberValues.worthIt;
  memberValues.worthIt = 0;
  try {
    return session(validator, chunks);
  } finally {
    memberValues.worthIt = threshold;
  }
}

/**
 * Every point, for texts up to EVERY_SPLIT_LIMIT. The two longer cases (100 KB and 250 KB of
 * unclosed brackets) are refused at their maxDepth-th bracket, and a session given one of them in a
 * long first chunk costs ~40 ms: they are cut around where the verdict is decided and at a seeded
 * sample of other points.
 */
function splitPoints(length: number, decidedAt: number, seed: number): number[] {
  if (length <= EVERY_SPLIT_LIMIT) return Array.from({length: length + 1}, (_, at) => at);
  const next = random(seed);
  const points = new Set([0, length]);
  for (let at = Math.max(0, decidedAt - 1); at <= Math.min(length, decidedAt + 1); at++) points.add(at);
  for (let sample = 0; sample < (fuzzing ? 100 : 2); sample++) points.add(Math.floor(next() * (length + 1)));
  return [...points].sort((a, b) => a - b);
}

/** What is comparable between a text given as bytes and as the string they decode to. */
function located(unit: OutputUnit): unknown {
  return {kind: unit.kind, keyword: unit.keyword, keywordLocation: unit.keywordLocation, instanceLocation: unit.instanceLocation, params: unit.params};
}

function isUtf8(bytes: Uint8Array): boolean {
  return Buffer.from(packageDecoder.decode(bytes)).equals(bytes);
}

async function throughJsonValidator(schema: object, chunks: readonly Uint8Array[]): Promise<Result> {
  const stream = jsonValidator(schema);
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  return stream.result;
}

// ---------------------------------------------------------------------------------------------
// The verdict

/** Which listed exceptions happened, by name, to compare with prefixExceptions and the reference's list. */
const happened = new Map<string, Set<string>>();

function noteException(name: string, what: string): void {
  let seen = happened.get(name);
  if (seen === undefined) happened.set(name, (seen = new Set()));
  seen.add(what);
}

/** compile({})'s verdict on the whole bytes: JSON.parse's, and what the case's prefix asks. */
function checkVerdict(suiteCase: SuiteCase, whole: Result): void {
  const {name, expectation, bytes} = suiteCase;
  const expected = referenceOfBytes(bytes);
  assert.equal(whole.valid, expected.valid, `${name}: the verdict is JSON.parse's (${expected.exception ?? 'no exception'})`);
  if (expected.exception !== undefined) noteException(name, expected.exception);
  if (whole.valid) {
    assert.deepEqual(whole.errors, []);
  } else {
    assert.equal(whole.errors.length, 1, `${name}: one input error`);
    const [error] = whole.errors;
    if (expected.exception === 'repeated key') assert.equal(error!.params?.code, 'syntax.duplicateKey', name);
    if (error!.kind === 'limit') noteException(name, 'limit');
    else assert.equal(error!.kind, 'syntax', name);
  }
  if (expectation === 'y' && !whole.valid) noteException(name, 'y refused');
  if (expectation === 'n') assert.equal(whole.valid, false, `${name}: an n_ case is refused`);
}

/** Every way of giving the case to `validator` says what validateText(bytes) says. */
async function checkEveryWay(suiteCase: SuiteCase, validator: Validator, schema: object, whole: Result): Promise<void> {
  const {name, bytes, text} = suiteCase;
  const same = (result: Result, how: string): void => assert.deepEqual(verdictOf(result), whole, `${name}: ${how}`);

  const decidedAt = whole.errors[0]?.offset ?? bytes.length;
  for (const at of splitPoints(bytes.length, decidedAt, bytes.length)) {
    same(session(validator, [bytes.subarray(0, at), bytes.subarray(at)]), `session cut at byte ${at}`);
  }
  const next = random(bytes.length * 31 + 7);
  const randomly = Array.from({length: randomChunkings}, (_, index) => randomChunks(bytes, next, [3, 16, 64][index % 3]));
  // The long cases' 1-byte chunks cost a write each long after the verdict: one session has them.
  const small = bytes.length <= EVERY_SPLIT_LIMIT;
  const fine = small ? byteChunks(bytes) : randomly[0]!;
  for (const chunks of [[bytes], byteChunks(bytes), ...randomly]) same(session(validator, chunks), `session in ${chunks.length} chunks`);
  for (const chunks of [[bytes], fine, randomly.at(-1)!]) {
    same(sessionJudgingApart(validator, chunks), `session judging members apart, in ${chunks.length} chunks`);
  }

  // A session that assembles the value, and parseText, say the same and give JSON.parse's value:
  // parseText on success, a session whenever the text is JSON it read to the end.
  const expectedValue = referenceOfBytes(bytes).value;
  for (const [how, result] of [
    ['parse-mode session, whole', session(validator, [bytes], true)],
    [`parse-mode session in ${fine.length} chunks`, session(validator, fine, true)],
  ] as const) {
    same(result, how);
    if (result.valid || result.value !== undefined) assert.deepEqual(result.value, expectedValue, `${name}: ${how} gives JSON.parse's value`);
  }
  const parsed = validator.parseText(bytes);
  same(parsed, 'parseText(bytes)');
  assert.deepEqual(parsed.value, parsed.valid ? expectedValue : undefined, `${name}: parseText(bytes) gives JSON.parse's value on success`);

  // The string the bytes decode to: the same verdict; the same positions too unless U+FFFD
  // (three bytes) replaced an invalid sequence of one to three.
  const fromText = validator.validateText(text);
  if (isUtf8(bytes)) assert.deepEqual(fromText, whole, `${name}: validateText(string)`);
  else {
    assert.equal(fromText.valid, whole.valid, `${name}: validateText(string)`);
    assert.deepEqual(fromText.errors.map(located), whole.errors.map(located), `${name}: validateText(string)`);
  }
  assert.deepEqual(verdictOf(validator.parseText(text)), fromText, `${name}: parseText(string)`);
  for (const at of splitPoints(text.length, text.length, text.length)) {
    assert.deepEqual(session(validator, [text.slice(0, at), text.slice(at)]), fromText, `${name}: session of the string cut at ${at}`);
  }

  same(await throughJsonValidator(schema, fine), `jsonValidator in ${fine.length} chunks`);
  same(await throughJsonValidator(schema, randomly.at(-1)!), `jsonValidator in ${randomly.at(-1)!.length} chunks`);
}

describe('every JSONTestSuite case: one verdict however it is fed, and it is JSON.parse\'s', () => {
  for (const suiteCase of suiteCases) {
    it(suiteCase.name, async () => {
      for (const [label, validator, schema] of validators) {
        const whole = validator.validateText(suiteCase.bytes);
        if (label === '{}') checkVerdict(suiteCase, whole);
        else checkKeywordVerdict(suiteCase, validator, whole);
        await checkEveryWay(suiteCase, validator, schema, whole);
      }
    });
  }

  it('the string form follows JSON.parse on the string, a leading byte order mark excepted', () => {
    const validator = compile({});
    for (const {name, text} of suiteCases) {
      const expected = reference(text);
      if (expected.exception === 'byte order mark') noteException(name, 'byte order mark (string)');
      assert.equal(validator.validateText(text).valid, expected.valid, name);
    }
  });

  after(() => {
    // The exceptions that happened are the listed ones, so the lists cannot go stale.
    const prefixBroken = [...happened].filter(([, seen]) => seen.has('y refused') || seen.has('limit')).map(([name]) => name);
    assert.deepEqual(prefixBroken.sort(), [...prefixExceptions.keys()].sort());
    const byException = (what: Exception | 'byte order mark (string)'): string[] =>
      [...happened].filter(([, seen]) => seen.has(what)).map(([name]) => name).sort();
    assert.deepEqual(byException('repeated key'), ['y_object_duplicated_key.json', 'y_object_duplicated_key_and_value.json']);
    assert.deepEqual(byException('byte order mark (string)'), ['i_structure_UTF-8_BOM_empty_object.json']);
    const limited = [...happened].filter(([, seen]) => seen.has('limit')).map(([name]) => name);
    for (const name of limited) {
      const depth = suiteCases.find((suiteCase) => suiteCase.name === name)!.text.split('[').length - 1;
      assert.ok(depth > defaultLimits.maxDepth, `${name} is refused as a limit only because it nests deeper than maxDepth`);
    }
    console.log(`JSONTestSuite, listed exceptions: ${[...prefixExceptions].map(([name, reason]) => `\n  ${name}: ${reason}`).join('')}`);
    console.log(`  byte order mark: ${exceptionReasons['byte order mark']}`);
  });
});

/**
 * With keywords, text and value agree: a case JSON.parse takes gets value mode's verdict on its
 * value, and one it refuses is refused. Not where JSON.parse made a number infinite: value mode
 * refuses Infinity as no JSON number, while the text holds a finite one.
 */
function checkKeywordVerdict(suiteCase: SuiteCase, validator: Validator, whole: Result): void {
  const expected = referenceOfBytes(suiteCase.bytes);
  if (!expected.valid) {
    assert.equal(whole.valid, false, suiteCase.name);
    return;
  }
  if (holdsInfinity(expected.value)) return;
  const fromValue = validator.validate(expected.value);
  assert.equal(whole.valid, fromValue.valid, `${suiteCase.name}: text and value agree`);
  assert.deepEqual(whole.errors.map(located), fromValue.errors.map(located), `${suiteCase.name}: text and value agree`);
}

function holdsInfinity(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (typeof value !== 'object' || value === null) return false;
  return Object.values(value).some(holdsInfinity);
}
