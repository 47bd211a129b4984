// Parser agreement: every case of JSONTestSuite goes through validateText, parseText, sessions
// cut at every point and jsonValidator, and each gives the verdict and errors of the whole text,
// and the verdict JSON.parse(new TextDecoder().decode(bytes)) gives, except the listed exceptions
// (test/fixtures/jsontestsuite/cases.ts). The middlewares: test/parser-agreement-http.test.ts.

import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {jsonValidator} from '../adapters/stream.js';
import {compile} from '../src/index.js';
import {memberValues} from '../src/session/memberSink.js';
import type {OutputUnit, Result, Validator} from '../src/types.js';
import {packageDecoder, prefixExceptions, rawBytes, reference, referenceOfBytes, suiteCases, type SuiteCase} from './fixtures/jsontestsuite/cases.js';
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

/** The same, with every member value the text checker can judge judged apart (src/session/memberSink.ts). */
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

/** compile({})'s verdict on the whole bytes: JSON.parse's, and what the case's prefix asks, save the listed exceptions. */
function checkVerdict(suiteCase: SuiteCase, whole: Result): void {
  const {name, bytes} = suiteCase;
  const expected = referenceOfBytes(bytes);
  assert.equal(whole.valid, expected.valid, `${name}: the verdict is JSON.parse's${expected.exception === undefined ? '' : ` (${expected.exception})`}`);
  if (whole.valid) {
    assert.deepEqual(whole.errors, [], name);
    return;
  }
  assert.equal(whole.errors.length, 1, `${name}: one input error`);
  const [error] = whole.errors;
  if (expected.exception === 'repeated key') assert.equal(error!.params?.code, 'syntax.duplicateKey', name);
  else if (prefixExceptions.has(name)) assert.equal(error!.params?.code, 'limit.depth', name);
  else assert.equal(error!.kind, 'syntax', name);
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

  it('the listed exceptions are the cases whose answer is not the one their prefix asks, and no other', () => {
    const validator = compile({});
    const departures = suiteCases.filter(({expectation, bytes}) => {
      const result = validator.validateText(bytes);
      return (expectation === 'y' && !result.valid) || (expectation === 'n' && (result.valid || result.errors[0]!.kind !== 'syntax'));
    });
    assert.deepEqual(departures.map(({name}) => name).sort(), [...prefixExceptions.keys()].sort());
  });

  it('the string form follows JSON.parse on the string, a leading byte order mark excepted', () => {
    const validator = compile({});
    const excepted: string[] = [];
    for (const {name, text} of suiteCases) {
      const expected = reference(text);
      if (expected.exception === 'byte order mark') excepted.push(name);
      assert.equal(validator.validateText(text).valid, expected.valid, name);
    }
    assert.deepEqual(excepted, ['i_structure_UTF-8_BOM_empty_object.json']);
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
