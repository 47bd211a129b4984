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
import {tokenConsumer} from '../adapters/stream-json.js';
import {compile, tokenValidator} from '../src/index.js';
import type {Result} from '../src/types.js';

const schema = {
  type: 'object',
  required: ['id'],
  properties: {id: {type: 'integer'}, name: {type: 'string', maxLength: 5}, tags: {type: 'array', uniqueItems: true}},
  additionalProperties: false,
};

/** Every Result a stream-json pipeline into tokenConsumer emits for `chunks`. */
async function pipelineResults(chunks: readonly string[], options: Record<string, unknown>, of: unknown = schema): Promise<Result[]> {
  const results: Result[] = [];
  const pipeline = chain([parser(options), tokenConsumer(compile(of))]);
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

test('a validator from elsewhere is refused', () => {
  assert.throws(() => tokenConsumer({} as never), TypeError);
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

describe('tokenValidator: one document, whole', () => {
  const verdictOf = (schema: unknown, tokens: readonly {name: string; value?: unknown}[]): Result => {
    const document = tokenValidator(compile(schema));
    for (const token of tokens) document.push(token);
    return document.end();
  };
  const codes = (result: Result): unknown[] => result.errors.map((unit) => unit.params?.code ?? unit.keyword);

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
