// tokenConsumer (adapters/stream-json.ts): validating tokens that a stream-json pipeline already produces.

import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {Readable} from 'node:stream';
import {describe, test} from 'node:test';
import chain from 'stream-chain';
import {parser} from 'stream-json';
import {tokenConsumer, type StreamJsonToken} from '../adapters/stream-json.js';
import {compile, tokenValidator} from '../src/index.js';
import type {CompileOptions, Result, SchemaOrValidator} from '../src/types.js';

const schema = {
  type: 'object',
  required: ['id'],
  properties: {id: {type: 'integer'}, name: {type: 'string', maxLength: 5}, tags: {type: 'array', uniqueItems: true}},
  additionalProperties: false,
};

/** Every Result a stream-json pipeline into tokenConsumer(of, compileOptions) emits for `chunks`. */
async function pipelineResults(chunks: readonly string[], options: Record<string, unknown>, of: SchemaOrValidator = schema, compileOptions?: CompileOptions): Promise<Result[]> {
  const results: Result[] = [];
  const pipeline = chain([parser(options), tokenConsumer(of, compileOptions)]);
  pipeline.on('data', (result: Result) => results.push(result));
  const done = new Promise((resolve, reject) => {
    pipeline.on('end', resolve);
    pipeline.on('error', reject);
  });
  Readable.from(chunks).pipe(pipeline);
  await done;
  return results;
}

async function throughPipeline(text: string, options: Record<string, unknown>): Promise<Result> {
  const results = await pipelineResults([text.slice(0, 7), text.slice(7)], options);
  assert.equal(results.length, 1);
  return results[0];
}

const documents = [
  '{"id": 1, "name": "Ada", "tags": ["a", "b"]}',
  '{"id": 1.5}',
  '{"id": 1, "name": "Adelaide"}',
  '{"id": 1, "extra": true}',
  '{"name": "x"}',
  '{"id": 1, "tags": [{"a": 1}, {"a": 1.0}]}',
];

describe('tokenConsumer agrees with validateText', () => {
  for (const options of [{}, {packValues: false}, {streamValues: false}]) {
    for (const text of documents) {
      test(`${JSON.stringify(options)} ${text}`, async () => {
        const expected = compile(schema).validateText(text);
        const actual = await throughPipeline(text, options);
        assert.equal(actual.valid, expected.valid);
        assert.deepEqual(
          actual.errors.map((unit) => [unit.keywordLocation, unit.instanceLocation]),
          expected.errors.map((unit) => [unit.keywordLocation, unit.instanceLocation]),
        );
      });
    }
  }
});

test('a repeated key is a syntax error here too', async () => {
  const result = await throughPipeline('{"id": 1, "id": 2}', {});
  assert.equal(result.valid, false);
  assert.equal(result.errors[0].kind, 'syntax');
});

test('a validator from elsewhere is refused; a schema is compiled, with its options', async () => {
  assert.throws(() => tokenConsumer({validate: () => true, validateText: () => ({valid: true})} as never), TypeError);
  assert.throws(() => tokenConsumer((() => true) as never), TypeError);
  assert.throws(() => tokenValidator({} as never), TypeError);
  // A validator takes no compile options: they were given to compile().
  assert.throws(() => tokenConsumer(compile(schema), {allErrors: true}), TypeError);
  const results = await pipelineResults(['["ab", "abcd"]'], {}, {type: 'array', items: {type: 'string'}}, {limits: {maxStringLength: 3}});
  assert.deepEqual(results.map((result) => result.errors.map((unit) => unit.params?.code)), [['limit.string']]);
});

test('tokenConsumer gives its one result at the token that makes the document invalid, not at the end', async () => {
  // The rest of the text is still parsed (the parser is upstream), but the result is out already.
  const seen: number[] = [];
  let tokens = 0;
  const pipeline = chain([parser(), (token: StreamJsonToken) => (tokens++, token), tokenConsumer({properties: {id: {type: 'integer'}}})]);
  pipeline.on('data', () => seen.push(tokens));
  const done = new Promise((resolve, reject) => {
    pipeline.on('end', resolve);
    pipeline.on('error', reject);
  });
  Readable.from(['{"id": "x", "rest": [', '1, '.repeat(1000), '1]}']).pipe(pipeline);
  await done;
  assert.equal(seen.length, 1);
  assert.ok(seen[0]! < 10, `the result came after ${seen[0]} tokens`);
});

describe('the stream-json example: a file through stream-json\'s parser into tokenConsumer', () => {
  const example = fileURLToPath(new URL('../examples/stream-json.ts', import.meta.url));
  const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', example, ...args], {encoding: 'utf8'});

  test('reports the invalid item of examples/order.json and exits 1', () => {
    const {status, stdout} = run();
    assert.equal(status, 1);
    assert.match(stdout, /order\.json: must be >= 1 \(instance "\/items\/1\/quantity"\)/);
  });

  test('passes a valid document and exits 0; a malformed one is the parser\'s error, exit 2', () => {
    const directory = mkdtempSync(join(tmpdir(), 'stream-schema-stream-json-'));
    const valid = join(directory, 'valid.json');
    writeFileSync(valid, '{"orderId": "ord_7", "items": [{"sku": "A", "quantity": 1}]}');
    const malformed = join(directory, 'malformed.json');
    writeFileSync(malformed, '{"orderId": ');
    assert.equal(run(valid).status, 0);
    const broken = run(malformed);
    assert.equal(broken.status, 2);
    assert.match(broken.stderr, /malformed\.json: /);
  });
});

describe('tokenValidator: tokens that end before the document does', () => {
  const validator = compile({type: 'object', properties: {id: {type: 'integer'}}});
  const verdictOf = (tokens: {name: string; value?: unknown}[]): Result => {
    const document = tokenValidator(validator);
    for (const token of tokens) document.push(token);
    return document.end();
  };

  test('an object left open, or no value at all, is refused as syntax.end', () => {
    const cases = [
      [],
      [{name: 'startObject'}],
      [{name: 'startObject'}, {name: 'keyValue', value: 'id'}],
      [{name: 'startObject'}, {name: 'keyValue', value: 'id'}, {name: 'numberValue', value: '1'}],
      [{name: 'startObject'}, {name: 'startKey'}, {name: 'stringChunk', value: 'i'}],
    ];
    for (const tokens of cases) {
      const result = verdictOf(tokens);
      assert.equal(result.valid, false, JSON.stringify(tokens));
      assert.deepEqual(result.errors.map((error) => error.params?.code), ['syntax.end'], JSON.stringify(tokens));
    }
  });

  test('the whole document still passes, and a failure already certain is reported as it was', () => {
    assert.equal(verdictOf([{name: 'startObject'}, {name: 'keyValue', value: 'id'}, {name: 'numberValue', value: '1'}, {name: 'endObject'}]).valid, true);
    const failed = verdictOf([{name: 'startObject'}, {name: 'keyValue', value: 'id'}, {name: 'stringValue', value: 'x'}]);
    assert.deepEqual(failed.errors.map((error) => error.keyword), ['type']);
  });
});

describe('tokenValidator: a string value judged at its startString', () => {
  const stringTokens = (chunks: readonly string[], packed: boolean): {name: string; value?: unknown}[] => [
    {name: 'startString'},
    ...chunks.map((value) => ({name: 'stringChunk', value})),
    {name: 'endString'},
    ...(packed ? [{name: 'stringValue', value: chunks.join('')}] : []),
  ];

  test('a string of the wrong kind is refused at its startString, member or item, before its chunks', () => {
    const cases: [unknown, {name: string; value?: unknown}[], string, string][] = [
      [{properties: {id: {type: 'integer'}}}, [{name: 'startObject'}, {name: 'keyValue', value: 'id'}], 'type', '/id'],
      [{items: {type: 'integer'}}, [{name: 'startArray'}, {name: 'numberValue', value: '1'}], 'type', '/1'],
      [{maxItems: 1}, [{name: 'startArray'}, {name: 'numberValue', value: '1'}], 'maxItems', ''],
    ];
    for (const [schema, head, keyword, instanceLocation] of cases) {
      const document = tokenValidator(compile(schema));
      for (const token of head) assert.equal(document.push(token), true, JSON.stringify(schema));
      assert.equal(document.push({name: 'startString'}), false, JSON.stringify(schema));
      const result = document.end();
      assert.equal(result.valid, false);
      assert.deepEqual(result.errors.map((unit) => [unit.keyword, unit.instanceLocation]), [[keyword, instanceLocation]], JSON.stringify(schema));
    }
  });

  test('a string that passes by its kind, streamed, packed or both, is delivered once', () => {
    const validator = compile({type: 'array', items: {type: 'string'}, maxItems: 2});
    for (const packed of [false, true]) {
      const document = tokenValidator(validator);
      for (const token of [{name: 'startArray'}, ...stringTokens(['ab', 'c'], packed), ...stringTokens(['d'], packed), {name: 'endArray'}]) assert.equal(document.push(token), true);
      assert.equal(document.end().valid, true);
      const third = tokenValidator(validator);
      for (const token of [{name: 'startArray'}, ...stringTokens(['a'], packed), ...stringTokens(['b'], packed)]) third.push(token);
      assert.equal(third.push({name: 'startString'}), false, 'maxItems at the third item\'s startString');
      assert.deepEqual(third.end().errors.map((unit) => unit.keyword), ['maxItems']);
    }
  });

  test('a token other than its chunks before its end is refused as syntax.tokens: nothing passes unread', () => {
    const validator = compile({type: 'array', items: {type: 'string'}, maxItems: 1});
    for (const intruder of [{name: 'startString'}, {name: 'numberValue', value: '1'}, {name: 'endArray'}, {name: 'startObject'}]) {
      const document = tokenValidator(validator);
      for (const token of [{name: 'startArray'}, {name: 'startString'}, {name: 'stringChunk', value: 'a'}]) assert.equal(document.push(token), true);
      assert.equal(document.push(intruder), false, intruder.name);
      assert.deepEqual(document.end().errors.map((unit) => unit.params?.code), ['syntax.tokens'], intruder.name);
    }
  });
});

/** The verdict of `tokens` pushed into a tokenValidator of `schema` compiled with `options`. */
function verdictOf(schema: unknown, tokens: readonly unknown[], options: CompileOptions = {}): Result {
  const document = tokenValidator(compile(schema, options));
  for (const token of tokens) document.push(token as StreamJsonToken);
  return document.end();
}

/** Each error's input code, or its keyword for a schema violation. */
const codes = (result: Result): unknown[] => result.errors.map((unit) => unit.params?.code ?? unit.keyword);

describe('tokenValidator: one document, whole', () => {

  test('a string begun and not ended is refused as syntax.end, even where its start decided it', () => {
    // The string passes `type: string` at its startString; the tokens stop before its end.
    for (const schema of [{type: 'string'}, true, {}]) {
      for (const tokens of [[{name: 'startString'}], [{name: 'startString'}, {name: 'stringChunk', value: 'a'}], [{name: 'startNumber'}, {name: 'numberChunk', value: '1'}]]) {
        assert.deepEqual(codes(verdictOf(schema, tokens)), ['syntax.end'], `${JSON.stringify(schema)} ${JSON.stringify(tokens)}`);
      }
    }
  });

  test('a token after the document\'s value is refused as syntax.trailing: a second document is not left unjudged', () => {
    const cases: [unknown, {name: string; value?: unknown}[]][] = [
      [{type: 'string'}, [{name: 'startString'}, {name: 'endString'}, {name: 'numberValue', value: '1'}]],
      [{type: 'string'}, [{name: 'stringValue', value: 'a'}, {name: 'stringValue', value: 'b'}]],
      [{type: 'object'}, [{name: 'startObject'}, {name: 'endObject'}, {name: 'startObject'}, {name: 'endObject'}]],
      [{type: 'number'}, [{name: 'startNumber'}, {name: 'numberChunk', value: '1'}, {name: 'endNumber'}, {name: 'stringValue', value: 'x'}]],
      [{maxItems: 1}, [{name: 'startArray'}, {name: 'endArray'}, {name: 'startArray'}, {name: 'nullValue'}, {name: 'nullValue'}, {name: 'endArray'}]],
    ];
    for (const [schema, tokens] of cases) assert.deepEqual(codes(verdictOf(schema, tokens)), ['syntax.trailing'], JSON.stringify(tokens));
  });

  test('a streamed value followed by its packed value is one value', () => {
    assert.equal(verdictOf({type: 'string'}, [{name: 'startString'}, {name: 'stringChunk', value: 'a'}, {name: 'endString'}, {name: 'stringValue', value: 'a'}]).valid, true);
    assert.equal(verdictOf({type: 'number'}, [{name: 'startNumber'}, {name: 'numberChunk', value: '12'}, {name: 'endNumber'}, {name: 'numberValue', value: '12'}]).valid, true);
    assert.equal(verdictOf({type: 'string'}, [{name: 'startString'}, {name: 'endString'}]).valid, true);
  });

  test('keys and values alternate in an object, and containers close as they opened: else syntax.tokens', () => {
    const cases: {name: string; value?: unknown}[][] = [
      [{name: 'startObject'}, {name: 'numberValue', value: '1'}, {name: 'endObject'}],
      [{name: 'startObject'}, {name: 'keyValue', value: 'a'}, {name: 'keyValue', value: 'b'}, {name: 'nullValue'}, {name: 'endObject'}],
      [{name: 'startObject'}, {name: 'keyValue', value: 'a'}, {name: 'endObject'}],
      [{name: 'startArray'}, {name: 'keyValue', value: 'a'}, {name: 'nullValue'}, {name: 'endArray'}],
      [{name: 'startObject'}, {name: 'endArray'}],
      [{name: 'startArray'}, {name: 'startObject'}, {name: 'endArray'}],
    ];
    for (const tokens of cases) assert.deepEqual(codes(verdictOf(true, tokens)), ['syntax.tokens'], JSON.stringify(tokens));
    // A key streamed and then packed is one key.
    const streamedKey = [{name: 'startObject'}, {name: 'startKey'}, {name: 'stringChunk', value: 'a'}, {name: 'endKey'}, {name: 'keyValue', value: 'a'}, {name: 'nullValue'}, {name: 'endObject'}];
    assert.equal(verdictOf({properties: {a: {type: 'null'}}}, streamedKey).valid, true);
  });

  test('keys streamed and values packed, or the reverse, still judge properties', async () => {
    // With packKeys: false and packed values, the key's pieces were taken for the value's and
    // dropped, and the value judged with no key: `{"id": "x"}` passed `id: integer`.
    for (const options of [{streamValues: false, packKeys: false}, {packValues: false, streamKeys: false}, {packKeys: false}, {streamKeys: false}]) {
      const results = await pipelineResults(['{"id": "not an integer"}'], options, {properties: {id: {type: 'integer'}}});
      assert.deepEqual(results.map((result) => result.errors.map((unit) => [unit.keyword, unit.instanceLocation])), [[['type', '/id']]], JSON.stringify(options));
    }
  });

  test('several documents through one tokenConsumer (jsonStreaming) are refused, not judged by the first alone', async () => {
    const results = await pipelineResults(['{"id": 1} {"name": "no id"}'], {jsonStreaming: true}, {type: 'object', required: ['id']});
    assert.deepEqual(results.map(codes), [['syntax.trailing']]);
  });
});

describe('tokenValidator: tokens are held to the limits and to the protocol, as text is', () => {
  // Tokens can come from anywhere, not only from stream-json's parser: each of these once passed
  // unjudged, or threw a TypeError instead of an input error.
  const small = {limits: {maxStringLength: 3, maxKeyLength: 2, maxDepth: 2, maxProperties: 1, maxNumberLength: 3}};
  const object = (...inner: {name: string; value?: unknown}[]) => [{name: 'startObject'}, ...inner, {name: 'endObject'}];

  test('each limit refuses tokens as the Tokenizer refuses text, packed or streamed', () => {
    const cases: [string, unknown[], string][] = [
      ['a packed string', [{name: 'stringValue', value: 'abcd'}], 'limit.string'],
      ['a streamed string', [{name: 'startString'}, {name: 'stringChunk', value: 'ab'}, {name: 'stringChunk', value: 'cd'}, {name: 'endString'}], 'limit.string'],
      ['a packed key', object({name: 'keyValue', value: 'abc'}, {name: 'nullValue'}), 'limit.key'],
      ['a streamed key', object({name: 'startKey'}, {name: 'stringChunk', value: 'abc'}, {name: 'endKey'}, {name: 'nullValue'}), 'limit.key'],
      ['nesting', [{name: 'startArray'}, {name: 'startArray'}, {name: 'startArray'}, {name: 'endArray'}, {name: 'endArray'}, {name: 'endArray'}], 'limit.depth'],
      ['properties', object({name: 'keyValue', value: 'a'}, {name: 'nullValue'}, {name: 'keyValue', value: 'b'}, {name: 'nullValue'}), 'limit.properties'],
      ['a packed number', [{name: 'numberValue', value: '1234'}], 'limit.number'],
      ['a streamed number', [{name: 'startNumber'}, {name: 'numberChunk', value: '12'}, {name: 'numberChunk', value: '34'}, {name: 'endNumber'}], 'limit.number'],
    ];
    for (const [what, tokens, code] of cases) {
      assert.deepEqual(codes(verdictOf(true, tokens, small)), [code], what);
      // Within the limits the same shapes pass.
      assert.equal(verdictOf(true, tokens).valid, true, `${what}, default limits`);
    }
    assert.deepEqual(codes(verdictOf(true, [{name: 'numberValue', value: '1e400'}], {limits: {inexactNumbers: 'reject'}})), ['limit.number.inexact']);
  });

  test('what text would report first is reported first: a string\'s kind before its limit, a streamed key before the next limit', async () => {
    // Found by comparing pipelines with validateText: the packed string's limit came before its
    // kind's error, and a streamed key waiting for the next token was never judged when that token
    // broke a limit (the key repeated, the next value too deep).
    const cases: [SchemaOrValidator, string, CompileOptions][] = [
      [{type: 'object'}, '"abcdef"', {limits: {maxStringLength: 3}}],
      [true, '{"a": 1, "a": {"b": {}}}', {limits: {maxDepth: 2}}],
      [{properties: {a: {type: 'string'}}}, '{"a": 1, "b": 2}', {limits: {maxProperties: 1}}],
    ];
    for (const [schema, text, options] of cases) {
      const expected = codes(compile(schema, options).validateText(text));
      for (const parserOptions of [{}, {packValues: false}, {streamValues: false}, {packKeys: false}, {streamKeys: false}]) {
        const results = await pipelineResults([text], parserOptions, schema, options);
        assert.deepEqual(results.map(codes), [expected], `${text} ${JSON.stringify(parserOptions)}`);
      }
    }
  });

  test('a packed value that differs from the pieces streamed before it is refused: it would pass unjudged', () => {
    // Found by an outside attack: chunks past minLength's bound were judged as they grew, and the
    // packed "" after them replaced them unjudged; a key streamed as "a" and packed as "b" too.
    const cases: [unknown, {name: string; value?: unknown}[]][] = [
      [{minLength: 3}, [{name: 'startString'}, {name: 'stringChunk', value: 'abcdefgh'}, {name: 'endString'}, {name: 'stringValue', value: ''}]],
      [{properties: {a: false}}, object({name: 'startKey'}, {name: 'stringChunk', value: 'a'}, {name: 'endKey'}, {name: 'keyValue', value: 'b'}, {name: 'nullValue'})],
      [{maximum: 5}, [{name: 'startNumber'}, {name: 'numberChunk', value: '1'}, {name: 'endNumber'}, {name: 'numberValue', value: '9'}]],
    ];
    for (const [schema, tokens] of cases) assert.deepEqual(codes(verdictOf(schema, tokens)), ['syntax.tokens'], JSON.stringify(tokens));
  });

  test('a string over its limit reports its length first, as text does: maxLength before limit.string', () => {
    for (const allErrors of [false, true]) {
      const options = {allErrors, limits: {maxStringLength: 4}};
      const expected = codes(compile({maxLength: 1}, options).validateText('"abcde"'));
      for (const tokens of [
        [{name: 'startString'}, {name: 'stringChunk', value: 'abc'}, {name: 'stringChunk', value: 'de'}, {name: 'endString'}],
        [{name: 'startString'}, {name: 'stringChunk', value: 'abcde'}, {name: 'endString'}],
        [{name: 'stringValue', value: 'abcde'}],
      ]) {
        assert.deepEqual(codes(verdictOf({maxLength: 1}, tokens, options)), expected, `${allErrors} ${JSON.stringify(tokens)}`);
      }
    }
  });

  test('a streamed string past its limit is refused at the chunk that passes it, not at its end', () => {
    const document = tokenValidator(compile(true, small));
    assert.equal(document.push({name: 'startString'}), true);
    assert.equal(document.push({name: 'stringChunk', value: 'abc'}), true);
    assert.equal(document.push({name: 'stringChunk', value: 'd'}), false);
    assert.match(document.end().errors[0]!.error, /maxStringLength \(3\), at token 3$/);
  });

  test('number text that is not a JSON number is refused, never judged', () => {
    for (const text of ['0x10', 'abc', '', '01', '1.', '.5', '+1', 'NaN', 'Infinity', '1e', '- 1', '1 ']) {
      for (const tokens of [[{name: 'numberValue', value: text}], [{name: 'startNumber'}, {name: 'numberChunk', value: text}, {name: 'endNumber'}]]) {
        assert.deepEqual(codes(verdictOf({type: 'integer'}, tokens)), ['syntax.tokens'], JSON.stringify(tokens));
      }
    }
    assert.equal(verdictOf({type: 'number'}, [{name: 'numberValue', value: '-0.5e+3'}]).valid, true);
  });

  test('a token that is not of the protocol, or whose value is not a string, is refused as syntax.tokens', () => {
    const cases: unknown[][] = [
      [{name: 'bogus'}, {name: 'stringValue', value: 'x'}],
      [{name: 'constructor'}],
      [{name: '__proto__'}],
      [null],
      ['stringValue'],
      [{value: 'x'}],
      [{name: 'stringValue', value: 12345}],
      [{name: 'stringValue'}],
      [{name: 'numberValue', value: 5}],
      object({name: 'keyValue', value: {toString: () => 'a'}}, {name: 'nullValue'}),
      [{name: 'startString'}, {name: 'stringChunk', value: ['a']}, {name: 'endString'}],
    ];
    for (const tokens of cases) {
      assert.deepEqual(codes(verdictOf({}, tokens)), ['syntax.tokens'], String(JSON.stringify(tokens)));
    }
  });

  test('chunks and ends belong to the value they started: else syntax.tokens', () => {
    const cases: {name: string; value?: unknown}[][] = [
      [{name: 'stringChunk', value: 'a'}],
      [{name: 'endString'}],
      [{name: 'startNumber'}, {name: 'stringChunk', value: '1'}, {name: 'endNumber'}],
      [{name: 'startString'}, {name: 'numberChunk', value: '1'}, {name: 'endString'}],
      [{name: 'startString'}, {name: 'stringChunk', value: 'a'}, {name: 'endNumber'}],
      object({name: 'startKey'}, {name: 'stringChunk', value: 'a'}, {name: 'endString'}, {name: 'nullValue'}),
      object({name: 'startKey'}, {name: 'nullValue'}),
      [{name: 'startNumber'}, {name: 'numberChunk', value: '1'}, {name: 'nullValue'}],
    ];
    for (const tokens of cases) assert.deepEqual(codes(verdictOf(true, tokens)), ['syntax.tokens'], JSON.stringify(tokens));
  });
});
