// Tests for src/json/tokenizer.ts: token-for-token identity with stream-json's jsonParser, acceptance
// identical to JSON.parse, exact positions, limits with bounded memory, and stop().

import {test} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readdirSync, readFileSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import {jsonParser} from 'stream-json/core/parser.js';
import {none} from 'stream-chain/defs.js';
import {defaultLimits} from '../src/json/limits.js';
import {Tokenizer} from '../src/json/tokenizer.js';
import {InputError} from '../src/output/errors.js';
import type {Limits, TokenSink} from '../src/types.js';
import {random as makeRandom, randomChunks} from './support/chunks.js';
import {ChunkDecoder} from '../src/json/utf8.js';
import {compile} from '../src/index.js';

/** stream-json stages are flushed by calling them with `none`, which their declared input type omits. */
type Stage = (chunk: string | typeof none) => unknown;
const flushableParser = (options: Parameters<typeof jsonParser>[0]): Stage => jsonParser(options) as unknown as Stage;

type Token = {name: string; value?: string};

const suiteRoot = (): string => {
  const fromEnv = process.env.JSON_SCHEMA_TEST_SUITE;
  return fromEnv ?? fileURLToPath(new URL('../../shared/json-schema-test-suite', import.meta.url));
};


/** A sink that records tokens, and optionally the position reported during each callback. */
class RecordingSink implements TokenSink {
  readonly tokens: Token[] = [];
  readonly positions: {offset: number; line: number; column: number}[] = [];
  tokenizer: Tokenizer | undefined;
  onToken: ((count: number) => void) | undefined;

  private add(name: string, value?: string): void {
    this.tokens.push(value === undefined ? {name} : {name, value});
    if (this.tokenizer) this.positions.push(this.tokenizer.position());
    this.onToken?.(this.tokens.length);
  }
  startObject(): void {
    this.add('startObject');
  }
  endObject(): void {
    this.add('endObject');
  }
  startArray(): void {
    this.add('startArray');
  }
  endArray(): void {
    this.add('endArray');
  }
  keyValue(key: string): void {
    this.add('keyValue', key);
  }
  stringValue(value: string): void {
    this.add('stringValue', value);
  }
  numberValue(text: string): void {
    this.add('numberValue', text);
  }
  nullValue(): void {
    this.add('nullValue');
  }
  trueValue(): void {
    this.add('trueValue');
  }
  falseValue(): void {
    this.add('falseValue');
  }
}

const splitRandomly = (text: string, random: () => number, maxSize: number): string[] => {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; ) {
    const size = 1 + Math.floor(random() * maxSize);
    pieces.push(text.slice(i, i + size));
    i += size;
  }
  return pieces;
};

const splitEvery = (text: string, size: number): string[] => {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
};

interface Outcome {
  tokens: Token[];
  positions: {offset: number; line: number; column: number}[];
  error?: InputError;
}

const tokenize = (pieces: string[], limits?: Limits): Outcome => {
  const sink = new RecordingSink();
  const tokenizer = new Tokenizer(sink, limits);
  sink.tokenizer = tokenizer;
  try {
    for (const piece of pieces) tokenizer.write(piece);
    tokenizer.end();
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return {tokens: sink.tokens, positions: sink.positions, error};
  }
  return {tokens: sink.tokens, positions: sink.positions};
};

const streamJsonTokens = (pieces: string[]): Token[] => {
  const parse = flushableParser({packValues: true, streamValues: false});
  const tokens: Token[] = [];
  const collect = (result: unknown): void => {
    if (result === none) return;
    for (const token of (result as {values: {name: string; value?: unknown}[]}).values) {
      tokens.push(typeof token.value === 'string' ? {name: token.name, value: token.value} : {name: token.name});
    }
  };
  for (const piece of pieces) collect(parse(piece));
  collect(parse(none));
  return tokens;
};

/** Serializes like JSON.stringify but with random whitespace (space, tab, LF, CRLF) between tokens. */
const stringifyWithWhitespace = (value: unknown, random: () => number): string => {
  const spaces = [' ', '\t', '\n', '\r\n', '  ', ''];
  const ws = (): string => (random() < 0.5 ? '' : spaces[Math.floor(random() * spaces.length)]);
  const walk = (v: unknown): string => {
    if (Array.isArray(v)) return `[${ws()}${v.map(item => ws() + walk(item) + ws()).join(',')}${ws()}]`;
    if (v !== null && typeof v === 'object') {
      const members = Object.entries(v).map(([k, item]) => `${ws()}${JSON.stringify(k)}${ws()}:${ws()}${walk(item)}${ws()}`);
      return `{${members.join(',')}${ws()}}`;
    }
    return JSON.stringify(v);
  };
  return ws() + walk(value) + ws();
};

const listTestFiles = (dir: string): string[] => {
  const files: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...listTestFiles(path));
    else if (name.endsWith('.json')) files.push(path);
  }
  return files;
};

const suiteDocuments = (): unknown[] => {
  const root = suiteRoot();
  assert.ok(existsSync(join(root, 'tests')), `JSON Schema Test Suite not found at ${root} (set JSON_SCHEMA_TEST_SUITE)`);
  const documents: unknown[] = [];
  for (const draft of readdirSync(join(root, 'tests'))) {
    for (const file of listTestFiles(join(root, 'tests', draft))) {
      for (const group of JSON.parse(readFileSync(file, 'utf8')) as {schema: unknown; tests: {data: unknown}[]}[]) {
        for (const t of group.tests) documents.push(t.data);
      }
    }
  }
  return documents;
};

test('differential: every data value of the JSON Schema Test Suite yields the same tokens as stream-json', () => {
  const random = makeRandom(1);
  const documents = suiteDocuments();
  assert.ok(documents.length > 1000, `only ${documents.length} documents found`);
  let compared = 0;
  for (const value of documents) {
    const texts = [JSON.stringify(value), JSON.stringify(value, null, 2), stringifyWithWhitespace(value, random)];
    for (const text of texts) {
      const expected = streamJsonTokens([text]);
      const splits = [[text], splitEvery(text, 1), splitRandomly(text, random, 8), splitRandomly(text, random, 64)];
      for (const pieces of splits) {
        const outcome = tokenize(pieces);
        assert.equal(outcome.error, undefined, `rejected ${JSON.stringify(text)}: ${outcome.error?.message}`);
        assert.deepEqual(outcome.tokens, expected, `tokens differ for ${JSON.stringify(text)} split as ${JSON.stringify(pieces)}`);
        assert.deepEqual(streamJsonTokens(pieces), expected, 'stream-json itself is split-independent');
        ++compared;
      }
    }
  }
  console.log(`# differential: ${documents.length} suite documents, ${compared} token sequences compared`);
});

// ---- random JSON, and mutations of it ----

const STRING_PIECES = ['a', 'Z', ' ', 'caf\u00e9', '\u65e5', '\ud83d\ude00', '\\n', '\\"', '\\\\', '\\/', '\\u00e9', '\\ud83d\\ude00', '\\ud800', '\\t', '\\b\\f\\r', 'x'];
const NUMBERS = ['0', '-0', '1', '-1', '12345678901234567890', '0.5', '-0.25', '1e5', '1E+5', '2.5e-3', '-1.0E10', '0e0', '3.14159'];

const randomString = (random: () => number): string => {
  let s = '"';
  const n = Math.floor(random() * 5);
  for (let i = 0; i < n; ++i) s += STRING_PIECES[Math.floor(random() * STRING_PIECES.length)];
  return s + '"';
};

/** Random JSON text with random whitespace, built from literal pieces so numbers keep their spelling. */
const randomJson = (random: () => number, depth = 0): string => {
  const ws = (): string => (random() < 0.7 ? '' : [' ', '\n', '\t', '\r\n'][Math.floor(random() * 4)]);
  const r = random();
  if (depth < 4 && r < 0.2) {
    const n = Math.floor(random() * 4);
    const items: string[] = [];
    for (let i = 0; i < n; ++i) items.push(ws() + randomJson(random, depth + 1) + ws());
    return `[${items.join(',')}${n === 0 ? ws() : ''}]`;
  }
  if (depth < 4 && r < 0.4) {
    const n = Math.floor(random() * 4);
    const members: string[] = [];
    for (let i = 0; i < n; ++i) members.push(`${ws()}${randomString(random)}${ws()}:${ws()}${randomJson(random, depth + 1)}${ws()}`);
    return `{${members.join(',')}${n === 0 ? ws() : ''}}`;
  }
  if (r < 0.6) return randomString(random);
  if (r < 0.85) return NUMBERS[Math.floor(random() * NUMBERS.length)];
  return ['true', 'false', 'null'][Math.floor(random() * 3)];
};

const MUTATION_ALPHABET = '{}[]":,.-+0123456789eEtrufalsn \n\t\r\\/ux\u0001\u00e9';

const mutate = (text: string, random: () => number): string => {
  const edits = 1 + Math.floor(random() * 3);
  for (let k = 0; k < edits; ++k) {
    const at = Math.floor(random() * (text.length + 1));
    const ch = MUTATION_ALPHABET[Math.floor(random() * MUTATION_ALPHABET.length)];
    const op = random();
    if (op < 0.4) text = text.slice(0, at) + text.slice(at + 1);
    else if (op < 0.8) text = text.slice(0, at) + ch + text.slice(at);
    else text = text.slice(0, at) + ch + text.slice(at + 1);
  }
  return text;
};

const acceptsJsonParse = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

test('acceptance: rejects exactly what JSON.parse rejects, on generated and mutated inputs', () => {
  const random = makeRandom(2);
  let accepted = 0;
  let rejected = 0;
  for (let n = 0; n < 4000; ++n) {
    const valid = randomJson(random);
    const text = n % 4 === 0 ? valid : mutate(valid, random);
    const expected = acceptsJsonParse(text);
    const whole = tokenize([text]);
    const chunked = tokenize(splitRandomly(text, random, 1 + Math.floor(random() * 6)));
    assert.equal(whole.error === undefined, expected, `${JSON.stringify(text)}: JSON.parse ${expected ? 'accepts' : 'rejects'}, we say ${whole.error?.message}`);
    // Chunking changes neither the verdict, nor the tokens, nor where the error is.
    assert.deepEqual(chunked.tokens, whole.tokens, `tokens depend on chunking for ${JSON.stringify(text)}`);
    assert.equal(chunked.error?.code, whole.error?.code, `error code depends on chunking for ${JSON.stringify(text)}`);
    assert.equal(chunked.error?.offset, whole.error?.offset);
    assert.equal(chunked.error?.line, whole.error?.line);
    assert.equal(chunked.error?.column, whole.error?.column);
    assert.equal(chunked.error?.message, whole.error?.message);
    if (whole.error) {
      // The error designates a character of the text (or the end of it): check against the slow reference.
      let index = 0;
      while (index < text.length && Buffer.byteLength(text.slice(0, index)) < whole.error.offset) ++index;
      assert.deepEqual(
        {offset: whole.error.offset, line: whole.error.line, column: whole.error.column},
        positionOf(text, index),
        `error position for ${JSON.stringify(text)}: ${whole.error.message}`
      );
    }
    if (expected) {
      ++accepted;
      assert.deepEqual(whole.tokens, streamJsonTokens([text]), `tokens differ from stream-json for ${JSON.stringify(text)}`);
    } else {
      ++rejected;
    }
  }
  console.log(`# acceptance: ${accepted} accepted, ${rejected} rejected, all as JSON.parse`);
  assert.ok(accepted > 1000 && rejected > 1000);
});

test('acceptance: the classic invalid inputs are rejected with syntax errors', () => {
  const invalid = [
    '01', '-01', '00', '1.', '.5', '-', '+1', '1e', '1e+', '1.e5', '-.5', 'NaN', 'Infinity', '-Infinity', 'tru', 'nul', 'fals', 'True', 'undefined',
    '"\u0001"', '"a\nb"', '"\t"', '"\\x"', '"\\u12"', '"\\u12g4"', '"\\U0041"', "'a'", '[1,]', '{"a":1,}', '{a:1}', '{"a" 1}', '[1 2]', '{"a":1 "b":2}',
    '[', ']', '{', '}', '[}', '{]', '"abc', '1 2', '[] []', '{"a":}', ',', ':', '\u00a01', '\ufeff\ufeff1', '1\ufeff', '[1]]', 'truefalse', 'nulll'
  ];
  for (const text of invalid) {
    assert.equal(acceptsJsonParse(text.replace(/^\ufeff/, '')), false, `JSON.parse should reject ${JSON.stringify(text)}`);
    const outcome = tokenize([text]);
    assert.ok(outcome.error, `accepted ${JSON.stringify(text)}`);
    assert.equal(outcome.error.kind, 'syntax');
    for (const pieces of [splitEvery(text, 1), splitEvery(text, 2)]) {
      assert.equal(tokenize(pieces).error?.offset, outcome.error.offset, `position depends on chunking for ${JSON.stringify(text)}`);
    }
  }
});

test('acceptance: BOM at the very start is skipped, surrounding whitespace allowed, lone surrogates decoded like JSON.parse', () => {
  assert.deepEqual(tokenize(['\ufeff', '[1]']).tokens, [{name: 'startArray'}, {name: 'numberValue', value: '1'}, {name: 'endArray'}]);
  assert.deepEqual(tokenize([' \t\r\n true \r\n']).tokens, [{name: 'trueValue'}]);
  assert.equal(tokenize([' \ufeff1']).error?.code, 'syntax.unexpected');
  for (const text of ['"\\ud800"', '"\\udc00x"', '"\\ud83d\\ude00"', '"\ud800"', '"a\\u0000b"']) {
    for (const pieces of [[text], splitEvery(text, 1)]) {
      assert.deepEqual(tokenize(pieces).tokens, [{name: 'stringValue', value: JSON.parse(text)}], text);
    }
  }
});

test('errors: codes syntax.empty, syntax.end, syntax.trailing, syntax.unexpected with a message naming expected and found', () => {
  assert.equal(tokenize([]).error?.code, 'syntax.empty');
  assert.equal(tokenize([' \n\t ']).error?.code, 'syntax.empty');
  assert.equal(tokenize(['\ufeff']).error?.code, 'syntax.empty');
  for (const text of ['[1,', '{"a":', '"abc', 'tr', '-', '1.', '1e', '{"a"', '[', '"\\', '"\\u00']) {
    assert.equal(tokenize([text]).error?.code, 'syntax.end', text);
  }
  for (const text of ['1 2', '{}x', '[]]', 'true false', '"a""b"']) assert.equal(tokenize([text]).error?.code, 'syntax.trailing', text);
  const error = tokenize(['{\n  "a": 1,\n  "b": 2 x\n}']).error;
  assert.ok(error);
  assert.equal(error.code, 'syntax.unexpected');
  assert.equal(error.message, "Unexpected character 'x' at line 3 column 10, expected ',' or '}'");
  assert.deepEqual([error.offset, error.line, error.column], [21, 3, 10]);
  assert.match(tokenize(['[1,]']).error?.message ?? '', /Unexpected character '\]' at line 1 column 4, expected a value/);
  assert.match(tokenize(['{"a" 1}']).error?.message ?? '', /expected ':'/);
  assert.match(tokenize(['"\\x"']).error?.message ?? '', /after '\\'/);
  assert.match(tokenize(['"a\u0001"']).error?.message ?? '', /control character U\+0001/);
});

test('errors: after an error, write() and end() rethrow it', () => {
  const sink = new RecordingSink();
  const tokenizer = new Tokenizer(sink);
  assert.throws(() => tokenizer.write('[1,]'), {code: 'syntax.unexpected'});
  assert.throws(() => tokenizer.write('2'), {code: 'syntax.unexpected'});
  assert.throws(() => tokenizer.end(), {code: 'syntax.unexpected'});
});

// ---- positions ----

/** Reference position of code unit `index` of `text`, computed the slow obvious way. */
const positionOf = (text: string, index: number): {offset: number; line: number; column: number} => {
  const before = text.slice(0, index);
  const lines = before.split('\n');
  return {offset: Buffer.byteLength(before), line: lines.length, column: lines[lines.length - 1].length + 1};
};

const lastCharOf = (token: Token): string[] => {
  switch (token.name) {
    case 'startObject':
      return ['{'];
    case 'endObject':
      return ['}'];
    case 'startArray':
      return ['['];
    case 'endArray':
      return [']'];
    case 'keyValue':
    case 'stringValue':
      return ['"'];
    case 'numberValue':
      return [token.value!.at(-1)!];
    case 'trueValue':
    case 'falseValue':
      return ['e'];
    default:
      return ['l'];
  }
};

test('positions: each token reports the offset, line and column of its last byte, whatever the chunking', () => {
  const random = makeRandom(3);
  let checked = 0;
  for (let n = 0; n < 500; ++n) {
    const text = randomJson(random);
    // Map byte offsets back to code units to find which character each position designates.
    const unitAtByte = new Map<number, number>();
    for (let i = 0; i < text.length; ++i) unitAtByte.set(Buffer.byteLength(text.slice(0, i)), i);
    for (const pieces of [[text], splitEvery(text, 1), splitRandomly(text, random, 5)]) {
      const outcome = tokenize(pieces);
      assert.equal(outcome.error, undefined);
      let previous = -1;
      outcome.tokens.forEach((token, k) => {
        const position = outcome.positions[k];
        const index = unitAtByte.get(position.offset);
        assert.ok(index !== undefined, `offset ${position.offset} is not a character boundary in ${JSON.stringify(text)}`);
        assert.ok(index > previous, 'positions increase');
        previous = index;
        assert.ok(lastCharOf(token).includes(text[index]), `${token.name} ends with ${text[index]} in ${JSON.stringify(text)}`);
        assert.deepEqual(position, positionOf(text, index), `${token.name} #${k} in ${JSON.stringify(text)}`);
        ++checked;
      });
    }
  }
  assert.ok(checked > 1000);
});

test('positions: bytes counted late, many pieces after the last ask, are those counted at once (strings cut by a piece, malformed bytes, cut pairs)', () => {
  // The Tokenizer counts the bytes of the texts it read only when a position is asked for
  // (src/json/textBytes.ts): asked rarely, over thousands of pieces, the count must still be exact.
  const random = makeRandom(11);
  const alphabet = ['a', 'b', ' ', 'é', '日', '😀', '\\n', '\\u00e9'];
  const malformed = [Buffer.from([0xff]), Buffer.from([0xe6, 0x97]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xf0, 0x9f])];
  for (let n = 0; n < 12; ++n) {
    const parts: Buffer[] = [Buffer.from('[')];
    for (let k = 0; k < 60; ++k) {
      if (k > 0) parts.push(Buffer.from(', '));
      parts.push(Buffer.from('"'));
      const length = Math.floor(random() * 120);
      for (let c = 0; c < length; ++c) {
        parts.push(random() < 0.03 ? malformed[Math.floor(random() * malformed.length)]! : Buffer.from(alphabet[Math.floor(random() * alphabet.length)]!));
      }
      parts.push(Buffer.from('"'));
    }
    parts.push(Buffer.from(', x]'));
    const bytes = Buffer.concat(parts);
    // Strings hold no quote: the opening quotes are every other quote byte.
    const quotes: number[] = [];
    for (let at = bytes.indexOf(0x22), k = 0; at !== -1; at = bytes.indexOf(0x22, at + 1), ++k) if (k % 2 === 0) quotes.push(at);
    const asked: {string: number; offset: number}[] = [];
    let strings = 0;
    let tokenizer: Tokenizer;
    const sink: TokenSink = {
      startObject() {}, endObject() {}, startArray() {}, endArray() {}, keyValue() {}, numberValue() {}, nullValue() {}, trueValue() {}, falseValue() {},
      // A sink that hears of cut strings is told where they opened (valueStart).
      stringBegins() {},
      stringValue() {
        if (random() < 0.2) asked.push({string: strings, offset: tokenizer.valueStart().offset});
        ++strings;
      },
    };
    tokenizer = new Tokenizer(sink, {maxStringLength: 1e6});
    const decoder = new ChunkDecoder(1 + Math.floor(random() * 7));
    // Each text's bytes, counted at once, as the text is written.
    let decoded = 0;
    const write = (text: string): void => {
      tokenizer.write(text, decoder.replacements);
      decoded += Buffer.byteLength(text) - (decoder.replacements?.total ?? 0);
    };
    let error: InputError | undefined;
    try {
      for (const chunk of randomChunks(bytes, random, 9)) {
        decoder.start(chunk);
        for (let text = decoder.next(); text !== undefined; text = decoder.next()) write(text);
        if (random() < 0.05) assert.equal(tokenizer.bytesRead, decoded);
      }
      const rest = decoder.flush();
      if (rest !== '') write(rest);
      tokenizer.end();
    } catch (thrown) {
      if (!(thrown instanceof InputError)) throw thrown;
      error = thrown;
    }
    assert.equal(strings, 60);
    assert.ok(asked.length > 0);
    for (const {string, offset} of asked) assert.equal(offset, quotes[string], `string ${string}`);
    assert.equal(error?.code, 'syntax.unexpected');
    assert.equal(error?.offset, bytes.length - 2, 'the x');
  }
});

test('positions: an empty write between the halves of a surrogate pair cut by two writes changes no offset', () => {
  // Found by an outside attack: the empty text stood between the halves, and the pair was counted as two 3-byte halves.
  const text = '["\uD83D\uDE00",x]';
  const whole = tokenize([text]).error;
  assert.deepEqual([whole?.code, whole?.offset, whole?.column], ['syntax.unexpected', 8, 7]);
  for (const pieces of [['["\uD83D', '', '\uDE00",x]'], ['["\uD83D', '', '', '\uDE00",x]'], ['', '["\uD83D', '\uDE00', '', '",x]']]) {
    const error = tokenize(pieces).error;
    assert.deepEqual([error?.code, error?.offset, error?.line, error?.column], [whole?.code, whole?.offset, whole?.line, whole?.column], JSON.stringify(pieces));
  }
  const tokenizer = new Tokenizer(new RecordingSink());
  for (const piece of ['"\uD83D', '', '\uDE00"']) tokenizer.write(piece);
  tokenizer.end();
  assert.equal(tokenizer.bytesRead, 6);
  // And through a session, whichever engine reads it.
  for (const validator of [compile({}), compile({type: 'string', maxLength: 0})]) {
    const session = validator.session();
    for (const piece of ['["\uD83D', '', '\uDE00",x]']) session.write(piece);
    const expected = validator.validateText(text).errors.map((error) => [error.offset, error.column]);
    assert.deepEqual(session.end().errors.map((error) => [error.offset, error.column]), expected);
  }
});

test('positions: multibyte characters count their UTF-8 bytes in offsets and UTF-16 units in columns', () => {
  // é = 2 bytes, 日 = 3 bytes, 😀 = 4 bytes (2 UTF-16 units).
  const text = '{"é": "日😀", "k": x}';
  for (const pieces of [[text], splitEvery(text, 1), splitEvery(text, 3)]) {
    const outcome = tokenize(pieces);
    assert.deepEqual(outcome.positions[1], {offset: 4, line: 1, column: 4}, 'key "é" ends at its closing quote');
    assert.deepEqual(outcome.positions[2], {offset: 15, line: 1, column: 11}, 'string "日😀" ends at its closing quote');
    const error = outcome.error;
    assert.ok(error);
    assert.deepEqual([error.code, error.offset, error.line, error.column], ['syntax.unexpected', 23, 1, 19]);
    assert.deepEqual({offset: error.offset, line: error.line, column: error.column}, positionOf(text, text.indexOf('x')));
  }
  const bad = tokenize(['["ok", é]']).error;
  assert.deepEqual([bad?.offset, bad?.column], [7, 8]);
  assert.match(bad?.message ?? '', /U\+00E9/);
});

test('positions: CRLF counts as one line break; BOM is three bytes', () => {
  const text = '[\r\n  1,\r\n  tru\r\n]';
  const error = tokenize(splitEvery(text, 2)).error;
  assert.ok(error);
  assert.deepEqual([error.offset, error.line, error.column], [text.indexOf('tru') + 3, 3, 6]);
  const afterBom = tokenize(['\ufeff', '\n  [}']).error;
  assert.deepEqual([afterBom?.offset, afterBom?.line, afterBom?.column], [7, 2, 4]);
});

test('positions: syntax.end points just past the input; bytesRead counts UTF-8 bytes', () => {
  const sink = new RecordingSink();
  const tokenizer = new Tokenizer(sink);
  tokenizer.write('["é",\n');
  tokenizer.write(' 12');
  assert.equal(tokenizer.bytesRead, 10);
  assert.throws(
    () => tokenizer.end(),
    (error: unknown) => error instanceof InputError && error.code === 'syntax.end' && error.offset === 10 && error.line === 2 && error.column === 4
  );
  assert.deepEqual(sink.tokens.at(-1), {name: 'numberValue', value: '12'});
});

test('numbers and literals at the end of the text wait for their boundary or end()', () => {
  const sink = new RecordingSink();
  const tokenizer = new Tokenizer(sink);
  tokenizer.write('[1');
  tokenizer.write('2');
  assert.equal(sink.tokens.length, 1);
  tokenizer.write(', tru');
  tokenizer.write('e');
  assert.equal(sink.tokens.length, 2);
  tokenizer.write(']');
  assert.deepEqual(sink.tokens.map(t => t.value ?? t.name), ['startArray', '12', 'trueValue', 'endArray']);
  const top = new RecordingSink();
  const single = new Tokenizer(top);
  single.write('-1.5e3');
  assert.equal(top.tokens.length, 0);
  single.end();
  assert.deepEqual(top.tokens, [{name: 'numberValue', value: '-1.5e3'}]);
});

// ---- limits ----

const limitError = (pieces: string[], limits: Limits): InputError => {
  const outcome = tokenize(pieces, limits);
  assert.ok(outcome.error, `no error for ${JSON.stringify(pieces.join(''))}`);
  assert.equal(outcome.error.kind, 'limit');
  return outcome.error;
};

test('defaultLimits are the documented values', () => {
  assert.deepEqual(defaultLimits, {maxDepth: 1000, maxStringLength: 16 * 1024 * 1024, maxKeyLength: 65536, maxProperties: 1 << 20, maxNumberLength: 4096, maxUniqueItems: 1 << 23, maxAssembledValues: 1 << 23, maxApplications: 32, inexactNumbers: 'allow'});
});

test('limit.depth: the container opened beyond maxDepth', () => {
  assert.equal(tokenize(['[[[[[]]]]]'], {maxDepth: 5}).error, undefined);
  const error = limitError(['[[{"a":[[[]]]}]]'], {maxDepth: 5});
  assert.deepEqual([error.code, error.offset], ['limit.depth', 9]);
  assert.equal(tokenize(['['.repeat(1000) + ']'.repeat(1000)]).error, undefined);
  assert.equal(limitError(splitEvery('['.repeat(1001), 7), {}).code, 'limit.depth');
});

test('limit.string and limit.key: at the first code unit past the bound, escapes counted decoded', () => {
  for (const pieces of [['"0123456789"'], splitEvery('"0123456789"', 1)]) assert.equal(tokenize(pieces, {maxStringLength: 10}).error, undefined);
  for (const text of ['"0123456789a"', '"01234567\\n\\u0041b"', '["é123456789é"]']) {
    for (const pieces of [[text], splitEvery(text, 1), splitEvery(text, 4)]) {
      const error = limitError(pieces, {maxStringLength: 10});
      assert.equal(error.code, 'limit.string');
      const past = text.indexOf(text.includes('\\u') ? 'b' : text.endsWith(']') ? 'é"' : 'a"');
      assert.equal(error.offset, positionOf(text, past).offset, `${text} split ${pieces.length}`);
    }
  }
  const escapeAtLimit = limitError(['"0123456789\\n"'], {maxStringLength: 10});
  assert.equal(escapeAtLimit.offset, 11, 'an escape past the bound fails at its backslash');
  assert.equal(tokenize(['{"abcd":1}'], {maxKeyLength: 4}).error, undefined);
  const key = limitError(['{"abcde":1}'], {maxKeyLength: 4});
  assert.deepEqual([key.code, key.offset], ['limit.key', 6]);
  assert.equal(tokenize(['{"a":"abcdefgh"}'], {maxKeyLength: 4}).error, undefined, 'string values use maxStringLength');
});

test('limit.string and limit.key: a bound inside a surrogate pair points at the pair, whatever the chunking', () => {
  // The bounds count code units; the error is at the character, not at its second half.
  const cases: [string, Limits][] = [
    ['"aaa😀"', {maxStringLength: 4}],
    ['"😀"', {maxStringLength: 1}],
    ['["é😀😀"]', {maxStringLength: 4}],
    ['{"😀":1}', {maxKeyLength: 1}],
  ];
  for (const [text, limits] of cases) {
    // Every 1 and 3 units cut a pair between its halves.
    for (const size of [text.length, 1, 2, 3, 4]) {
      const {offset, line, column} = limitError(splitEvery(text, size), limits);
      assert.deepEqual({offset, line, column}, positionOf(text, text.lastIndexOf('😀')), `${text} in pieces of ${size}`);
    }
  }
});

test('limit.number: a number past the limit is refused there, before a malformed character further on, however it is cut', () => {
  for (const [text, at] of [['-0.5ex', 3], ['[-0.5e]', 4], ['-0.5e\uFEFF', 3], ['[-0.5e+]', 4]] as const) {
    for (const size of [text.length, 1, 2, 3, 4]) {
      const error = limitError(splitEvery(text, size), {maxNumberLength: 3});
      assert.deepEqual([error.code, error.offset], ['limit.number', at], `${text} in pieces of ${size}`);
    }
  }
  // A malformed character at the first place past the limit is the error: the number was not too long before it.
  for (const size of [4, 1, 3]) {
    const error = tokenize(splitEvery('-0.x', size), {maxNumberLength: 3}).error;
    assert.deepEqual([error?.code, error?.offset], ['syntax.unexpected', 3], `in pieces of ${size}`);
  }
});

test('limit.number: at the character past maxNumberLength, also when fed one character at a time', () => {
  assert.equal(tokenize(['[-1.5e10]'], {maxNumberLength: 7}).error, undefined);
  for (const pieces of [['[-1.5e100]'], splitEvery('[-1.5e100]', 1)]) {
    const error = limitError(pieces, {maxNumberLength: 7});
    assert.deepEqual([error.code, error.offset], ['limit.number', 8]);
  }
  const long = '1'.repeat(5000);
  assert.equal(limitError(splitEvery(long, 1), {}).offset, 4096);
  assert.equal(limitError([long], {}).code, 'limit.number');
});

test('limit.number.inexact: a number JSON.parse reads as ±Infinity, or as 0 for a non-zero text, at its last character', () => {
  const reject = {inexactNumbers: 'reject'} as const;
  for (const number of ['1e400', '-1e400', '1e-400', '-1e-400', '1' + '0'.repeat(309), '0.' + '0'.repeat(330) + '1', '2e-324']) {
    const text = `[1,${number}]`;
    for (const pieces of [[text], splitEvery(text, 1), splitEvery(text, 3)]) {
      const error = limitError(pieces, reject);
      assert.deepEqual([error.code, error.offset], ['limit.number.inexact', text.length - 2], number);
    }
    assert.equal(tokenize([text]).error, undefined, `${number} is judged exactly by default`);
  }
  // Zero texts read as zero, the edges of the range are doubles, and rounding within it is not refused.
  for (const number of ['-0', '0e10', '0.0e-999', '-0E+400', '5e-324', '1.7976931348623157e308', '9007199254740993', '1.00000000000000001', '1' + '0'.repeat(308)]) {
    assert.equal(tokenize([`[${number}]`], reject).error, undefined, number);
  }
});

test('limit.properties: at the opening quote of the key past maxProperties', () => {
  assert.equal(tokenize(['{"a":1,"b":2,"c":{"x":1,"y":2,"z":3}}'], {maxProperties: 3}).error, undefined);
  const text = '{"a":1,"b":2,"c":3,"d":4}';
  const error = limitError(splitEvery(text, 3), {maxProperties: 3});
  assert.deepEqual([error.code, error.offset], ['limit.properties', text.indexOf('"d"')]);
});

const collectGarbage = (): (() => void) => {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
};

test('limit.string: a 50 MB string in 64 KiB chunks fails at the bound and memory stays bounded by it', () => {
  const gc = collectGarbage();
  const chunkSize = 64 * 1024;
  const total = 50 * 1000 * 1000;
  const run = (limits: Limits | undefined): {error: InputError; fed: number; growth: number} => {
    gc();
    const before = process.memoryUsage().heapUsed;
    const tokenizer = new Tokenizer(new RecordingSink(), limits);
    let fed = 0;
    let growth = 0;
    try {
      tokenizer.write('["');
      for (fed = 2; fed < total; fed += chunkSize) {
        growth = Math.max(growth, process.memoryUsage().heapUsed - before);
        // A fresh chunk every time, as a socket would deliver, so retained chunks would show.
        tokenizer.write(String.fromCharCode(97 + (fed % 26)).repeat(chunkSize));
      }
    } catch (error) {
      gc();
      growth = Math.max(growth, process.memoryUsage().heapUsed - before);
      assert.ok(error instanceof InputError);
      return {error, fed, growth};
    }
    assert.fail('no limit error');
  };
  const small = run({maxStringLength: 1024 * 1024});
  assert.equal(small.error.code, 'limit.string');
  assert.equal(small.error.offset, 2 + 1024 * 1024);
  assert.ok(small.fed < 2 * 1024 * 1024, 'stopped within a chunk of the bound');
  assert.ok(small.growth < 8 * 1024 * 1024, `heap grew by ${small.growth} bytes for a 1 MiB bound`);

  const standard = run(undefined);
  assert.equal(standard.error.code, 'limit.string');
  assert.equal(standard.error.offset, 2 + defaultLimits.maxStringLength);
  assert.ok(standard.fed < defaultLimits.maxStringLength + chunkSize + 2);
  assert.ok(standard.growth < 2 * defaultLimits.maxStringLength + 8 * 1024 * 1024, `heap grew by ${standard.growth} bytes`);
});

test('memory: a string of escapes, or one fed a character per write, costs about its length, not a rope node per piece; texts whose bytes nobody asked for are not held', () => {
  const gc = collectGarbage();
  const held = (feed: (tokenizer: Tokenizer) => void, last = '"'): number => {
    gc();
    const before = process.memoryUsage().heapUsed;
    const tokenizer = new Tokenizer(new RecordingSink());
    feed(tokenizer);
    gc();
    const growth = process.memoryUsage().heapUsed - before;
    tokenizer.write(last);
    tokenizer.end();
    return growth;
  };
  // 1 Mi escapes decode to 1 Mi code units (~1 MB); a rope node per escape would be ~32 MB.
  const escapes = held(tokenizer => {
    tokenizer.write('"');
    const chunk = '\\n'.repeat(32 * 1024);
    for (let i = 0; i < 32; ++i) tokenizer.write(chunk.slice(0));
  });
  assert.ok(escapes < 6 * 1024 * 1024, `1 Mi escapes held ${escapes} bytes`);
  // 300k one-character writes: a rope node per write would be ~10 MB.
  const characters = held(tokenizer => {
    tokenizer.write('"');
    for (let i = 0; i < 300_000; ++i) tokenizer.write(String.fromCharCode(97 + (i % 26)));
  });
  assert.ok(characters < 3 * 1024 * 1024, `300k one-character writes held ${characters} bytes`);
  // 200k texts of 16 characters (whitespace, no token) whose bytes nobody asked for: counted a few
  // at a time (src/json/textBytes.ts), not held until asked (some 6 MB).
  const blanks = Array.from({length: 256}, (_, i) => i.toString(2).padStart(8, '0').replace(/0/g, ' ').replace(/1/g, '\t'));
  const texts = held(tokenizer => {
    tokenizer.write('[0');
    for (let i = 0; i < 200_000; ++i) tokenizer.write(blanks[i & 255]! + blanks[(i >> 8) & 255]!);
  }, ']');
  assert.ok(texts < 3 * 1024 * 1024, `200k writes, bytes never asked for, held ${texts} bytes`);
  console.log(`# memory: 1 Mi escapes held ${escapes} bytes, 300k one-character writes held ${characters} bytes, 200k uncounted texts ${texts} bytes`);
});

// ---- stop ----

test('stop() inside a callback stops delivery in the same write, and later calls do nothing', () => {
  const text = '{"a": [1, 2, 3], "b": "x"}';
  for (let stopAt = 1; stopAt <= 9; ++stopAt) {
    const sink = new RecordingSink();
    const tokenizer = new Tokenizer(sink);
    sink.tokenizer = tokenizer;
    sink.onToken = count => {
      if (count === stopAt) tokenizer.stop();
    };
    tokenizer.write(text);
    assert.equal(sink.tokens.length, stopAt);
    assert.equal(tokenizer.stopped, true);
    const stoppedAt = sink.positions[stopAt - 1];
    assert.deepEqual(tokenizer.position(), stoppedAt);
    assert.equal(tokenizer.bytesRead, stoppedAt.offset + 1);
    tokenizer.write('garbage');
    tokenizer.end();
    assert.equal(sink.tokens.length, stopAt);
  }
  const sink = new RecordingSink();
  const tokenizer = new Tokenizer(sink);
  sink.onToken = () => tokenizer.stop();
  tokenizer.write('["a"'); // the string is delivered from a continuation too
  assert.equal(sink.tokens.length, 1);
  tokenizer.write(', "b"]');
  assert.equal(sink.tokens.length, 1);
});
