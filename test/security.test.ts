// Regressions for the security issue's reproductions, at the API: each was one request that
// crashed a server or let the next invalid body pass. Broader properties of the same kind are in
// test/isolation*.test.ts and test/parser-agreement*.test.ts.

import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import {compile} from '../src/index.js';
import type {Result, Validator} from '../src/types.js';
import {byteChunks, feed} from './support/chunks.js';
import {branchingLists, branchingTree, judges, nestedLists, treeWithKindLast} from './support/branching.js';

const schema = {
  type: 'object',
  properties: {name: {type: 'string'}, role: {enum: ['user']}, data: {type: 'object'}},
  required: ['name'],
  additionalProperties: false,
};
const admin = '{"name":"x","role":"admin"}';
/** Documents that end inside a nested member, or are broken there. */
const malformed = ['{"role":"user","data":{"n":1,', '{"role":"user","data":{"n":', '{"data":{"n":1}', '{"role":"user","data":[1,', '{"data":{"a":1,"a":2}}', '{"name":"x"}\uFFFD'];
const bytesOf = (text: string) => new TextEncoder().encode(text);
const latin1 = (text: string) => Buffer.from(text, 'latin1');

/** The result without the parsed value, to compare with a fresh validator's. */
function verdictOf({value: _value, ...result}: Result): Result {
  return result;
}

describe('a malformed document leaves nothing behind for the next one', () => {
  const modes: [string, (validator: Validator, text: string) => Result][] = [
    ['validateText', (validator, text) => validator.validateText(text)],
    ['validateText of bytes', (validator, text) => validator.validateText(bytesOf(text))],
    ['parseText', (validator, text) => verdictOf(validator.parseText(text))],
    ['session in 1-byte chunks', (validator, text) => verdictOf(feed(validator, byteChunks(bytesOf(text))))],
  ];
  for (const [mode, judge] of modes) {
    it(`${mode}: the admin body is refused after each malformed body, as by a fresh validator`, () => {
      const shared = compile(schema);
      const expected = judge(compile(schema), admin);
      assert.equal(expected.valid, false);
      for (const before of malformed) {
        assert.doesNotThrow(() => judge(shared, before));
        assert.deepEqual(judge(shared, admin), expected, `after ${JSON.stringify(before)}`);
      }
    });
  }

  it('validate: a value whose getter throws is an input error, and the next value is judged afresh', () => {
    const shared = compile(schema);
    const hostile = {
      name: 'x',
      get data(): never {
        throw new Error('boom');
      },
    };
    const result = shared.validate(hostile);
    assert.equal(result.valid, false);
    assert.equal(result.errors[0]?.params?.code, 'value.unreadable');
    assert.equal(result.errors[0]?.instanceLocation, '/data');
    assert.deepEqual(shared.validate({name: 'x', role: 'admin'}), compile(schema).validate({name: 'x', role: 'admin'}));
  });
});

describe('a byte 0xF8–0xFF that ends a chunk is not dropped', () => {
  const roleSchema = {properties: {role: {enum: ['user']}}};
  it('session: {"role":"us\\xFF then er"} is refused as when written whole', () => {
    const validator = compile(roleSchema);
    const whole = feed(validator, [latin1('{"role":"us\xFFer"}')]);
    assert.equal(whole.valid, false);
    for (let lead = 0xf5; lead <= 0xff; lead++) {
      const result = feed(validator, [latin1(`{"role":"us${String.fromCharCode(lead)}`), latin1('er"}')]);
      assert.equal(result.valid, false, `0x${lead.toString(16)}`);
      assert.equal(result.errors[0]?.keyword, 'enum');
    }
  });

  it('session: {"name":"x"}\\xFF in two chunks is a syntax error, as whole', () => {
    const validator = compile({});
    for (const chunks of [[latin1('{"name":"x"}\xFF')], [latin1('{"name":"x"}'), latin1('\xFF')], byteChunks(latin1('{"name":"x"}\xFF'))]) {
      const result = feed(validator, chunks);
      assert.equal(result.valid, false);
      assert.equal(result.errors[0]?.kind, 'syntax');
    }
  });

  it('session: JSONTestSuite n_array_invalid_utf8 ([ 0xFF ]) is refused in 1- and 2-byte chunks', () => {
    const validator = compile({});
    const bytes = Uint8Array.from([0x5b, 0xff, 0x5d]);
    for (const chunks of [byteChunks(bytes), [bytes.subarray(0, 2), bytes.subarray(2)]]) assert.equal(feed(validator, chunks).valid, false);
  });
});

describe('parseText does not throw when JSON.parse refuses what the checker passed', () => {
  it('answers a syntax error (syntax.parse) instead', () => {
    const validator = compile({type: 'object'});
    const parse = JSON.parse;
    JSON.parse = () => {
      throw new SyntaxError('refused for the test');
    };
    let result: Result;
    try {
      result = validator.parseText('{"a":1}');
    } finally {
      JSON.parse = parse;
    }
    assert.equal(result.valid, false);
    assert.equal(result.value, undefined);
    assert.equal(result.errors[0]?.kind, 'syntax');
    assert.equal(result.errors[0]?.params?.code, 'syntax.parse');
  });
});

// Two subschemas that reach the same recursive one apply it twice at the next level of the
// document, four times at the one after: a 500-byte tree that puts `children` before `kind`, valid
// as it is, took 6 s and 760 MB at 16 levels and killed the process at 18 (in every mode, the
// evaluator's runs and the checker's shapes alike). Now Limits.maxApplications bounds the work.
describe('applications that double at each level of the document are refused with limit.applications', () => {
  const [tree, lists, kindLast] = [branchingTree, branchingLists, treeWithKindLast];
  const kindFirst = (depth: number): string => {
    let text = '{"kind":"group"}';
    for (let level = 0; level < depth; level++) text = `{"kind":"list","children":[${text},{"kind":"group"}]}`;
    return text;
  };
  const modes = Object.entries(judges);
  const codes = (result: Result) => result.errors.map((unit) => unit.params?.code ?? unit.keyword);

  for (const [name, judge] of modes) {
    it(`${name}: refused, with where, on a tree 30 levels deep and on lists 40 deep; the next document is judged afresh`, () => {
      for (const [schemaOf, text] of [[tree, kindLast(30)], [lists, nestedLists(40)]] as const) {
        const validator = compile(schemaOf);
        const result = judge(validator, text);
        assert.equal(result.valid, false);
        assert.deepEqual(codes(result), ['limit.applications']);
        const [unit] = result.errors;
        assert.equal(unit!.kind, 'limit');
        assert.match(unit!.instanceLocation, /^\//);
        if (name !== 'validate') assert.ok(unit!.offset! > 0 && unit!.offset! < text.length, `offset ${unit!.offset}`);
        assert.equal(judge(validator, schemaOf === tree ? kindLast(2) : '[[[]]]').valid, true);
      }
    });
  }

  it('what a tree needs is not refused: 200 levels with kind first, and kind last a few levels deep', () => {
    const validator = compile(tree);
    for (const [name, judge] of modes) {
      assert.equal(judge(validator, kindFirst(200)).valid, true, name);
      assert.equal(judge(validator, kindLast(5)).valid, true, name);
    }
  });

  it('maxApplications is a limit like the others: Infinity lifts it, a string is a TypeError', () => {
    assert.equal(compile(tree, {limits: {maxApplications: Infinity}}).validateText(kindLast(8)).valid, true);
    assert.deepEqual(codes(compile(tree, {limits: {maxApplications: 1}}).validateText(kindLast(8))), ['limit.applications']);
    assert.throws(() => compile(tree, {limits: {maxApplications: '32' as unknown as number}}), TypeError);
  });
});

// Each run keeps its keyword location, and each open container the pointer of its current member,
// once made: an `anyOf` failing at each of 999 levels made 3,000 errors each with strings as long
// as the document is deep (1.9 s, mostly collecting garbage; now 0.1 s: benchmarks/linear-time.ts).
// What is kept must be what a walk would make, whatever member the container has moved on to.
describe('error locations made once per run and per member are those of a walk', () => {
  const recursive = {type: ['object', 'array', 'integer'], additionalProperties: {$ref: '#'}, items: {$ref: '#'}};
  const modes = Object.entries(judges);
  const locations = (result: Result) => result.errors.map((unit) => [unit.instanceLocation, unit.keywordLocation]);

  for (const [name, judge] of modes) {
    it(`${name}: every error names its own member, after siblings whose pointers were made`, () => {
      const validator = compile(recursive, {allErrors: true});
      const text = '{"a": {"b": "x1", "b2": 2}, "c": {"d": [1, "x2", {"e~/": "x3"}]}, "f": "x4"}';
      assert.deepEqual(locations(judge(validator, text)), [
        ['/a/b', '/additionalProperties/$ref/additionalProperties/$ref/type'],
        ['/c/d/1', '/additionalProperties/$ref/additionalProperties/$ref/items/$ref/type'],
        ['/c/d/2/e~0~1', '/additionalProperties/$ref/additionalProperties/$ref/items/$ref/additionalProperties/$ref/type'],
        ['/f', '/additionalProperties/$ref/type'],
      ]);
    });

    it(`${name}: the deepest error of an anyOf failing at every level has the whole path`, () => {
      const validator = compile({anyOf: [{type: 'array', items: {$ref: '#'}}, {type: 'number'}]});
      const depth = 300;
      const result = judge(validator, `${'['.repeat(depth)}"x"${']'.repeat(depth)}`);
      assert.equal(result.valid, false);
      const deepest = result.errors.find((unit) => unit.instanceLocation.length === 2 * depth)!;
      assert.equal(deepest.instanceLocation, '/0'.repeat(depth));
      assert.equal(deepest.keywordLocation, '/anyOf/0/items/$ref'.repeat(depth) + '/anyOf/0/type');
    });
  }
});
