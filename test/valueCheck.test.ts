// Value mode's fast verdict (src/valueCheck.ts) against the whole official suite: it may only say
// "valid" of valid documents, and it must say so of every valid document whose schema it can ask
// (else it would be a fast path that never runs). Plus the values it must leave to the events.

import assert from 'node:assert/strict';
import {describe, it, test} from 'node:test';
import {compileSchema} from '../src/compile.js';
import {Evaluator} from '../src/evaluator.js';
import {compile} from '../src/index.js';
import {defaultLimits} from '../src/tokenizer.js';
import {ValueChecker} from '../src/valueCheck.js';
import {walkValue} from '../src/walker.js';
import type {Limits} from '../src/types.js';
import {drafts, remotes, suiteFiles, suiteSkips} from './support/suite.js';

const schemas = remotes();

function checkerFor(schema: unknown, options: Parameters<typeof compileSchema>[1] = {}) {
  const {root} = compileSchema(schema, options);
  const checker = new ValueChecker(new Evaluator(root, false), {...defaultLimits, ...options.limits});
  return {passes: (value: unknown) => checker.passes(root, value), checker};
}

test('the fast verdict agrees with the suite on every test it can decide, and decides most', () => {
  let valid = 0;
  let decided = 0;
  let schemaNotAskable = 0;
  const problems: string[] = [];
  for (const draft of drafts) {
    for (const optional of [false, true]) {
      for (const file of suiteFiles(draft, optional)) {
        for (const suiteCase of file.cases) {
          const {passes, checker} = checkerFor(suiteCase.schema, {draft, schemas, formats: optional ? 'assert' : 'annotate'});
          for (const suiteTest of suiteCase.tests) {
            const id = `${draft}/${file.name}/${suiteCase.description}/${suiteTest.description}`;
            if (suiteSkips.has(id) || suiteSkips.has(`${draft}/${file.name}`)) continue;
            const passed = passes(suiteTest.data);
            if (passed && !suiteTest.valid) problems.push(`said valid: ${id}`);
            if (!suiteTest.valid) continue;
            valid++;
            if (passed) decided++;
            else if (!checker.usable) schemaNotAskable++;
            else problems.push(`left a valid document to the events: ${id}`);
          }
        }
      }
    }
  }
  console.log(`fast verdict: ${decided} of ${valid} valid suite documents decided; ${schemaNotAskable} left to the events (schema not askable)`);
  assert.deepEqual(problems, []);
  // unevaluated* are the only keywords it cannot ask.
  assert.ok(decided / valid > 0.8, `decided only ${decided} of ${valid}`);
});

describe('values the fast verdict leaves to the events', () => {
  it('non-JSON values still get their error', () => {
    const validator = compile({type: 'object'});
    assert.equal(validator.validate({a: NaN}).errors[0].params?.code, 'value.notJson');
    assert.equal(validator.validate({a: () => 1}).errors[0].params?.code, 'value.notJson');
    assert.equal(validator.validate([undefined]).valid, false);
    // A property whose value is undefined is absent, as in JSON.stringify.
    assert.equal(compile({required: ['a']}).validate({a: undefined}).valid, false);
    assert.equal(compile({required: ['b']}).validate({a: undefined, b: 1}).valid, true);
  });

  it('limits still apply', () => {
    const validator = compile({}, {limits: {maxStringLength: 3, maxDepth: 2, maxProperties: 1, maxKeyLength: 2}});
    assert.equal(validator.validate('abcd').errors[0].params?.code, 'limit.string');
    assert.equal(validator.validate([[[]]]).errors[0].params?.code, 'limit.depth');
    assert.equal(validator.validate({a: 1, b: 2}).errors[0].params?.code, 'limit.properties');
    assert.equal(validator.validate({abc: 1}).errors[0].params?.code, 'limit.key');
    assert.equal(validator.validate({ab: ['abc']}).valid, true);
  });

  it('inherited properties are not present; an own __proto__ is', () => {
    assert.equal(checkerFor({required: ['toString']}).passes({}), false);
    assert.equal(compile({required: ['toString']}).validate({}).valid, false);
    const parsed = JSON.parse('{"__proto__": 1}');
    assert.equal(checkerFor(JSON.parse('{"required": ["__proto__"], "properties": {"__proto__": {"type": "integer"}}}')).passes(parsed), true);
    assert.equal(checkerFor(JSON.parse('{"properties": {"__proto__": {"type": "string"}}}')).passes(parsed), false);
  });

  it('a value deeper than the checker recurses is decided by the events', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 600; i++) deep = [deep];
    const schema = {$defs: {nested: {anyOf: [{type: 'integer'}, {type: 'array', items: {$ref: '#/$defs/nested'}}]}}, $ref: '#/$defs/nested'};
    assert.equal(checkerFor(schema).passes(deep), false);
    assert.equal(compile(schema).validate(deep).valid, true);
    assert.equal(compile(schema).validate([[[['x']]]]).valid, false);
  });

  it('a stack nearly used up, or a throwing getter, leaves the verdict to the walk', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 300; i++) deep = {a: deep};
    const schema = {$defs: {node: {anyOf: [{type: 'string'}, {properties: {a: {$ref: '#/$defs/node'}}, required: ['a']}]}}, $ref: '#/$defs/node'};
    const validator = compile(schema);
    // How deep this stack goes, then validate with ~1,000 of those frames left: room for the walk,
    // not for the checker's recursion over 300 levels. One function for both, so frames match.
    let room = 0;
    const descend = (depth: number, target: number): boolean => {
      room = depth;
      return depth < target ? descend(depth + 1, target) : validator.validate(deep).valid;
    };
    try {
      descend(0, Infinity);
    } catch {
      // The stack is full at `room` frames.
    }
    assert.equal(descend(0, room - 1000), true);
    const throwing = {
      get a(): never {
        throw new Error('getter');
      },
    };
    assert.throws(() => compile({type: 'object'}).validate(throwing), /getter/);
  });

  it('a schema node it cannot ask, even under `not`, hands the verdict to the events', () => {
    const schema = {not: {unevaluatedProperties: false}};
    const {passes, checker} = checkerFor(schema);
    assert.equal(passes({a: 1}), false);
    assert.equal(checker.usable, false);
    assert.equal(compile(schema).validate({a: 1}).valid, true);
    assert.equal(compile(schema).validate({}).valid, false);
  });

  it('uniqueItems is decided pairwise on short arrays, by the events on long ones', () => {
    const schema = {uniqueItems: true};
    const short = [1, '1', [1], {a: [1, {b: 2}]}, {a: [1, {b: 3}]}, null, true];
    assert.equal(checkerFor(schema).passes(short), true);
    assert.equal(checkerFor(schema).passes([...short, {a: [1, {b: 2}]}]), false);
    assert.equal(checkerFor(schema).passes([{x: 1, y: 2}, {y: 2, x: 1}]), false);
    const long = Array.from({length: 100}, (_, i) => ({id: i}));
    const {passes, checker} = checkerFor(schema);
    assert.equal(passes(long), false);
    assert.equal(checker.usable, true, 'a long array is left to the events, the checker stays in use');
    assert.equal(compile(schema).validate(long).valid, true);
    assert.equal(compile(schema).validate([...long, {id: 7}]).valid, false);
  });

  it('numbers compare by value and integers by their double', () => {
    assert.equal(checkerFor({const: 1}).passes(1.0), true);
    assert.equal(checkerFor({enum: [[1, 2], {a: 1}]}).passes({a: 1}), true);
    assert.equal(checkerFor({enum: [[1, 2], {a: 1}]}).passes({a: 1, b: 2}), false);
    assert.equal(checkerFor({type: 'integer', multipleOf: 0.1}).passes(3), true);
    assert.equal(checkerFor({multipleOf: 0.1}).passes(0.3), true);
  });
});

/** Only arrays and objects made by literals or JSON.parse inside. */
function isPlain(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (!Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every(isPlain);
}

/** The events' verdict alone: what value mode answered before the fast verdict. */
function eventsVerdict(schema: unknown, value: unknown, limits: Limits): boolean {
  const {root} = compileSchema(schema, {});
  const evaluator = new Evaluator(root, false);
  evaluator.reset(null);
  try {
    walkValue(value, evaluator, {...defaultLimits, ...limits});
  } catch {
    return false;
  }
  return !evaluator.failed;
}

describe('limits are checked wherever the fast verdict looks, or does not', () => {
  const limits: Limits = {maxStringLength: 8, maxKeyLength: 4, maxProperties: 3, maxDepth: 4};
  const schemas: unknown[] = [
    true,
    {},
    {type: 'object'},
    {properties: {a: {type: 'string'}}},
    {properties: {a: true}, additionalProperties: {type: 'array'}},
    {patternProperties: {'^a': {}}, additionalProperties: false},
    {allOf: [{properties: {a: {}}}, {required: ['a']}]},
    {not: {properties: {a: {type: 'number'}}}},
    {if: {properties: {a: {const: 'x'}}}, then: {required: ['b']}, else: {}},
    {propertyNames: {maxLength: 3}},
    {items: {type: 'object'}},
    {prefixItems: [{}], items: false},
    {contains: {type: 'string'}},
    {anyOf: [{type: 'array'}, {properties: {a: {items: {}}}}]},
    {enum: [{a: 'x'}, ['x']]},
  ];
  class Point {
    x = 1;
  }
  const values: unknown[] = [
    {a: 'x'},
    {a: 'long string here'},
    {a: ['x', 'y'], b: 'x'},
    {a: ['long string here']},
    {a: [[[['deep']]]]},
    {a: NaN},
    {a: [undefined]},
    {a: 1, b: 2, c: 3, d: 4},
    {long: 1},
    {a: new Point()},
    {a: {b: {c: {d: 1}}}},
    ['x'],
    ['long string here'],
    [{a: Infinity}],
    ['x', [[[['deep']]]]],
    [new Point()],
    'long string here',
    new Point(),
  ];
  it('passes only what the events pass, and everything plain they pass', () => {
    const problems: string[] = [];
    for (const schema of schemas) {
      for (const value of values) {
        const {root} = compileSchema(schema, {limits});
        const checker = new ValueChecker(new Evaluator(root, false), {...defaultLimits, ...limits});
        const passed = checker.passes(root, value);
        const events = eventsVerdict(schema, value, limits);
        if (passed && !events) problems.push(`passed what the events fail: ${JSON.stringify(schema)} on ${JSON.stringify(value)}`);
        // Plain values that pass must be decided (else the fast path would be dead code).
        if (!passed && events && checker.usable && isPlain(value)) problems.push(`left to the events: ${JSON.stringify(schema)} on ${JSON.stringify(value)}`);
        assert.equal(compile(schema, {limits}).validate(value).valid, events, `${JSON.stringify(schema)} on ${JSON.stringify(value)}`);
      }
    }
    assert.deepEqual(problems, []);
  });
});
