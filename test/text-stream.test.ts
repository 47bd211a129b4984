// adapters/text-stream.ts: a JSON document streamed as text deltas. validateTextStream stops at the
// first certain error without asking for another delta and tells the producer to stop;
// TextStreamValidator says at any point whether the document is still possibly valid.

import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {TextStreamValidator, textStreamValidator, validateTextStream} from '../adapters/text-stream.js';
import {compile} from '../src/index.js';
import {modelOutput, productSchema, run} from '../examples/llm-structured-output.js';

const schema = {
  type: 'object',
  properties: {
    name: {type: 'string'},
    price: {type: 'number', minimum: 0},
    tags: {type: 'array', items: {type: 'string'}},
  },
  required: ['name', 'price'],
  additionalProperties: false,
} as const;

/** An async generator over `deltas` that counts what it yielded and whether its `finally` ran. */
function producer(deltas: readonly (string | Uint8Array)[]) {
  const seen = {yielded: 0, finished: false};
  async function* generate(): AsyncGenerator<string | Uint8Array> {
    try {
      for (const delta of deltas) {
        seen.yielded++;
        yield delta;
      }
    } finally {
      seen.finished = true;
    }
  }
  return {source: generate(), seen};
}

describe('validateTextStream', () => {
  it('resolves at the first certain error without asking for another delta, and stops the producer', async () => {
    const deltas = ['{"name": "Ada", ', '"price": -', '1, ', ...Array.from({length: 100}, () => '"tags": ["x"], ')];
    const {source, seen} = producer(deltas);
    const result = await validateTextStream(source, schema);
    assert.equal(result.valid, false);
    assert.equal(result.complete, false);
    assert.equal(seen.yielded, 3, 'the minimum is certainly broken once "-1" ends, in the third delta');
    assert.ok(seen.finished, "the generator's finally ran: return() was called");
    assert.equal(result.errors[0]?.keyword, 'minimum');
    assert.equal(result.errors[0]?.instanceLocation, '/price');
  });

  it('calls return() on an iterator that is not a generator', async () => {
    let nexts = 0;
    let returned = 0;
    const iterator: AsyncIterator<string> = {
      next: async () => ({done: false, value: nexts++ === 0 ? '{"unknown"' : ': 1'}),
      return: async () => {
        returned++;
        return {done: true, value: undefined};
      },
    };
    const result = await validateTextStream({[Symbol.asyncIterator]: () => iterator}, schema);
    assert.equal(result.complete, false);
    assert.equal(nexts, 1);
    assert.equal(returned, 1);
  });

  it('a valid stream resolves valid, read to its end, with the value when asked to parse', async () => {
    const text = JSON.stringify({name: 'Ada', price: 3.5, tags: ['a', 'b']});
    const deltas = Array.from({length: Math.ceil(text.length / 3)}, (_, index) => text.slice(index * 3, index * 3 + 3));
    const parsed = await validateTextStream(producer(deltas).source, schema, {parse: true});
    assert.deepEqual(parsed, {valid: true, errors: [], value: JSON.parse(text), complete: true});
    const verdictOnly = await validateTextStream(producer(deltas).source, schema);
    assert.deepEqual(verdictOnly, {valid: true, errors: [], complete: true});
  });

  it('a document cut short is read to its end and refused there', async () => {
    const result = await validateTextStream(producer(['{"name": "Ada", ', '"price": 1']).source, schema);
    assert.equal(result.valid, false);
    assert.equal(result.complete, true);
    assert.equal(result.errors[0]?.kind, 'syntax');
  });

  it('rejects with what the source throws', async () => {
    const failure = new Error('the connection was reset');
    async function* failing(): AsyncGenerator<string> {
      yield '{"name": ';
      throw failure;
    }
    await assert.rejects(validateTextStream(failing(), schema), (error) => error === failure);
  });

  it('deltas cut anywhere, inside escapes, surrogate pairs and UTF-8 sequences, give the verdict and value of the whole', async () => {
    const texts = [
      '{"name": "é \\u00e9 \\"q\\" \\\\ 😀 \\ud83d\\ude00", "price": 1e2, "tags": ["\\n", "ü"]}',
      '{"name": "😀 \\u00e9", "price": -0.5}',
      '{"name": "a\\u00", "price": 1}',
    ];
    for (const text of texts) {
      const whole = await validateTextStream(producer([text]).source, schema, {parse: true});
      const bytes = new TextEncoder().encode(text);
      for (let cut = 0; cut <= text.length; cut++) {
        const split = await validateTextStream(producer([text.slice(0, cut), text.slice(cut)]).source, schema, {parse: true});
        assert.deepEqual(split, whole, `${text} cut at code unit ${cut}`);
      }
      for (let cut = 0; cut <= bytes.length; cut++) {
        const split = await validateTextStream(producer([bytes.subarray(0, cut), bytes.subarray(cut)]).source, schema, {parse: true});
        assert.deepEqual(split, whole, `${text} cut at byte ${cut}`);
      }
      const mixed = [bytes.subarray(0, 5), text.slice(new TextDecoder().decode(bytes.subarray(0, 5)).length)];
      assert.deepEqual(await validateTextStream(producer(mixed).source, schema, {parse: true}), whole, `${text} as bytes, then text`);
    }
  });
});

describe('TextStreamValidator', () => {
  it('possiblyValid is true until the first certain error, then false for good', () => {
    const validator = textStreamValidator(schema);
    assert.equal(validator.possiblyValid, true);
    assert.equal(validator.write('{"name": "Ad'), true);
    assert.equal(validator.possiblyValid, true, 'a document cut short may still become valid');
    assert.equal(validator.write('a", "pri'), true);
    assert.equal(validator.possiblyValid, true);
    assert.equal(validator.write('ce": "free"'), false);
    assert.equal(validator.possiblyValid, false);
    assert.equal(validator.write(', "tags": []}'), false);
    assert.equal(validator.possiblyValid, false);
    assert.equal(validator.end().valid, false);
  });

  it('a syntax error is certain at its byte', () => {
    const validator = textStreamValidator(schema);
    validator.write('{"name": "Ada",');
    assert.equal(validator.possiblyValid, true);
    validator.write(' ]');
    assert.equal(validator.possiblyValid, false);
    const [unit] = validator.end().errors;
    assert.equal(unit?.kind, 'syntax');
    assert.equal(unit?.offset, 16);
  });

  it('bytesRead counts the UTF-8 bytes read', () => {
    const validator = textStreamValidator(schema);
    validator.write('{"name": "é');
    assert.equal(validator.bytesRead, 12);
  });

  it('takes a compiled validator, but no compile options with it', () => {
    const compiled = compile(schema);
    assert.ok(new TextStreamValidator(compiled).write('{'));
    assert.ok(textStreamValidator(compiled).write('{'));
    assert.throws(() => textStreamValidator(compiled, {allErrors: true}), TypeError);
  });
});

describe('examples/llm-structured-output.ts', () => {
  it('aborts the simulated completion at the forbidden member, long before its end', async () => {
    const outcome = await run();
    assert.equal(outcome.valid, false);
    assert.equal(outcome.complete, false);
    const forbidden = modelOutput.indexOf('"review"') + '"review"'.length;
    // The producer is a delta ahead at most: deltas are at most 6 characters.
    assert.ok(outcome.generated >= forbidden && outcome.generated <= forbidden + 6, `generated ${outcome.generated}, the key ends at ${forbidden}`);
    assert.match(outcome.errors[0] ?? '', /review/);
  });

  it('reads a valid completion to its end', async () => {
    const valid = JSON.stringify({name: 'Ridge 🥾', price: 89.9, currency: 'EUR', tags: ['trail']});
    const outcome = await run(valid);
    assert.deepEqual(outcome, {valid: true, complete: true, generated: valid.length, wanted: valid.length, errors: []});
    assert.ok(productSchema.required.includes('currency'));
  });
});
