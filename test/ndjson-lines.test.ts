import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { compile } from '../src/index.js';
import type { Result, Session, SessionOptions, Validator, ValueResult } from '../src/types.js';
import {
  checkOnInvalid,
  InvalidRecordError,
  LineSplitter,
  NdjsonRecordReader,
  RecordThrewError,
  type LineSink,
  type NdjsonReaderOptions,
  type NdjsonRecord,
} from '../adapters/ndjson-lines.js';
import { property } from './support/property.js';
import { documentArbitrary, schemaCases } from './support/arbitraries.js';
import { withSyntaxPass } from '../adapters/syntax-pass.js';
import { JUDGE_TEXT_RANGE, textRangeJudgeOf, type TextRangeJudge } from '../src/session/validator.js';

const TEST_TIMEOUT = { timeout: 20_000 };

/** Collects the lines a LineSplitter delivers, with the pieces of each line joined. */
class CollectingSink implements LineSink {
  readonly lines: string[] = [];
  readonly parts: string[] = [];
  #current = '';

  linePart(text: string): void {
    assert.ok(text.length > 0, 'no empty parts');
    assert.ok(!text.includes('\n'), 'no LF inside a part');
    this.parts.push(text);
    this.#current += text;
  }

  lineEnd(): void {
    this.lines.push(this.#current);
    this.#current = '';
  }
}

function splitLines(chunks: (string | Uint8Array)[]): string[] {
  const sink = new CollectingSink();
  const splitter = new LineSplitter(sink);
  for (const chunk of chunks) splitter.write(chunk);
  splitter.end();
  return sink.lines;
}

/** Every way of cutting `bytes` in two and in three (the middle piece up to 5 bytes). */
function* chunkings(bytes: Uint8Array): Generator<Uint8Array[]> {
  for (let cut = 0; cut <= bytes.length; cut++) yield [bytes.subarray(0, cut), bytes.subarray(cut)];
  for (let first = 0; first < bytes.length; first++) {
    for (let second = first + 1; second <= Math.min(bytes.length, first + 5); second++) {
      yield [bytes.subarray(0, first), bytes.subarray(first, second), bytes.subarray(second)];
    }
  }
}

function bytesOneByOne(bytes: Uint8Array): Uint8Array[] {
  return Array.from(bytes, (_, index) => bytes.subarray(index, index + 1));
}

const encoder = new TextEncoder();

// BOM, CRLF, a blank line, a whitespace-only line, 2-, 3- and 4-byte characters, no final LF.
const TRICKY_TEXT = '\uFEFF{"a":"é"}\r\n\n  \t\r\n["日本", "😀"]\n{"b":"x"}';
const TRICKY_LINES = ['{"a":"é"}\r', '', '  \t\r', '["日本", "😀"]', '{"b":"x"}'];

describe('LineSplitter', () => {
  it('splits text given as one string', TEST_TIMEOUT, () => {
    assert.deepEqual(splitLines([TRICKY_TEXT]), TRICKY_LINES);
  });

  it('gives the same lines whatever the byte chunking', TEST_TIMEOUT, () => {
    const bytes = encoder.encode(TRICKY_TEXT);
    let count = 0;
    for (const chunks of chunkings(bytes)) {
      assert.deepEqual(splitLines(chunks), TRICKY_LINES, `chunks ${chunks.map((chunk) => chunk.length).join('+')}`);
      count++;
    }
    assert.ok(count > 100);
    assert.deepEqual(splitLines(bytesOneByOne(bytes)), TRICKY_LINES);
  });

  it('gives the same lines whatever the byte chunking when a line outgrows what is kept whole (64 KiB)', TEST_TIMEOUT, () => {
    const long = `{"a":"${'é日😀x'.repeat(9000)}"}`;
    const text = `{"b":1}\n${long}\n\n${long}\r\n{"c":"é"}\n${long}`;
    const bytes = encoder.encode(text);
    const expected = [`{"b":1}`, long, '', `${long}\r`, '{"c":"é"}', long];
    assert.ok(encoder.encode(long).length > 64 * 1024);
    for (const size of [1000, 4093, 65_536, 70_001, bytes.length]) {
      const chunks: Uint8Array[] = [];
      for (let start = 0; start < bytes.length; start += size) chunks.push(bytes.subarray(start, start + size));
      assert.deepEqual(splitLines(chunks), expected, `chunks of ${size} bytes`);
    }
  });

  it('decodes lines of ASCII, of other characters and of malformed bytes, side by side, as each line decodes alone, in any chunking', TEST_TIMEOUT, () => {
    // Pieces of whole lines are decoded at once, a line longer than what is kept through the
    // decoder that holds a cut character: the lines must not tell, wherever a chunk ends.
    const asciiLine = fc.array(fc.integer({ min: 0x20, max: 0x7e }), { maxLength: 12 });
    const textLine = fc.string({ unit: 'binary', maxLength: 6 }).map((text) => [...encoder.encode(text.replaceAll('\n', ''))]);
    const rawLine = fc.array(fc.integer({ min: 0, max: 255 }).filter((byte) => byte !== 0x0a), { maxLength: 8 });
    const line = fc.oneof(asciiLine, asciiLine, textLine, rawLine);
    const keepBom = new TextDecoder('utf-8', { ignoreBOM: true });
    const stripBom = new TextDecoder('utf-8');
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 10 }), fc.boolean(), fc.array(fc.nat(), { maxLength: 6 }), (lines, finalLineFeed, marks) => {
        const input = Uint8Array.from(lines.flatMap((bytes, index) => (index < lines.length - 1 || finalLineFeed ? [...bytes, 0x0a] : bytes)));
        // A stream's first line loses a BOM; a last line without its line feed is one only when it is not empty.
        const expected = lines.map((bytes, index) => (index === 0 ? stripBom : keepBom).decode(Uint8Array.from(bytes)));
        if (!finalLineFeed && lines.at(-1)!.length === 0) expected.pop();
        const cuts = [...new Set(marks.map((mark) => mark % (input.length + 1)))].sort((a, b) => a - b);
        const chunks = [...cuts, input.length].map((cut, index, all) => input.subarray(index === 0 ? 0 : all[index - 1], cut));
        assert.deepEqual(splitLines([input]), expected, 'whole');
        assert.deepEqual(splitLines(chunks), expected, `cut at ${cuts.join(', ')}`);
      }),
      property(500),
    );
  });

  it('keeps no reference to a chunk: its buffer may be reused once write returns', TEST_TIMEOUT, () => {
    const sink = new CollectingSink();
    const splitter = new LineSplitter(sink);
    const buffer = new Uint8Array(8);
    for (const piece of ['{"a":', '1}\n{"b"', ':2}\n']) {
      buffer.fill(0x20);
      buffer.set(encoder.encode(piece));
      splitter.write(buffer.subarray(0, piece.length));
    }
    splitter.end();
    assert.deepEqual(sink.lines, ['{"a":1}', '{"b":2}']);
  });

  it('gives the same lines when string and byte chunks are mixed', TEST_TIMEOUT, () => {
    const bytes = encoder.encode('{"a":"é');
    // A string ends the character its bytes began, as it does in a session (test/utf8.test.ts):
    // both halves of "é" are malformed, each a U+FFFD where it stands.
    assert.deepEqual(splitLines([bytes.subarray(0, 7), 'x"}\n', bytes.subarray(7), '"}']), ['{"a":"\uFFFDx"}', '\uFFFD"}']);
    assert.deepEqual(splitLines([encoder.encode('{"a":'), '1}\n{"b":', encoder.encode('2}\n')]), ['{"a":1}', '{"b":2}']);
  });

  it('decodes a 4-byte character split across chunks whole', TEST_TIMEOUT, () => {
    const bytes = encoder.encode('"😀"\n');
    const sink = new CollectingSink();
    const splitter = new LineSplitter(sink);
    for (const chunk of bytesOneByOne(bytes)) splitter.write(chunk);
    splitter.end();
    assert.deepEqual(sink.lines, ['"😀"']);
    assert.ok(sink.parts.every((part) => !/[\uD800-\uDFFF]/u.test(part)), 'no lone surrogate in any part');
  });

  it('strips a BOM split across chunks, and only at the start of the stream', TEST_TIMEOUT, () => {
    const bom = encoder.encode('\uFEFF');
    assert.deepEqual(splitLines([bom.subarray(0, 1), bom.subarray(1, 2), bom.subarray(2), encoder.encode('1\n2')]), ['1', '2']);
    assert.deepEqual(splitLines(['1\n\uFEFF2\n']), ['1', '\uFEFF2']);
    assert.deepEqual(splitLines(['\uFEFF']), []);
  });

  it('ends a last line without LF at end(), and adds no line after a final LF', TEST_TIMEOUT, () => {
    assert.deepEqual(splitLines(['1\n2']), ['1', '2']);
    assert.deepEqual(splitLines(['1\n2\n']), ['1', '2']);
    assert.deepEqual(splitLines(['1\n', '2', '']), ['1', '2']);
    assert.deepEqual(splitLines([]), []);
    assert.deepEqual(splitLines(['\n\n']), ['', '']);
  });

  it('turns an incomplete UTF-8 sequence at the end into U+FFFD', TEST_TIMEOUT, () => {
    const bytes = encoder.encode('"é');
    assert.deepEqual(splitLines([bytes.subarray(0, bytes.length - 1)]), ['"\uFFFD']);
  });

  it('delivers nothing after stop(), even for the rest of the chunk', TEST_TIMEOUT, () => {
    const sink = new CollectingSink();
    const splitter = new LineSplitter({
      linePart: (text) => sink.linePart(text),
      lineEnd: () => {
        sink.lineEnd();
        if (sink.lines.length === 2) splitter.stop();
      },
    });
    splitter.write('1\n2\n3\n4');
    splitter.write('5\n');
    splitter.end();
    assert.deepEqual(sink.lines, ['1', '2']);
    assert.equal(splitter.stopped, true);
  });

  it('rejects a chunk that is neither a string nor bytes', TEST_TIMEOUT, () => {
    const splitter = new LineSplitter(new CollectingSink());
    assert.throws(() => splitter.write(42 as unknown as string), TypeError);
  });
});

const SCHEMA = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1 }, name: { type: 'string' } },
};

let compiledSchema: Validator | undefined;

/** Compiled once, on first use, so that a broken engine fails the tests rather than the import. */
function schemaValidator(): Validator {
  compiledSchema ??= compile(SCHEMA);
  return compiledSchema;
}

function readRecords(chunks: (string | Uint8Array)[], options: NdjsonReaderOptions = {}, validator: Validator = schemaValidator()): NdjsonRecord[] {
  const records: NdjsonRecord[] = [];
  const reader = new NdjsonRecordReader(validator, options, (record) => records.push(record));
  for (const chunk of chunks) reader.write(chunk);
  reader.end();
  return records;
}

/** Line numbers and verdicts only: what every chunking must agree on. */
function verdicts(records: NdjsonRecord[]): [number, boolean][] {
  return records.map((record) => [record.line, record.valid]);
}

describe('NdjsonRecordReader', () => {
  it('emits one record per non-blank line, blank lines counted in line numbers', TEST_TIMEOUT, () => {
    const records = readRecords(['{"id":1}\n\n   \n{"id":2}\r\n\r\n{"id":3}']);
    assert.deepEqual(records, [
      { line: 1, valid: true, errors: [] },
      { line: 4, valid: true, errors: [] },
      { line: 6, valid: true, errors: [] },
    ]);
  });

  it('accepts CRLF line endings and a BOM at the start', TEST_TIMEOUT, () => {
    const records = readRecords([encoder.encode('\uFEFF{"id":1}\r\n{"id":2}\r\n')]);
    assert.deepEqual(verdicts(records), [[1, true], [2, true]]);
  });

  it('reports a malformed line as a syntax error with its line number, and goes on', TEST_TIMEOUT, () => {
    const records = readRecords(['{"id":1}\n{"id": 2,\n{"id":3}\n']);
    assert.deepEqual(verdicts(records), [[1, true], [2, false], [3, true]]);
    const [error] = records[1].errors;
    assert.equal(error.kind, 'syntax');
    assert.equal(error.line, 2);
  });

  it('reports a schema violation with its line number and instance location', TEST_TIMEOUT, () => {
    const records = readRecords(['{"id":1}\n{"id":0}\n{"name":"x"}\n']);
    assert.deepEqual(verdicts(records), [[1, true], [2, false], [3, false]]);
    assert.equal(records[1].errors[0].kind, 'validation');
    assert.equal(records[1].errors[0].keyword, 'minimum');
    assert.equal(records[1].errors[0].instanceLocation, '/id');
    assert.equal(records[1].errors[0].line, 2);
    assert.equal(records[2].errors[0].keyword, 'required');
  });

  it('gives error columns and offsets within the line, leading whitespace included', TEST_TIMEOUT, () => {
    const [plain] = readRecords(['{"id":x}\n']);
    const [indented] = readRecords(['\n   {"id":x}\n']);
    const [plainError] = plain.errors;
    const [indentedError] = indented.errors;
    assert.equal(indentedError.line, 2);
    assert.ok(plainError.column !== undefined && indentedError.column !== undefined);
    assert.equal(indentedError.column, plainError.column + 3);
    assert.ok(plainError.offset !== undefined && indentedError.offset !== undefined);
    assert.equal(indentedError.offset, plainError.offset + 3);
    assert.doesNotMatch(indentedError.error, /line 1 column/, 'a position in the message is the NDJSON one');
  });

  it('gives byte offsets of the bytes as sent after a malformed sequence, in a line read whole or handed on in pieces', TEST_TIMEOUT, () => {
    // Three bytes 0xFF, each a U+FFFD of three bytes in the text; then 70 KB, more than a line kept whole, and the error.
    for (const filler of ['', 'a'.repeat(70_000)]) {
      const line = Buffer.concat([encoder.encode('{"name":"'), Uint8Array.from([0xff, 0xe2, 0x82, 0xff]), encoder.encode(`${filler}","id":x}`)]);
      const input = Buffer.concat([encoder.encode('{"id":1}\n'), line, encoder.encode('\n')]);
      const expected = line.indexOf('x}');
      for (const size of [1, 7, 4096, 65_537, input.length]) {
        const chunks = Array.from({length: Math.ceil(input.length / size)}, (_, index) => input.subarray(index * size, (index + 1) * size));
        const [, record] = readRecords(chunks);
        assert.deepEqual(record!.errors.map((unit) => [unit.params?.code, unit.line, unit.offset]), [['syntax.unexpected', 2, expected]], `a ${line.length}-byte line in chunks of ${size}`);
      }
    }
  });

  it('refuses a byte order mark after leading whitespace whether the line is read whole or by a session', TEST_TIMEOUT, () => {
    // A session began after the whitespace and took the mark as its text's first character, which it ignores.
    const filler = ' '.repeat(70_000);
    const cases = [
      {input: '1\n  \uFEFF{"a":1}\n', options: {}, validator: compile({})},
      {input: '1\n  \uFEFF{"a":1}\n', options: {parse: true}, validator: compile({}, {allErrors: true})},
      {input: `1\n${filler}\uFEFF{"a":1}\n`, options: {}, validator: compile({})},
    ];
    for (const {input, options, validator} of cases) {
      for (const chunks of [[input], bytesOneByOne(encoder.encode(input))]) {
        const records = readRecords(chunks, options, validator);
        const label = `${input.length} characters in ${chunks.length} chunks, ${JSON.stringify(options)}`;
        assert.deepEqual(records.map((record) => [record.line, record.valid]), [[1, true], [2, false]], label);
        const [error] = records[1]!.errors;
        assert.deepEqual([error!.params?.code, error!.column, error!.offset], ['syntax.unexpected', input.indexOf('\uFEFF') - 1, encoder.encode(input.slice(2, input.indexOf('\uFEFF'))).length], label);
      }
    }
  });

  it('gives the same records whatever the chunking', TEST_TIMEOUT, () => {
    const text = '\uFEFF{"id":1,"name":"é"}\r\n\n{"id":"日本"}\n{"id":2,\n{"id":3,"name":"😀"}';
    const bytes = encoder.encode(text);
    const expected = readRecords([text]);
    assert.deepEqual(verdicts(expected), [[1, true], [3, false], [4, false], [5, true]]);
    for (const chunks of chunkings(bytes)) {
      assert.deepEqual(verdicts(readRecords(chunks)), verdicts(expected), `chunks ${chunks.map((chunk) => chunk.length).join('+')}`);
    }
    assert.deepEqual(readRecords(bytesOneByOne(bytes)), expected);
  });

  it('throws a RecordThrewError naming the line when a custom format throws, at every split point, whole line or in pieces', TEST_TIMEOUT, () => {
    const exploding = compile({ properties: { a: { format: 'evil' } } }, { formats: 'assert', customFormats: { evil: (value) => {
      if (value === 'boom') throw new RangeError('kaboom');
      return true;
    } } });
    const text = '{"a":"x"}\n\n{"a":"boom"}\n{"a":"y"}\n';
    for (let split = 0; split <= text.length; split++) {
      for (const parse of [false, true]) {
        const lines: number[] = [];
        const reader = new NdjsonRecordReader(exploding, { parse }, (record) => lines.push(record.line));
        const thrown = (() => {
          try {
            reader.write(text.slice(0, split));
            reader.write(text.slice(split));
            reader.end();
          } catch (error) {
            return error;
          }
          return undefined;
        })();
        const where = `split at ${split}${parse ? ', parse' : ''}`;
        assert.ok(thrown instanceof RecordThrewError, `${where}: ${String(thrown)}`);
        assert.equal(thrown.line, 3, where);
        assert.equal(thrown.message, 'line 3: validating the record threw RangeError: kaboom', where);
        assert.ok(thrown.cause instanceof RangeError, where);
        assert.deepEqual(lines, [1], where);
      }
    }
  });

  it('assembles values only when asked to parse', TEST_TIMEOUT, () => {
    const text = '{"id":1,"name":"a\\u00e9"}\n{"id":2,"x":2.50e0}\n{"id":3,"list":[1,{"a":null}]}\n';
    const parsed = readRecords([text], { parse: true });
    assert.deepEqual(parsed.map((record) => record.value), [{ id: 1, name: 'aé' }, { id: 2, x: 2.5 }, { id: 3, list: [1, { a: null }] }]);
    for (const record of readRecords([text])) assert.equal('value' in record, false);
  });

  it('turns a line longer than maxLineLength into a limit error, and reads the next line', TEST_TIMEOUT, () => {
    const long = `{"id":1,"name":"${'x'.repeat(100)}"}`;
    const chunks = [long.slice(0, 30), long.slice(30), '\n{"id":2}\n'];
    const records = readRecords(chunks, { maxLineLength: 50 });
    assert.deepEqual(verdicts(records), [[1, false], [2, true]]);
    const [error] = records[0].errors;
    assert.equal(error.kind, 'limit');
    assert.equal(error.line, 1);
    assert.deepEqual(error.params, { code: 'limit.lineLength', limit: 50 });
    assert.deepEqual([error.offset, error.column], [50, 51], 'at the first character past the limit');
    assert.deepEqual(verdicts(readRecords(['{"id":1}\n'], { maxLineLength: 8 })), [[1, true]]);
    assert.throws(() => readRecords([], { maxLineLength: 0 }), RangeError);
  });

  it('says where a line went past maxLineLength, at a character\'s start, in bytes as sent, however it is cut', TEST_TIMEOUT, () => {
    // The limit counts code units: past 5, the emoji's second half; past 4, its first. Three
    // malformed bytes before it are three bytes, not three U+FFFDs of three; given as text, they
    // are the U+FFFDs, three bytes each.
    const cases: [Uint8Array, number, [number, number]][] = [
      [encoder.encode('"aaa😀"\n{}\n'), 5, [4, 5]],
      [encoder.encode('"aaa😀"\n{}\n'), 4, [4, 5]],
      [encoder.encode('"aaa😀"\n{}\n'), 6, [8, 7]],
      [Uint8Array.from([0x22, 0xff, 0xfe, 0xc0, ...encoder.encode('😀"\n{}\n')]), 5, [4, 5]],
    ];
    for (const [bytes, maxLineLength, [offset, column]] of cases) {
      const text = new TextDecoder().decode(bytes);
      const cut = text.indexOf('\uDE00');
      const asText = Buffer.byteLength(text.slice(0, column - 1));
      const chunkings: [(string | Uint8Array)[], number][] = [
        [[bytes], offset],
        [bytesOneByOne(bytes), offset],
        [[text], asText],
        [[text.slice(0, cut), text.slice(cut)], asText],
        [[...text], asText],
      ];
      for (const [chunks, at] of chunkings) {
        const records = readRecords(chunks, { maxLineLength }, compile(true));
        assert.deepEqual(verdicts(records), [[1, false], [2, true]]);
        const [error] = records[0]!.errors;
        const where = `${chunks.length} ${typeof chunks[0]} chunks, maxLineLength ${maxLineLength}`;
        assert.deepEqual([error!.params!.code, error!.offset, error!.line, error!.column], ['limit.lineLength', at, 1, column], where);
      }
    }
  });

  it('stops feeding a session once write() returned false, and skips to the end of the line', TEST_TIMEOUT, () => {
    const spy = spyingValidator(schemaValidator());
    const records = readRecords(['{"id":"not a number", "name":', '"rest of the line"}\n', '{"id":5}\n'], {}, spy.validator);
    assert.deepEqual(verdicts(records), [[1, false], [2, true]]);
    assert.equal(spy.writesAfterFalse, 0);
    // The line cut across chunks gets a session; the one that arrives whole goes to validateText.
    assert.equal(spy.sessions, 1);
    assert.equal(spy.wholeLines, 1);
  });

  it('with allErrors, feeds a failed line to its end and reports every error', TEST_TIMEOUT, () => {
    const spy = spyingValidator(compile(SCHEMA, { allErrors: true }));
    const chunks = ['{"id":0,', '"name":5}\n{"id":', 'x}\n{"id":2}\n'];
    const records = readRecords(chunks, {}, spy.validator);
    assert.deepEqual(verdicts(records), [[1, false], [2, false], [3, true]]);
    assert.deepEqual(records[0].errors.map((error) => error.keyword).sort(), ['minimum', 'type']);
    assert.equal(records[1].errors.length, 1);
    assert.equal(records[1].errors[0].kind, 'syntax');
    assert.ok(spy.writesAfterFalse > 0);
  });

  it('validates nothing for blank lines, whole or in pieces', TEST_TIMEOUT, () => {
    const spy = spyingValidator(schemaValidator());
    readRecords(['\n \r\n\t\n{"id":1}\n\n'], {}, spy.validator);
    assert.equal(spy.sessions + spy.wholeLines, 1);
    readRecords([' ', '\t', '\n', '{"id":', '1}\n', '  ', '\n'], {}, spy.validator);
    assert.equal(spy.sessions + spy.wholeLines, 2);
  });

  it('gives a line that arrives whole the record a session would give it', TEST_TIMEOUT, () => {
    const lines = ['  {"id":0, "name": 5}\r', '{"id":1}', '\t{"id":', '[1, 2', '{"id":2, "id":3}', '{"id":"é", "x": "ü"} x'];
    for (const options of [{}, { parse: true }, { allErrors: true }, { parse: true, allErrors: true }]) {
      const validator = compile(SCHEMA, { allErrors: options.allErrors });
      const whole = readRecords([lines.join('\n') + '\n'], options, validator);
      // One character at a time: every line in pieces, each through a session.
      const pieces = readRecords([...(lines.join('\n') + '\n')], options, validator);
      assert.deepEqual(whole, pieces, JSON.stringify(options));
    }
  });

  it('gives a line judged where it stands in its piece the record validateText or parseText gives the line cut out', TEST_TIMEOUT, () => {
    // The range check reads on past the line's LF as if the text went on (RootPrograms.textPasses):
    // lines that continue into the next one, cut documents, trailing content and every hostile
    // document must get what the slice gets, through the validator and through the CLI's wrapper.
    const separator = fc.constantFrom('\n', '\r\n', ' \n', '\n\n', '\n\t');
    const scenario = schemaCases().chain((schemaCase) =>
      fc.record({
        schemaCase: fc.constant(schemaCase),
        lines: fc.array(fc.tuple(documentArbitrary(schemaCase), separator), { minLength: 1, maxLength: 6 }),
        cuts: fc.array(fc.nat(), { maxLength: 2 }),
      }),
    );
    let passedInPlace = 0;
    fc.assert(
      fc.property(scenario, ({ schemaCase, lines, cuts }) => {
        const bytes = Buffer.concat(lines.flatMap(([document, after]) => [Buffer.from(document.bytes), Buffer.from(after)]));
        const at = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...at].map((from, index) => bytes.subarray(from, [...at, bytes.length][index]));
        const compiled = compile(schemaCase.schema, schemaCase.options);
        for (const validator of [compiled, withSyntaxPass(compiled, compile(true))]) {
          const inPlace = textRangeJudgeOf(validator)!;
          // The code's passes, counted by the schema's cache: a line passed in place is never sliced and asked again.
          const passes = (compiled as unknown as { parts: { checkerCache: { programPasses: { text: number } } } }).parts.checkerCache.programPasses;
          const counted = rangeJudged(validator, (text, from, to, parse, lineBytes) => {
            const before = passes.text;
            const result = inPlace(text, from, to, parse, lineBytes);
            passedInPlace += passes.text - before;
            return result;
          });
          const sliced = rangeJudged(validator, undefined);
          for (const options of [{}, { parse: true }]) assert.deepEqual(readRecords(chunks, options, counted), readRecords(chunks, options, sliced), JSON.stringify(options));
        }
      }),
      property(300),
    );
    assert.ok(passedInPlace > 100, `only ${passedInPlace} lines passed where they stand`);
  });

  it('emits nothing after stop()', TEST_TIMEOUT, () => {
    const records: NdjsonRecord[] = [];
    const reader = new NdjsonRecordReader(schemaValidator(), {}, (record) => {
      records.push(record);
      reader.stop();
    });
    reader.write('{"id":1}\n{"id":2}\n');
    reader.end();
    assert.deepEqual(verdicts(records), [[1, true]]);
    assert.equal(reader.linesRead, 1);
  });
});

describe('InvalidRecordError and onInvalid', () => {
  it('names the line and keeps the errors', TEST_TIMEOUT, () => {
    const [record] = readRecords(['{"id":0}']);
    const error = new InvalidRecordError(record.line, record.errors);
    assert.equal(error.code, 'ndjson.invalidRecord');
    assert.equal(error.line, 1);
    assert.match(error.message, /^line 1: /);
    assert.equal(error.errors, record.errors);
  });

  it('accepts emit, skip and error only', TEST_TIMEOUT, () => {
    assert.equal(checkOnInvalid(undefined), 'emit');
    assert.equal(checkOnInvalid('skip'), 'skip');
    assert.throws(() => checkOnInvalid('drop' as 'skip'), RangeError);
  });
});

/** `inner`, with `judge` as its judgement of a line where it stands (none: every line is sliced). */
function rangeJudged(inner: Validator, judge: TextRangeJudge | undefined): Validator {
  return {
    draft: inner.draft,
    allErrors: inner.allErrors,
    changesValues: inner.changesValues,
    warnings: inner.warnings,
    validate: (value: unknown) => inner.validate(value),
    validateText: (text: string | Uint8Array) => inner.validateText(text),
    parseText: (text: string | Uint8Array) => inner.parseText(text),
    session: ((options?: SessionOptions) => inner.session(options)) as Validator['session'],
    is: (value: unknown): value is unknown => inner.is(value),
    '~standard': inner['~standard'],
    [JUDGE_TEXT_RANGE]: judge,
  } as Validator;
}

/** Wraps a validator to count sessions and writes made after a session said false. */
function spyingValidator(inner: Validator): { validator: Validator; readonly sessions: number; readonly wholeLines: number; readonly writesAfterFalse: number } {
  const counts = { sessions: 0, wholeLines: 0, writesAfterFalse: 0 };
  const validator: Validator = {
    draft: inner.draft,
    allErrors: inner.allErrors,
    changesValues: inner.changesValues,
    warnings: inner.warnings,
    validate: (value: unknown) => inner.validate(value),
    validateText: (text: string | Uint8Array): Result => (counts.wholeLines++, inner.validateText(text)),
    parseText: (text: string | Uint8Array) => (counts.wholeLines++, inner.parseText(text)),
    is: (value: unknown): value is unknown => inner.is(value),
    '~standard': inner['~standard'],
    session(options?: SessionOptions): Session<ValueResult> {
      counts.sessions++;
      const session = inner.session(options);
      let saidFalse = false;
      return {
        write(chunk: string | Uint8Array): boolean {
          if (saidFalse) counts.writesAfterFalse++;
          const more = session.write(chunk);
          if (!more) saidFalse = true;
          return more;
        },
        end: () => session.end() as ValueResult,
        get failed() {
          return session.failed;
        },
        get bytesRead() {
          return session.bytesRead;
        },
      };
    },
  };
  return {
    validator,
    get sessions() {
      return counts.sessions;
    },
    /** Lines handed whole to validateText or parseText. */
    get wholeLines() {
      return counts.wholeLines;
    },
    get writesAfterFalse() {
      return counts.writesAfterFalse;
    },
  };
}
