// adapters/text-stream.ts: a JSON document streamed as text deltas. validateTextStream stops at the
// first certain error without asking for another delta and tells the producer to stop;
// TextStreamValidator says at any point whether the document is still possibly valid.

import assert from 'node:assert/strict';
import {describe, it} from 'node:test';

import {HttpError} from '../adapters/http-errors.js';
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

/** An iterable over `iterator`, which need not be a generator. */
function iterable<T>(iterator: AsyncIterator<T>): AsyncIterable<T> {
  return {[Symbol.asyncIterator]: () => iterator};
}

/**
 * A source that yields `delta` again and again, and counts. So that a test of a door without the
 * bound fails rather than runs on, it gives up after `giveUpAfter` deltas by throwing.
 */
function endless(delta: string, giveUpAfter: number, intervalMs?: number) {
  const seen = {yielded: 0, finished: false};
  async function* generate(): AsyncGenerator<string> {
    try {
      while (seen.yielded < giveUpAfter) {
        if (intervalMs !== undefined) await new Promise((resolve) => setTimeout(resolve, intervalMs));
        seen.yielded++;
        yield delta;
      }
      throw new Error('the source was read on without any bound');
    } finally {
      seen.finished = true;
    }
  }
  return {source: generate(), seen};
}

function isHttpError(status: number, type: string) {
  return (error: unknown): boolean => {
    assert.ok(error instanceof HttpError, `expected an HttpError, got ${String(error)}`);
    assert.equal(error.status, status);
    assert.equal(error.type, type);
    return true;
  };
}

/** `promise`, or a rejection naming `what` once `ms` pass: a test that fails instead of hanging. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `work`, and fails if a promise rejection goes unhandled meanwhile (or just after). */
async function withoutUnhandledRejection<T>(work: () => Promise<T>): Promise<T> {
  const unhandled: unknown[] = [];
  const listener = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', listener);
  try {
    const result = await work();
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(unhandled, [], 'no rejection went unhandled');
    return result;
  } finally {
    process.off('unhandledRejection', listener);
  }
}

describe('validateTextStream limit', () => {
  it('refuses a parsed document past the limit with 413 entity.too.large, and stops the producer', async () => {
    // 40 M items of `0,` took 406 MB with parse: true; 8 MiB of them is enough to be refused by the default limit.
    const {source, seen} = endless('0,'.repeat(512), 8 * 1024);
    const items = (async function* () {
      yield '[';
      yield* source;
    })();
    await assert.rejects(validateTextStream(items, {type: 'array'}, {parse: true}), (error) => {
      isHttpError(413, 'entity.too.large')(error);
      assert.equal((error as HttpError).limit, 2 ** 20);
      assert.ok((error as HttpError).length! > 2 ** 20);
      return true;
    });
    // '[' and 1,024 deltas of 1 KiB: the last one crosses the default limit, 1 MiB, and is the last read.
    assert.equal(seen.yielded, 1024);
    assert.ok(seen.finished, "the generator's finally ran");
  });

  it('refuses a source that sends whitespace without end at the limit', async () => {
    const {source, seen} = endless(' '.repeat(4096), 64 * 256);
    await assert.rejects(validateTextStream(source, schema), isHttpError(413, 'entity.too.large'));
    assert.equal(seen.yielded, 257);
  });

  it('takes limit as bytes or a size string, beside a schema or a compiled validator', async () => {
    const text = JSON.stringify({name: 'Ada', price: 1});
    for (const given of [schema, compile(schema)]) {
      assert.equal((await validateTextStream(producer([text]).source, given, {limit: text.length})).valid, true);
      await assert.rejects(validateTextStream(producer([text]).source, given, {limit: text.length - 1}), isHttpError(413, 'entity.too.large'));
      const long = `{"name": "${'a'.repeat(2000)}", "price": 1}`;
      await assert.rejects(validateTextStream(producer([long]).source, given, {limit: '1kb'}), isHttpError(413, 'entity.too.large'));
    }
  });

  it('refuses a limit or a timeout that is not one, with a TypeError', async () => {
    assert.throws(() => textStreamValidator(schema, {limit: 'lots'}), TypeError);
    assert.throws(() => new TextStreamValidator(compile(schema), {limit: -1}), TypeError);
    await assert.rejects(validateTextStream(producer(['{}']).source, schema, {timeout: {idle: -1}}), TypeError);
  });

  it('judges the bytes of a delta within the limit first: a certain error there is the verdict, not 413', async () => {
    const {source, seen} = producer(['{"price": -1, "name": "', 'x'.repeat(100)]);
    const result = await validateTextStream(source, schema, {limit: 40});
    assert.equal(result.valid, false);
    assert.equal(result.complete, false);
    assert.equal(result.errors[0]?.keyword, 'minimum');
    assert.ok(seen.finished);
  });
});

describe('validateTextStream timeout', () => {
  it('refuses a source that trickles whitespace without end at timeout.total, with 408 request.timeout', async () => {
    const {source, seen} = endless(' ', 400, 5);
    await assert.rejects(validateTextStream(source, schema, {timeout: {total: 100}}), (error) => {
      isHttpError(408, 'request.timeout')(error);
      assert.equal((error as HttpError).timeout, 100);
      return true;
    });
    assert.ok(seen.yielded < 100, `read ${seen.yielded} deltas`);
  });

  it('answers a source that stops sending at timeout.idle, and tells it to stop', async () => {
    let returned = 0;
    let nexts = 0;
    const stalled: AsyncIterator<string> = {
      next: () => (nexts++ === 0 ? Promise.resolve({done: false, value: '{"name": '}) : new Promise(() => {})),
      return: async () => {
        returned++;
        return {done: true, value: undefined};
      },
    };
    const verdict = validateTextStream(iterable(stalled), schema, {timeout: {idle: 50}});
    await assert.rejects(within(verdict, 5000, 'the idle timeout'), isHttpError(408, 'request.timeout'));
    assert.equal(returned, 1);
  });

  it('0 turns a bound off', async () => {
    const {source} = producer(['{"name": "Ada", ', '"price": 1}']);
    assert.equal((await validateTextStream(source, schema, {timeout: {idle: 0, total: 0}})).valid, true);
  });
});

describe("validateTextStream and the source's return()", () => {
  /** A source whose first delta is certainly invalid, with the given return(). */
  function invalidFirst(returnMethod: () => Promise<IteratorResult<string>>) {
    const calls = {next: 0, return: 0};
    const iterator: AsyncIterator<string> = {
      next: async () => ({done: false, value: calls.next++ === 0 ? '{"price": "free"' : '}'}),
      return: () => {
        calls.return++;
        return returnMethod();
      },
    };
    return {source: iterable(iterator), calls};
  }

  it('answers at the first certain error though return() never settles', async () => {
    const {source, calls} = invalidFirst(() => new Promise(() => {}));
    const result = await within(validateTextStream(source, schema), 5000, 'the verdict');
    assert.deepEqual([result.valid, result.complete, calls.next, calls.return], [false, false, 1, 1]);
    assert.equal(result.errors[0]?.instanceLocation, '/price');
  });

  it('keeps the verdict when return() rejects, and the rejection is not left unhandled', async () => {
    const {source, calls} = invalidFirst(() => Promise.reject(new Error('cancel failed')));
    const result = await withoutUnhandledRejection(() => validateTextStream(source, schema));
    assert.deepEqual([result.valid, result.complete, calls.return], [false, false, 1]);
  });

  it('keeps the verdict when return() throws', async () => {
    const {source, calls} = invalidFirst(() => {
      throw new Error('cancel failed');
    });
    const result = await withoutUnhandledRejection(() => validateTextStream(source, schema));
    assert.deepEqual([result.valid, result.complete, calls.return], [false, false, 1]);
  });

  it('keeps the 413 when return() rejects', async () => {
    const calls = {next: 0, return: 0};
    const iterator: AsyncIterator<string> = {
      // Gives up rather than run on forever when nothing bounds it.
      next: async () => {
        if (calls.next++ === 10_000) throw new Error('the source was read on without any bound');
        return {done: false, value: '   '};
      },
      return: () => {
        calls.return++;
        return Promise.reject(new Error('cancel failed'));
      },
    };
    await withoutUnhandledRejection(() => assert.rejects(validateTextStream(iterable(iterator), schema, {limit: 10}), isHttpError(413, 'entity.too.large')));
    assert.deepEqual(calls, {next: 4, return: 1});
  });

  it('does not ask a source that threw to stop, as for await does not', async () => {
    let returned = 0;
    const failure = new Error('the connection was reset');
    const iterator: AsyncIterator<string> = {
      next: () => Promise.reject(failure),
      return: async () => {
        returned++;
        return {done: true, value: undefined};
      },
    };
    await assert.rejects(validateTextStream(iterable(iterator), schema), (error) => error === failure);
    assert.equal(returned, 0);
  });

  it('refuses a delta that is neither text nor bytes with a TypeError, and stops the source', async () => {
    const {source, seen} = producer([42 as unknown as string]);
    await assert.rejects(validateTextStream(source, schema), TypeError);
    assert.ok(seen.finished);
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

  it('counts the limit in UTF-8 bytes, of text and of bytes alike, a surrogate pair cut between deltas as 4', () => {
    const fits = (limit: number, deltas: (string | Uint8Array)[]) => {
      const validator = textStreamValidator({}, {limit});
      for (const delta of deltas) validator.write(delta);
      return validator.end().valid;
    };
    assert.equal(fits(4, ['"é"']), true);
    assert.throws(() => fits(3, ['"é"']), isHttpError(413, 'entity.too.large'));
    assert.equal(fits(4, [new TextEncoder().encode('"é"')]), true);
    assert.throws(() => fits(3, [new TextEncoder().encode('"é"')]), isHttpError(413, 'entity.too.large'));
    assert.equal(fits(6, ['"\ud83d', '\ude00"']), true);
    assert.equal(fits(6, ['"😀"']), true);
    assert.throws(() => fits(5, ['"😀"']), isHttpError(413, 'entity.too.large'));
  });

  it('past the limit, write throws the 413 at every call, end throws it too, and possiblyValid is false', () => {
    const validator = textStreamValidator(schema, {limit: 8});
    assert.equal(validator.write('{"name"'), true);
    let refusal: unknown;
    assert.throws(() => validator.write(': "Ada"}'), (error) => {
      refusal = error;
      return isHttpError(413, 'entity.too.large')(error);
    });
    assert.equal(validator.possiblyValid, false);
    assert.throws(() => validator.write('}'), (error) => error === refusal);
    assert.throws(() => validator.end(), (error) => error === refusal);
  });

  it('a document already certainly invalid stays so past the limit, without a 413', () => {
    const validator = textStreamValidator(schema, {limit: 14});
    assert.equal(validator.write('{"price": -1,'), false);
    assert.equal(validator.write(', "name": "Ada"}'), false);
    assert.equal(validator.end().errors[0]?.keyword, 'minimum');
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
