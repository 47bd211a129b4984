// Attacks on the fast paths of docs/decisions.md's last records, kept as regression tests: the
// generated code judging a listed member without the subschemas whose flags no longer matter
// (Programs.live, deadFlags), one member for the items past those the keywords tell apart
// (Sources.alike), number text read digit by digit (numberEnd) and a short number tied with a
// bound taken as equal (HeldScalar.numberShort), a text program finding a key by its length
// (nameIndex), and the scanner's plain run of string characters (PLAIN_RUN). The verdict to meet
// is the evaluator's (eventsVerdictOf) and a session's fed a byte at a time, never validateText's
// or validate's, which run the code under attack.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import fc from 'fast-check';
import {compile} from '../src/index.js';
import type {CompileOptions, Validator} from '../src/types.js';
import {byteChunks, feed} from './support/chunks.js';
import {eventsVerdictOf} from './support/evaluatorVerdict.js';
import {property} from './support/property.js';
import {handedOnVerdict} from './support/handedOn.js';

const bytesOf = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A schema's validator, reused across documents as a caller reuses it, and the evaluator's verdict on values. */
class Judge {
  readonly validator: Validator;
  private readonly reference: (value: unknown) => boolean;

  constructor(schema: unknown, options: CompileOptions = {}) {
    this.validator = compile(schema as object, options);
    this.reference = eventsVerdictOf(schema, options);
  }

  /**
   * Every way in gives `expected` for `text`, as a session fed a byte at a time does; `validate` of
   * JSON.parse's value (which may differ from the text: a repeated key, a number out of range) gives
   * the evaluator's verdict on that value.
   */
  as(text: string, expected: boolean): void {
    assert.equal(feed(this.validator, byteChunks(bytesOf(text))).valid, expected, `a session, a byte at a time: ${text.slice(0, 200)}`);
    this.textWays(text, expected);
    const value = parsed(text);
    if (value !== undefined) assert.equal(this.validator.validate(value.parsed).valid, this.reference(value.parsed), `validate: ${text.slice(0, 200)}`);
  }

  /** validateText and a session given the text whole give `expected`, and parseText what a value handed on is judged to be. */
  textWays(text: string, expected: boolean): void {
    const {validator} = this;
    assert.equal(validator.validateText(text).valid, expected, `validateText: ${text.slice(0, 200)}`);
    assert.equal(validator.parseText(bytesOf(text)).valid, handedOnVerdict(validator, text, expected), `parseText: ${text.slice(0, 200)}`);
    assert.equal(feed(validator, [text]).valid, expected, `a session, whole: ${text.slice(0, 200)}`);
  }

  /** Each value judged by every way in as the evaluator judges it. */
  values(documents: readonly unknown[]): void {
    for (const document of documents) {
      const text = JSON.stringify(document);
      const expected = this.reference(document);
      this.textWays(text, expected);
      assert.equal(this.validator.validate(document).valid, expected, `validate: ${text.slice(0, 300)}`);
    }
  }
}

function parsed(text: string): {parsed: unknown} | undefined {
  try {
    return {parsed: JSON.parse(text)};
  } catch {
    return undefined;
  }
}

/** The evaluator's verdict on each of `documents`, given by every way in. */
const agreesWithEvaluator = (schema: unknown, documents: readonly unknown[]): void => new Judge(schema).values(documents);

/** `count` branches that each fail every object: their flags come first in the shape, so later ones pass bit 31. */
const padding = (count: number): object => ({anyOf: Array.from({length: count}, (_, index) => ({properties: {pad: {const: index}}, required: ['pad']}))});

describe('Programs.live: a member judged without the subschemas of flags that no longer matter', () => {
  // Each schema: a discriminator whose value fails all but some branches, then a value judged by
  // the branches left. The invalid documents are those a branch pruned too eagerly would pass.
  const geometry = {
    type: 'object',
    oneOf: [
      {properties: {type: {const: 'point'}, coordinates: {type: 'array', items: {type: 'number'}, maxItems: 2}}},
      {properties: {type: {const: 'line'}, coordinates: {type: 'array', items: {type: 'array'}}}},
    ],
  };

  test('oneOf: the value after its discriminator is judged against the branch left', () => {
    const judge = new Judge(geometry);
    judge.as('{"type":"point","coordinates":[1,2]}', true);
    judge.as('{"type":"point","coordinates":[[1],[2]]}', false);
    judge.as('{"type":"line","coordinates":[1,2]}', false);
    judge.as('{"type":"line","coordinates":[[1],[2]]}', true);
    // Both branches pass: oneOf fails.
    judge.as('{"type":"point","coordinates":[]}', true);
    judge.as('{"coordinates":[]}', false);
    judge.as('{"coordinates":[[1]],"type":"line"}', true);
    judge.as('{"coordinates":[1],"type":"line"}', false);
  });

  test('if without then, then with an if of its own, and else', () => {
    const schema = {
      type: 'object',
      properties: {kind: {enum: ['a', 'b', 'c']}},
      allOf: [
        {if: {properties: {kind: {const: 'a'}}}, else: {properties: {value: {type: 'string'}}}},
        {
          if: {properties: {kind: {enum: ['a', 'b']}}},
          then: {if: {properties: {kind: {const: 'a'}}}, then: {properties: {value: {type: 'integer'}}}, else: {properties: {value: {minLength: 2}}}},
          else: {properties: {value: {maxLength: 3}}},
        },
      ],
    };
    const judge = new Judge(schema);
    judge.as('{"kind":"a","value":1}', true);
    judge.as('{"kind":"a","value":"1"}', false);
    judge.as('{"kind":"b","value":"xy"}', true);
    judge.as('{"kind":"b","value":"x"}', false);
    judge.as('{"kind":"b","value":1}', false);
    judge.as('{"kind":"c","value":"xyz"}', true);
    judge.as('{"kind":"c","value":"wxyz"}', false);
    judge.as('{"kind":"c","value":1}', false);
  });

  test('a then-flag another decision reads is not pruned with its if', () => {
    // `not` around the whole if/then: where `kind` is not "a", the if/then passes and the `not` fails
    // it, so a later value matters only through the other branch.
    const schema = {
      type: 'object',
      anyOf: [
        {if: {properties: {kind: {const: 'a'}}}, then: {properties: {value: {type: 'integer'}}}},
        {properties: {value: {type: 'string'}}},
      ],
      not: {if: {properties: {kind: {const: 'b'}}}, then: {properties: {value: {type: 'string'}}}},
    };
    agreesWithEvaluator(schema, [
      {kind: 'a', value: 1},
      {kind: 'a', value: 'x'},
      {kind: 'a', value: true},
      {kind: 'b', value: 'x'},
      {kind: 'b', value: 1},
      {kind: 'c', value: true},
      {kind: 'c', value: 'x'},
      {value: 1, kind: 'b'},
    ]);
  });

  test('one subschema reached directly and through a branch, and in several branches', () => {
    const schema = {
      $defs: {positive: {type: 'number', minimum: 0}},
      type: 'object',
      properties: {n: {$ref: '#/$defs/positive'}},
      oneOf: [
        {properties: {kind: {const: 'a'}, n: {$ref: '#/$defs/positive'}}},
        {properties: {kind: {const: 'b'}, n: {$ref: '#/$defs/positive', maximum: 10}}},
      ],
      dependentSchemas: {kind: {properties: {n: {$ref: '#/$defs/positive'}}}},
    };
    const judge = new Judge(schema);
    judge.as('{"kind":"a","n":50}', true);
    judge.as('{"kind":"a","n":-1}', false);
    judge.as('{"kind":"b","n":-1}', false);
    judge.as('{"kind":"b","n":11}', false);
    judge.as('{"kind":"b","n":5}', true);
    judge.as('{"kind":"c","n":5}', false);
  });

  test('flags past bit 31: branches that fail to a later word are judged in full', () => {
    const schema = {
      type: 'object',
      allOf: [
        padding(40),
        {
          oneOf: [
            {properties: {kind: {const: 'a'}, value: {type: 'integer'}}},
            {properties: {kind: {const: 'b'}, value: {type: 'string'}}},
          ],
        },
        {if: {properties: {kind: {const: 'a'}}}, then: {properties: {value: {minimum: 5}}}},
      ],
    };
    const judge = new Judge(schema);
    judge.as('{"pad":3,"kind":"a","value":7}', true);
    judge.as('{"pad":3,"kind":"a","value":4}', false);
    judge.as('{"pad":3,"kind":"a","value":"x"}', false);
    judge.as('{"pad":3,"kind":"b","value":"x"}', true);
    judge.as('{"pad":3,"kind":"b","value":7}', false);
    judge.as('{"pad":99,"kind":"b","value":"x"}', false);
  });

  test('a flag at bit 31 of word 0', () => {
    // 31 padding branches take flags 0–30 (and the anyOf's own), so the oneOf's branches sit at the
    // word's top bit and past it.
    for (const count of [29, 30, 31, 32]) {
      const schema = {
        type: 'object',
        allOf: [padding(count), {oneOf: [{properties: {kind: {const: 'a'}, value: {type: 'integer'}}}, {properties: {kind: {const: 'b'}, value: {type: 'string'}}}]}],
      };
      const judge = new Judge(schema);
      judge.as('{"pad":0,"kind":"a","value":1}', true);
      judge.as('{"pad":0,"kind":"a","value":"x"}', false);
      judge.as('{"pad":0,"kind":"b","value":1}', false);
      judge.as('{"pad":0,"kind":"b","value":"x"}', true);
    }
  });

  test('more distinct dead flags for one name than programs kept for it', () => {
    // Six yes/no discriminators, each an if whose then constrains `value`: 64 combinations of dead
    // then-flags, past the 16 programs kept per name.
    const ifs = Array.from({length: 6}, (_, index) => ({
      if: {properties: {[`d${index}`]: {const: true}}},
      then: {properties: {value: {not: {const: index}}}},
    }));
    const judge = new Judge({type: 'object', allOf: ifs});
    for (let combination = 0; combination < 64; combination++) {
      const flags = Array.from({length: 6}, (_, index) => `"d${index}":${(combination & (1 << index)) !== 0}`).join(',');
      for (let value = 0; value < 6; value++) {
        judge.as(`{${flags},"value":${value}}`, (combination & (1 << value)) === 0);
      }
    }
  });

  test('members whose values hold branches of their own, and names beside patternProperties and additionalProperties', () => {
    const schema = {
      type: 'object',
      oneOf: [
        {properties: {kind: {const: 'a'}, body: {oneOf: [{properties: {x: {type: 'integer'}}, required: ['x']}, {properties: {y: {type: 'integer'}}, required: ['y']}]}}},
        {properties: {kind: {const: 'b'}, body: {type: 'array', items: {anyOf: [{type: 'string'}, {type: 'object', properties: {kind: {const: 'b'}}}]}}}, additionalProperties: {type: 'integer'}},
      ],
      patternProperties: {'^b': {type: ['object', 'array']}},
    };
    agreesWithEvaluator(schema, [
      {kind: 'a', body: {x: 1}},
      {kind: 'a', body: {x: 1, y: 2}},
      {kind: 'a', body: {x: 'x'}},
      {kind: 'a', body: ['s']},
      {kind: 'b', body: ['s', {kind: 'b'}]},
      {kind: 'b', body: ['s', {kind: 'a'}]},
      {kind: 'b', body: {x: 1}},
      {kind: 'b', body: [], other: 1},
      {kind: 'b', body: [], other: 'x'},
      {kind: 'a', body: {y: 1}, other: 'x'},
      {body: {x: 1}, kind: 'a'},
    ]);
  });

  test('a flag of the object two levels up is not a flag of the object in between', () => {
    // `inner` fails to the root's first oneOf branch; `outer`'s own oneOf sets its flag of the same
    // number when `t` is 2. Only the root's flags decide which of inner's subschemas still matter.
    const schema = {
      type: 'object',
      properties: {outer: {oneOf: [{properties: {t: {const: 1}}}, {properties: {t: {const: 2}}}]}},
      oneOf: [{properties: {kind: {const: 'a'}, outer: {properties: {inner: {type: 'integer'}}}}}, {properties: {kind: {const: 'b'}}, required: ['none']}],
    };
    const judge = new Judge(schema);
    judge.as('{"kind":"a","outer":{"t":2,"inner":1}}', true);
    judge.as('{"kind":"a","outer":{"t":2,"inner":"x"}}', false);
    judge.as('{"kind":"a","outer":{"t":1,"inner":"x"}}', false);
  });

  test('a repeated key after its discriminator is refused', () => {
    const judge = new Judge(geometry);
    judge.as('{"type":"point","coordinates":[1],"coordinates":[[1]]}', false);
    judge.as('{"type":"point","type":"line","coordinates":[[1]]}', false);
  });

  test('value mode: an object with getters is judged on the values the getters give', () => {
    const judge = new Judge(geometry);
    const reads: string[] = [];
    const object = {};
    Object.defineProperty(object, 'type', {enumerable: true, get: () => (reads.push('type'), 'point')});
    Object.defineProperty(object, 'coordinates', {enumerable: true, get: () => (reads.push('coordinates'), [[1], [2]])});
    assert.equal(judge.validator.validate(object).valid, false);
    assert.equal(eventsVerdictOf(geometry)(object), false);
  });

  test('random branching schemas against the evaluator (property)', () => {
    fc.assert(
      fc.property(branchingSchema(2), fc.array(branchingDocument, {minLength: 1, maxLength: 12}), fc.constantFrom(0, 0, 0, 33), (schema, documents, pad) => {
        agreesWithEvaluator(pad === 0 ? schema : {allOf: [padding(pad), schema]}, documents);
      }),
      property(150),
    );
  });
});

describe('Sources.alike: one member for the items past those the keywords tell apart', () => {
  const list = (length: number, at: (index: number) => unknown): unknown[] => Array.from({length}, (_, index) => at(index));

  // Items alternate between two subschemas. A document that gives every item from `k` on what item
  // `k` wants is invalid, and passes where the items from `k` are taken as alike. Each keyword
  // alone too: one that selects alike from later hides the others.
  const alternating = (length: number): unknown[] => list(length, (index) => (index % 2 === 0 ? {type: 'integer'} : {type: 'string'}));
  const alternatingItems = (length: number, from: number, rest: unknown): unknown[] => list(length, (index) => (index >= from ? rest : index % 2 === 0 ? index : 's'));
  /** Every item from `at` on as item `at`. */
  const alikeFrom = (items: readonly unknown[], at: number): unknown[] => items.map((item, index) => (index < at ? item : items[at]));
  /** The item at `at` as its neighbour wants it (a mistake a member of the wrong index lets pass). */
  const misplaced = (items: readonly unknown[], at: number, refused: unknown): unknown[] => items.map((item, index) => (index !== at ? item : refused === undefined ? items[at - 1] : refused));

  test('prefixItems longer than the items kept per shape, alone and with items after them', () => {
    for (const [schema, rest, refused] of [
      [{prefixItems: alternating(300)}, null, undefined],
      [{prefixItems: alternating(300), items: {type: 'boolean'}}, true, 1],
    ] as const) {
      const judge = new Judge(schema);
      for (const length of [255, 256, 257, 299, 300, 301, 600]) judge.as(JSON.stringify(alternatingItems(length, 300, rest)), true);
      const items = alternatingItems(600, 300, rest);
      for (const at of [0, 1, 255, 256, 257, 258, 298]) judge.as(JSON.stringify(alikeFrom(items, at)), false);
      for (const at of [256, 257, 258, 298, 299]) judge.as(JSON.stringify(misplaced(items, at, undefined)), false);
      if (refused !== undefined) for (const at of [300, 301, 599]) judge.as(JSON.stringify(misplaced(items, at, refused)), false);
    }
  });

  test('draft 2019-09 and draft 4 items arrays, alone and with additionalItems', () => {
    for (const $schema of ['https://json-schema.org/draft/2019-09/schema', 'http://json-schema.org/draft-04/schema#']) {
      for (const [more, rest, refused] of [
        [{}, null, undefined],
        [{additionalItems: {type: 'boolean'}}, true, 1],
      ] as const) {
        const judge = new Judge({$schema, items: alternating(280), ...more});
        const items = alternatingItems(500, 280, rest);
        judge.as(JSON.stringify(items), true);
        for (const at of [0, 255, 256, 257, 278]) judge.as(JSON.stringify(alikeFrom(items, at)), false);
        for (const at of [257, 270, 279]) judge.as(JSON.stringify(misplaced(items, at, undefined)), false);
        if (refused !== undefined) for (const at of [280, 281, 499]) judge.as(JSON.stringify(misplaced(items, at, refused)), false);
      }
    }
  });

  test('const and enum arrays longer than the items kept', () => {
    const literal = list(300, (index) => index % 7);
    const judge = new Judge({const: literal});
    judge.as(JSON.stringify(literal), true);
    judge.as(JSON.stringify([...literal, 0]), false);
    judge.as(JSON.stringify(literal.slice(0, 299)), false);
    for (const at of [0, 255, 256, 257, 298]) judge.as(JSON.stringify(alikeFrom(literal, at)), false);
    for (const at of [256, 257, 258, 299]) judge.as(JSON.stringify(misplaced(literal, at, undefined)), false);
    const other = list(290, () => 1);
    const either = new Judge({enum: [literal, other]});
    either.as(JSON.stringify(other), true);
    either.as(JSON.stringify([...other, 1]), false);
    either.as(JSON.stringify(literal.slice(0, 290)), false);
    for (const at of [256, 257]) either.as(JSON.stringify(alikeFrom(literal, at)), false);
  });

  test('contains beside prefixItems, and long arrays in branches and under unevaluatedItems', () => {
    const prefix = list(260, () => ({type: 'integer'}));
    agreesWithEvaluator({prefixItems: prefix, contains: {type: 'string'}, minContains: 2, maxContains: 3}, [
      list(300, (index) => (index === 280 || index === 299 ? 's' : index)),
      list(300, (index) => (index === 280 ? 's' : index)),
      list(300, (index) => (index === 10 || index === 299 ? 's' : index)),
      list(300, (index) => (index >= 296 ? 's' : index)),
    ]);
    agreesWithEvaluator({anyOf: [{prefixItems: prefix}, {items: {type: 'string'}}], unevaluatedItems: {type: 'boolean'}}, [
      list(300, (index) => (index < 260 ? index : true)),
      list(300, (index) => (index < 260 ? index : 1)),
      list(300, () => 's'),
      list(300, (index) => (index === 299 ? 1 : 's')),
    ]);
    agreesWithEvaluator({oneOf: [{prefixItems: prefix, items: false}, {items: {type: 'integer'}, maxItems: 270}]}, [
      list(260, (index) => index),
      list(265, (index) => index),
      list(300, (index) => index),
    ]);
  });

  test('nested long arrays and items reached by $ref', () => {
    const schema = {$defs: {row: {prefixItems: list(258, () => ({type: 'integer'})), items: {$ref: '#/$defs/row'}}}, type: 'array', items: {$ref: '#/$defs/row'}};
    const row = list(258, (index) => index);
    agreesWithEvaluator(schema, [[row, [...row, row]], [row, [...row, [...row, 's']]], [row, [...row.slice(0, 257), 's']], list(300, () => row), [...list(299, () => row), [1.5]]]);
  });

  test('random long-array schemas against the evaluator (property)', () => {
    fc.assert(
      fc.property(fc.oneof(arraySchema(2), legacyArraySchema), fc.array(longArray, {minLength: 1, maxLength: 4}), (schema, documents) => agreesWithEvaluator(schema, documents)),
      property(40),
    );
  });
});

describe('numberEnd: malformed and edge number text', () => {
  const schemas: Record<string, object> = {
    'any value': {},
    number: {type: 'number'},
    'a listed member': {properties: {a: {minimum: 0}, b: {}}},
    items: {items: {maximum: 10}},
  };
  const malformed = ['-', '--1', '+1', '01', '-01', '00', '1.', '-1.', '.5', '-.5', '1e', '1E', '1e+', '1e-', '1.e5', '1.5e', '1.5e+', '0x1', '1_0', 'Infinity', '-Infinity', 'NaN', '1e5.5', '1.5.5', '- 1', '1 2', '１'];
  const contexts = [(number: string) => number, (number: string) => `[${number}]`, (number: string) => `{"a":${number}}`, (number: string) => `{"a":${number},"b":1}`, (number: string) => `[1,${number}]`, (number: string) => `[${number}`];

  test('refused by every way in, in every place a value goes', () => {
    for (const [name, schema] of Object.entries(schemas)) {
      const judge = new Judge(schema);
      for (const number of malformed) for (const context of contexts) judge.as(context(number), false);
      for (const number of ['0', '-0', '1', '12', '-0.0', '0.5', '1e5', '1E+5', '1e-5', '1.5e05', '9']) {
        for (const context of contexts.slice(0, 5)) {
          const text = context(number);
          judge.as(text, feed(judge.validator, byteChunks(bytesOf(text))).valid);
        }
      }
    }
  });

  test('a number at the end of the text and before each character', () => {
    const judge = new Judge({type: ['number', 'array', 'object']});
    for (const number of ['0', '-0', '7', '1.5', '1e5', '1E-5']) {
      judge.as(number, true);
      judge.as(` ${number}\n`, true);
      for (let code = 0; code < 128; code++) {
        const next = String.fromCharCode(code);
        const text = `[${number}${next}]`;
        judge.as(text, feed(judge.validator, byteChunks(bytesOf(text))).valid);
      }
    }
  });

  test('maxNumberLength and inexactNumbers', () => {
    const short = new Judge({items: {type: 'number'}}, {limits: {maxNumberLength: 4}});
    short.as('[1234]', true);
    short.as('[12345]', false);
    short.as('[1.234]', false);
    short.as('[1e10]', true);
    short.as('[1e100]', false);
    const exact = new Judge({properties: {a: {type: 'number'}}}, {limits: {inexactNumbers: 'reject'}});
    for (const number of ['1e400', '-1e400', '1e-400', '-1E-400', '0.1e-330']) exact.as(`{"a":${number}}`, false);
    for (const number of ['0e-400', '0.0e400', '1e308', '5e-324']) exact.as(`{"a":${number}}`, true);
  });
});

describe('HeldScalar.numberShort: a short number tied with a bound', () => {
  test('texts of at most 15 characters equal to a bound, or one double away from it', () => {
    const cases: [object, string, boolean][] = [
      [{maximum: 0.1}, '0.1', true],
      [{maximum: 0.1}, '0.10', true],
      [{exclusiveMaximum: 0.1}, '0.1', false],
      [{exclusiveMinimum: 0.1}, '0.100000000000000', false],
      [{minimum: 1.5}, '1.50', true],
      [{const: 0}, '-0', true],
      [{enum: [0]}, '-0.0', true],
      [{exclusiveMinimum: 0}, '-0', false],
      [{maximum: 100000000000000}, '100000000000000', true],
      [{exclusiveMaximum: 100000000000000}, '100000000000000', false],
      // 17 digits: the exact decimals decide.
      [{const: 0.30000000000000004}, '0.30000000000000004', true],
      [{const: 0.30000000000000004}, '0.30000000000000005', false],
      [{maximum: 0.30000000000000004}, '0.30000000000000005', false],
      [{const: 0.1}, '0.1000000000000000055511151231257827', false],
      [{maximum: 0.1}, '0.1000000000000000055511151231257828', false],
      [{minimum: 0.1}, '0.1000000000000000055511151231257826', true],
      // Bounds written with more digits than their double keeps: the double's shortest decimal is the bound.
      [{maximum: 0.1000000000000000000001}, '0.1', true],
      [{exclusiveMaximum: 0.0999999999999999999999}, '0.1', false],
      [{const: 123456789012.345}, '123456789012.345', true],
      [{const: 123456789012.345}, '123456789012.3450', true],
      [{maximum: 1e15}, '999999999999999', true],
      // 16 digits: past the 15-digit round trip, two texts share a double.
      [{maximum: 9007199254740992}, '9007199254740993', false],
      [{const: 9007199254740992}, '9007199254740993', false],
      [{exclusiveMinimum: 9007199254740992}, '9007199254740993', true],
      [{enum: [1e16]}, '10000000000000001', false],
      [{exclusiveMaximum: 999999999999999}, '999999999999999', false],
    ];
    for (const [inner, number, expected] of cases) {
      for (const [schema, text] of [
        [inner, number],
        [{items: inner}, `[${number}]`],
        [{properties: {a: inner}}, `{"a":${number}}`],
      ] as const) {
        new Judge(schema).as(text, expected);
      }
    }
  });

  test('short texts against bounds at their double and its neighbours (property)', () => {
    const digits = fc.array(fc.constantFrom('0', '1', '2', '3', '5', '9'), {minLength: 1, maxLength: 16}).map((list) => list.join(''));
    const text = fc.tuple(fc.boolean(), digits, fc.option(digits, {nil: undefined})).map(([negative, whole, fraction]) => `${negative ? '-' : ''}${whole.replace(/^0+(?=.)/, '')}${fraction === undefined ? '' : `.${fraction}`}`);
    const keyword = fc.constantFrom('minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'const', 'enum', 'multipleOf');
    fc.assert(
      fc.property(text, keyword, fc.integer({min: -2, max: 2}), (number, name, steps) => {
        const bound = stepped(Number(number), steps);
        if (!Number.isFinite(bound) || (name === 'multipleOf' && bound <= 0)) return;
        const inner = name === 'enum' ? {enum: [bound, 'x']} : {[name]: bound};
        const judge = new Judge({properties: {a: inner}, items: inner, ...inner});
        for (const document of [number, `[${number}]`, `{"a":${number}}`]) {
          judge.textWays(document, feed(judge.validator, byteChunks(bytesOf(document))).valid);
        }
      }),
      property(300),
    );
  });
});

describe('nameIndex: a listed key found by its length', () => {
  test('names of one length, escaped keys, and names beyond ASCII', () => {
    const names = ['', 'a', 'b', 'ab', 'ba', 'aa', 'abc', 'abd', 'bbc', 'acb', 'abcdefg', '\u2028', '\ud800', '\udc00', '😀', '😁', 'é', 'e\u0301', '"', '\\', '\n', '\u0000'];
    const properties = Object.fromEntries(names.map((name, index) => [name, {const: index}]));
    const judge = new Judge({type: 'object', properties, additionalProperties: false});
    const escaped = (name: string): string => `"${Array.from({length: name.length}, (_, at) => `\\u${name.charCodeAt(at).toString(16).padStart(4, '0')}`).join('')}"`;
    names.forEach((name, index) => {
      for (const key of [JSON.stringify(name), escaped(name)]) {
        for (const value of [index, index + 1]) {
          const text = `{${key}:${value}}`;
          assert.equal(feed(judge.validator, text.split('')).valid, value === index, `a session, a character at a time: ${text}`);
          judge.textWays(text, value === index);
        }
      }
    });
    // A key no name has, of a length some name has: refused whatever value it has.
    for (const key of ['"ac"', '"abe"', '"ca"', '"abcdefh"', '"\\u00e8"', '"x"', '"\\ud801"', '"\\ud83d\\ude02"', '"\\u0000\\u0000"']) {
      names.forEach((_, value) => judge.as(`{${key}:${value}}`, false));
    }
  });
});

describe('PLAIN_RUN: where plain string characters end', () => {
  test('control characters, backslashes, lone surrogates and a BOM in keys and values (property)', () => {
    const piece = fc.constantFrom('a', 'ab', '"', '\\', '\\"', '\\\\', '\\u0041', '\\ud800', '\\udc00', '\ud800', '\udc00', '\ufeff', '\u0001', '\n', '\t', '\u001f', '\u007f', 'é', '😀', '\\n', '\\x', '\\u00', ' ', ':', ',', '{', '}', '[', ']');
    const string = fc.array(piece, {maxLength: 10}).map((pieces) => pieces.join(''));
    const document = fc.tuple(string, string, string, fc.boolean()).map(([key, value, item, bom]) => `${bom ? '\ufeff' : ''}{"${key}":"${value}","k":["${item}","${key}"]}`);
    const judges = [{}, {additionalProperties: {type: ['string', 'array'], items: {type: 'string', maxLength: 3}}}, {properties: {k: {items: {pattern: '^a'}}, a: {const: 'x'}, ab: {type: 'string'}}}].map((schema) => new Judge(schema));
    fc.assert(
      fc.property(document, (text) => {
        // String chunks a character at a time: bytes would turn a lone surrogate into U+FFFD.
        for (const judge of judges) judge.textWays(text, feed(judge.validator, text.split('')).valid);
      }),
      property(300),
    );
  });
});

/** `number` moved `steps` doubles away (toward +Infinity for positive steps). */
function stepped(number: number, steps: number): number {
  const view = new DataView(new ArrayBuffer(8));
  let result = number;
  for (let step = 0; step < Math.abs(steps); step++) {
    if (result === 0) {
      result = steps > 0 ? Number.MIN_VALUE : -Number.MIN_VALUE;
      continue;
    }
    view.setFloat64(0, result);
    const away = (steps > 0) === (result > 0);
    view.setBigInt64(0, view.getBigInt64(0) + (away ? 1n : -1n));
    result = view.getFloat64(0);
  }
  return result;
}

const NAMES = ['a', 'b', 'k', 'kind', 'x', 'b1'];
const scalarValue = fc.constantFrom<unknown>(0, 1, 2, 'a', 'b', true, null);
const leafSchema: fc.Arbitrary<unknown> = fc.oneof(
  scalarValue.map((value) => ({const: value})),
  scalarValue.map((value) => ({const: value})),
  fc.constantFrom('string', 'number', 'integer', 'object', 'null').map((type) => ({type})),
  fc.constantFrom(0, 1).map((minimum) => ({minimum})),
  fc.constant(false),
);

/** Objects with listed names and in-place branches over them, nested `depth` levels. */
function branchingSchema(depth: number): fc.Arbitrary<object> {
  const branch: fc.Arbitrary<unknown> = depth <= 0 ? fc.oneof(fc.constant({}), leafSchema) : branchingSchema(depth - 1);
  const value: fc.Arbitrary<unknown> = depth <= 0 ? leafSchema : fc.oneof(leafSchema, leafSchema, branchingSchema(depth - 1), fc.array(branch, {minLength: 1, maxLength: 3}).map((oneOf) => ({oneOf})));
  const applicator = fc.oneof(
    fc.array(branch, {minLength: 1, maxLength: 4}).map((oneOf) => ({oneOf})),
    fc.array(branch, {minLength: 1, maxLength: 4}).map((anyOf) => ({anyOf})),
    fc.array(branch, {minLength: 1, maxLength: 2}).map((allOf) => ({allOf})),
    branch.map((not) => ({not})),
    fc.record({if: branch, then: branch, else: branch}, {requiredKeys: ['if']}),
    fc.record({if: branch, then: fc.record({if: branch, then: branch, else: branch}, {requiredKeys: ['if']})}),
    fc.record({name: fc.constantFrom(...NAMES), schema: branch}).map(({name, schema}) => ({dependentSchemas: {[name]: schema}})),
    fc.record({name: fc.constantFrom(...NAMES), required: fc.constantFrom(...NAMES)}).map(({name, required}) => ({dependentRequired: {[name]: [required]}})),
    value.map((schema) => ({patternProperties: {'^b': schema}})),
    value.map((additionalProperties) => ({additionalProperties})),
    fc.constantFrom(...NAMES).map((name) => ({required: [name]})),
  );
  return fc.record({properties: fc.dictionary(fc.constantFrom(...NAMES), value, {maxKeys: 3}), applicators: fc.array(applicator, {maxLength: depth <= 0 ? 1 : 3})}).map(({properties, applicators}) => {
    const schema: Record<string, unknown> = {properties};
    // A keyword met twice goes into allOf, so each applicator stays.
    for (const each of applicators) for (const [name, keyword] of Object.entries(each)) (name in schema ? ((schema.allOf ??= []) as unknown[]).push({[name]: keyword}) : (schema[name] = keyword));
    return JSON.parse(JSON.stringify(schema)) as object;
  });
}

const {branchingDocument} = fc.letrec<{branchingDocument: unknown}>((tie) => ({
  branchingDocument: fc.oneof({depthSize: 'small'}, scalarValue, scalarValue, fc.dictionary(fc.constantFrom(...NAMES), tie('branchingDocument'), {maxKeys: 6})),
}));

const itemSchema = fc.constantFrom<unknown>({type: 'number'}, {type: 'string'}, {minimum: 1}, {const: 1}, {}, false, {type: 'array', items: {type: 'number'}}, {enum: [1, 'x']});
const itemList = fc.oneof(
  fc.array(itemSchema, {maxLength: 3}),
  fc.tuple(fc.integer({min: 250, max: 300}), itemSchema).map(([length, item]) => Array.from({length}, (_, index) => (index === length - 1 ? {type: 'string'} : item))),
);

/** Array keywords in branches, with item lists past the items a shape keeps. */
function arraySchema(depth: number): fc.Arbitrary<unknown> {
  const inner = depth <= 0 ? itemSchema : arraySchema(depth - 1);
  return fc.oneof(
    fc.record({prefixItems: itemList, items: fc.option(inner, {nil: undefined})}, {requiredKeys: ['prefixItems']}).map((schema) => JSON.parse(JSON.stringify(schema))),
    inner.map((items) => ({items})),
    fc.record({contains: inner, minContains: fc.integer({min: 0, max: 3}), maxContains: fc.integer({min: 0, max: 400})}, {requiredKeys: ['contains']}).map((schema) => JSON.parse(JSON.stringify(schema))),
    fc.array(inner, {minLength: 1, maxLength: 3}).map((oneOf) => ({oneOf})),
    fc.array(inner, {minLength: 1, maxLength: 3}).map((anyOf) => ({anyOf})),
    inner.map((not) => ({not})),
    fc.record({applied: inner, unevaluatedItems: inner}).map(({applied, unevaluatedItems}) => ({allOf: [applied], unevaluatedItems})),
    fc.integer({min: 255, max: 260}).map((length) => ({const: Array.from({length}, (_, index) => index % 3)})),
  );
}

/** Draft 2019-09 `items`, a list or one schema, and `additionalItems`. */
const legacyArraySchema = fc.record({items: fc.oneof(itemSchema, itemList), additionalItems: itemSchema}).map((schema) => ({$schema: 'https://json-schema.org/draft/2019-09/schema', ...schema}));

const longArray = fc
  .tuple(fc.integer({min: 0, max: 600}), fc.constantFrom<unknown>(1, 2, 0, 'x', [1], []), fc.constantFrom<unknown>(1, 0, 'x', [1], ['x']), fc.integer({min: 0, max: 700}))
  .map(([length, fill, odd, at]) => Array.from({length}, (_, index) => (index === at ? odd : typeof fill === 'number' ? index % 3 : fill)));
