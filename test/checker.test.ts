// validateText's fast verdict (src/engine/checker.ts) against the whole official suite: what it decides
// must be right (a pass only for valid documents, a failure only for invalid ones), and it must
// decide every valid document whose schema it can ask, or it would be a fast path that never runs.
// Plus the documents it must leave to the evaluator.

import assert from 'node:assert/strict';
import fc from 'fast-check';
import {describe, it, test} from 'node:test';
import {compileSchema} from '../src/compile/compile.js';
import {compile} from '../src/index.js';
import {uniqueItems} from '../src/keywords/uniqueItems.js';
import {FAIL, PASS, TextChecker, UNSURE, type Outcome} from '../src/engine/checker.js';
import {defaultLimits} from '../src/json/limits.js';
import {random} from './support/chunks.js';
import {eventsVerdictOf} from './support/evaluatorVerdict.js';
import {property} from './support/property.js';
import {strictTree, treeSchemas} from './support/trees.js';
import {drafts, remotes, suiteFiles, suiteFormats, suiteSkips} from './support/suite.js';

const schemas = remotes();

type Options = Parameters<typeof compileSchema>[1];

function checkerFor(schema: unknown, options: Options = {}): TextChecker {
  const {root} = compileSchema(schema, options);
  return new TextChecker(root, {...defaultLimits, ...options.limits});
}

/**
 * The outcome of `check` (the Tokenizer's tokens) and of `checkText` (the scanner's ranges), which
 * must be the same: validateText asks the one, a validator with value options the other.
 */
function checkBoth(checker: TextChecker, text: string): Outcome {
  const outcome = checker.check(text);
  const reason = checker.unsureOf;
  assert.equal(checker.checkText(text), outcome, `checkText and check differ on ${text.slice(0, 200)}`);
  assert.equal(checker.unsureOf, reason, `checkText and check are unsure for different reasons on ${text.slice(0, 200)}`);
  return outcome;
}

/** The checker decides every text and its parsed value, as the evaluator does. */
function decidesAsValueMode(schema: unknown, texts: readonly string[], options: Options = {}): void {
  const checker = checkerFor(schema, options);
  const eventsVerdict = eventsVerdictOf(schema, options);
  for (const text of texts) {
    const outcome = checkBoth(checker, text);
    const where = `${JSON.stringify(schema).slice(0, 60)}: ${text.slice(0, 60)}`;
    assert.notEqual(outcome, UNSURE, text);
    assert.equal(outcome === PASS, eventsVerdict(JSON.parse(text)), where);
    assert.equal(checker.checkValue(JSON.parse(text)), outcome, `checkValue, ${where}`);
  }
}

test('the text checker agrees with the suite on every test it decides, and decides most', () => {
  let valid = 0;
  let passed = 0;
  let invalid = 0;
  let failed = 0;
  let schemaNotAskable = 0;
  let values = 0;
  const problems: string[] = [];
  for (const draft of drafts) {
    for (const optional of [false, true]) {
      for (const file of suiteFiles(draft, optional)) {
        for (const suiteCase of file.cases) {
          const checker = checkerFor(suiteCase.schema, {draft, schemas, ...suiteFormats(optional)});
          for (const suiteTest of suiteCase.tests) {
            const id = `${draft}/${file.name}/${suiteCase.description}/${suiteTest.description}`;
            if (suiteSkips.has(id) || suiteSkips.has(`${draft}/${file.name}`)) continue;
            for (const text of [JSON.stringify(suiteTest.data), JSON.stringify(suiteTest.data, null, 2)]) {
              const outcome = checkBoth(checker, text);
              if (outcome === PASS && !suiteTest.valid) problems.push(`said valid: ${id}`);
              if (outcome === FAIL && suiteTest.valid) problems.push(`said invalid: ${id}`);
              if (!suiteTest.valid) {
                invalid++;
                if (outcome === FAIL) failed++;
                continue;
              }
              valid++;
              if (outcome === PASS) passed++;
              else if (checker.unsureOf === 'schema') schemaNotAskable++;
              else problems.push(`left a valid document to the evaluator (${checker.unsureOf}): ${id}`);
            }
            // The same document as a parsed value (validate's fast verdict): as sure as its text.
            const valueOutcome = checker.checkValue(suiteTest.data);
            if (valueOutcome === PASS && !suiteTest.valid) problems.push(`checkValue said valid: ${id}`);
            if (valueOutcome === FAIL && suiteTest.valid) problems.push(`checkValue said invalid: ${id}`);
            if (suiteTest.valid && valueOutcome !== PASS && checker.unsureOf !== 'schema') problems.push(`checkValue left a valid document to the evaluator (${checker.unsureOf}): ${id}`);
            values++;
          }
        }
      }
    }
  }
  console.log(
    `text checker: ${passed} of ${valid} valid and ${failed} of ${invalid} invalid suite texts decided; ` +
      `valid ones left to the evaluator: ${schemaNotAskable} (schema not askable); ` +
      `checkValue as sure on all ${values} suite values`,
  );
  assert.deepEqual(problems, []);
  assert.ok(passed / valid > 0.75, `decided only ${passed} of ${valid}`);
});

type Json = null | boolean | number | string | Json[] | {[key: string]: Json};

/** A small random change somewhere in `value`: a member dropped, added or retyped, an item repeated. */
function mutate(value: Json, next: () => number): Json {
  const scalars: Json[] = [0, 1, -1, 2.5, 1e20, '', 'a', 'foo', true, false, null, [], {}, [1, 1], {a: 1}];
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  if (Array.isArray(value)) {
    const copy = value.slice();
    const choice = next();
    if (copy.length > 0 && choice < 0.3) copy[Math.floor(next() * copy.length)] = mutate(pick(copy), next);
    else if (copy.length > 0 && choice < 0.5) copy.push(pick(copy));
    else if (copy.length > 0 && choice < 0.7) copy.splice(Math.floor(next() * copy.length), 1);
    else copy.push(pick(scalars));
    return copy;
  }
  if (value !== null && typeof value === 'object') {
    const copy = {...value};
    const keys = Object.keys(copy);
    const choice = next();
    if (keys.length > 0 && choice < 0.4) {
      const key = pick(keys);
      copy[key] = mutate(copy[key]!, next);
    } else if (keys.length > 0 && choice < 0.6) delete copy[pick(keys)];
    else copy[pick(['a', 'b', 'foo', 'bar', 'x-1', ...keys.map((key) => key + '2')])] = pick(scalars);
    return copy;
  }
  return next() < 0.5 ? pick(scalars) : [value];
}

test('on random changes to the suite documents, the text checker never contradicts the evaluator', () => {
  let decided = 0;
  let compared = 0;
  const problems: string[] = [];
  for (const draft of drafts) {
    for (const file of suiteFiles(draft, false)) {
      file.cases.forEach((suiteCase, caseIndex) => {
        const checker = checkerFor(suiteCase.schema, {draft, schemas});
        const eventsVerdict = eventsVerdictOf(suiteCase.schema, {draft, schemas});
        const next = random(caseIndex * 7919 + draft.length);
        for (const suiteTest of suiteCase.tests) {
          let data = suiteTest.data as Json;
          for (let round = 0; round < Number(process.env.TEXT_CHECK_ROUNDS ?? 4); round++) {
            data = mutate(data, next);
            const text = JSON.stringify(data);
            const outcome = checkBoth(checker, text);
            const valueOutcome = checker.checkValue(data);
            compared++;
            if (outcome === UNSURE) continue;
            decided++;
            const verdict = eventsVerdict(data);
            if ((outcome === PASS) !== verdict) problems.push(`${draft}/${file.name}/${suiteCase.description}: ${text} (${outcome === PASS ? 'pass' : 'fail'})`);
            if (valueOutcome !== UNSURE && (valueOutcome === PASS) !== verdict) problems.push(`checkValue, ${draft}/${file.name}/${suiteCase.description}: ${text}`);
          }
        }
      });
    }
  }
  console.log(`text checker on changed suite documents: ${decided} of ${compared} decided, all agreeing with the evaluator, and so checkValue`);
  assert.deepEqual(problems.slice(0, 10), []);
});

describe('the text checker', () => {
  it('leaves a repeated key, a syntax error and a limit to the evaluator', () => {
    const checker = checkerFor({type: 'object'}, {limits: {maxDepth: 3}});
    assert.equal(checkBoth(checker, '{"a": 1, "a": 2}'), UNSURE);
    assert.equal(checkBoth(checker, '{"a": 1'), UNSURE);
    assert.equal(checkBoth(checker, '{"a": [[[1]]]}'), UNSURE);
    assert.equal(checkBoth(checker, '{"a": [[1]]}'), PASS);
    // A value only `true` schemas apply to is skipped by checkText, for its syntax and repeated keys alone.
    const free = checkerFor({properties: {a: true, b: {type: 'string'}}});
    assert.equal(checkBoth(free, '{"a": {"x": [1, {"y": 2, "y": 3}]}, "b": "s"}'), UNSURE);
    assert.equal(checkBoth(free, '{"a": {"x": [1, {"y": 2, "z": 3}]}, "b": "s"}'), PASS);
    assert.equal(checkBoth(free, '{"a": {"x": [1, {"y": 2, "z": 3}]}, "b": 5}'), FAIL);
    assert.equal(checkBoth(free, '{"a": "\\x", "b": "s"}'), UNSURE);
    assert.equal(checkBoth(checkerFor(true), '[{"k": 1}, {"k": 1, "k": 2}]'), UNSURE);
  });

  it('refuses a repeated key whose member is kept: after warm-up, in nested objects of one shape, past the name budget', () => {
    const flat = checkerFor({properties: {a: {type: 'integer'}, b: {type: 'integer'}}});
    for (let round = 0; round < 3; round++) assert.equal(checkBoth(flat, '{"a": 1, "b": 2}'), PASS);
    assert.equal(checkBoth(flat, '{"a": 1, "b": 2, "a": 3}'), UNSURE);
    assert.equal(checkBoth(flat, '{"b": 1, "a": 2, "b": 3}'), UNSURE);
    assert.equal(checkBoth(flat, '{"a": 1, "a": 2}'), UNSURE);
    assert.equal(checkBoth(flat, '{"a": 1, "b": 2}'), PASS);
    // One shape open at two depths: the inner object's keys must not unmark the outer one's.
    const tree = checkerFor({$ref: '#/$defs/node', $defs: {node: {type: 'object', properties: {name: {type: 'string'}, kids: {type: 'array', items: {$ref: '#/$defs/node'}}}}}});
    for (const text of ['{"name": "a", "kids": [{"name": "b"}]}', '{"kids": [{"name": "b"}], "name": "a"}']) assert.equal(checkBoth(tree, text), PASS);
    assert.equal(checkBoth(tree, '{"name": "a", "kids": [{"name": "b"}], "name": "c"}'), UNSURE);
    assert.equal(checkBoth(tree, '{"name": "a", "kids": [{"name": "b", "name": "c"}]}'), UNSURE);
    assert.equal(checkBoth(tree, '{"kids": [{"kids": [], "name": "b", "kids": []}], "name": "a"}'), UNSURE);
    // Past the budget of kept names the object's own table is retired: a name marked before must
    // still be found when it comes again and selects a member that is not kept.
    const many = Array.from({length: 3000}, (_, index) => `"k${index}": ${index}`).join(', ');
    for (const text of [`{"dup": 1, ${many}, "dup": 2}`, `{"dup": 1, ${many}}`]) {
      const wide = checkerFor({additionalProperties: {type: 'integer'}});
      assert.equal(wide.checkText('{"dup": 1}'), PASS);
      assert.equal(wide.checkText(text), text.endsWith('"dup": 2}') ? UNSURE : PASS);
    }
  });

  it('judges a property name again until it has passed propertyNames, through one checker', () => {
    const texts = ['{"ab": 1}', '{"abc": 1}', '{"ab": 1, "abc": 2}', '{"abc": 1, "ab": 2}', '{"ab": 1}', '{"xyz": 1}', '{"x": 1, "abc": 2}'];
    for (const propertyNames of [{maxLength: 2}, {anyOf: [{maxLength: 2}, {pattern: '^x'}]}, {not: {const: 'abc'}}]) {
      // Each text twice in turn, so that a name comes after both its own pass and its own failure.
      decidesAsValueMode({propertyNames}, [...texts, ...texts, ...texts.slice().reverse()]);
    }
  });

  it('refuses every repeated key over a sequence of documents through one checker (property)', () => {
    const name = fc.constantFrom('a', 'b', 'c', 'kids');
    const node: fc.Memo<unknown> = fc.memo((size): fc.Arbitrary<unknown> =>
      size <= 1
        ? fc.oneof(fc.integer({min: 0, max: 9}), fc.constant('s'))
        : fc.oneof(fc.array(node(size - 1), {maxLength: 3}), fc.array(fc.tuple(name, node(size - 1)), {maxLength: 5})),
    );
    const textOf = (value: unknown): string =>
      Array.isArray(value) && value.every((member) => Array.isArray(member) && member.length === 2 && typeof member[0] === 'string')
        ? '{' + value.map(([key, member]) => JSON.stringify(key) + ': ' + textOf(member)).join(', ') + '}'
        : Array.isArray(value)
          ? '[' + value.map(textOf).join(', ') + ']'
          : JSON.stringify(value);
    const repeats = (value: unknown): boolean => {
      if (!Array.isArray(value)) return false;
      if (value.every((member) => Array.isArray(member) && member.length === 2 && typeof member[0] === 'string')) {
        const keys = value.map(([key]) => key as string);
        if (new Set(keys).size < keys.length) return true;
        return value.some(([, member]) => repeats(member));
      }
      return value.some(repeats);
    };
    const schema = {$ref: '#/$defs/node', $defs: {node: {properties: {a: {$ref: '#/$defs/node'}, b: true, kids: {items: {$ref: '#/$defs/node'}}}}}};
    const checker = checkerFor(schema);
    fc.assert(
      fc.property(fc.array(node(4), {minLength: 1, maxLength: 6}), (documents) => {
        for (const document of documents) {
          const text = textOf(document);
          assert.equal(checkBoth(checker, text) === UNSURE, repeats(document), text);
        }
      }),
      property(300),
    );
  });

  it('compares objects and arrays with enum and const literals', () => {
    const checker = checkerFor({properties: {a: {enum: [1, {b: 2}, [1, {c: [null]}], {}, []]}, c: {const: 'x'}, d: {const: {e: [1.0, 'f']}}}});
    for (const [text, outcome] of [
      ['{"a": 1}', PASS],
      ['{"a": {"b": 2}}', PASS],
      ['{"a": {"b": 2.0}}', PASS],
      ['{"a": {"b": 2, "c": 1}}', FAIL],
      ['{"a": {"c": 2}}', FAIL],
      ['{"a": {}}', PASS],
      ['{"a": []}', PASS],
      ['{"a": [1]}', FAIL],
      ['{"a": [1, {"c": [null]}]}', PASS],
      ['{"a": [1, {"c": [null, null]}]}', FAIL],
      ['{"a": [1, {"c": [null]}, 3]}', FAIL],
      ['{"c": {}}', FAIL],
      ['{"d": {"e": [1, "f"]}}', PASS],
      ['{"d": {"e": [1, "g"]}}', FAIL],
      ['{"d": {"e": [1]}}', FAIL],
      ['{"d": "x"}', FAIL],
    ] as const) {
      assert.equal(checker.check(text), outcome, text);
    }
  });

  it('keeps more than one word of flags and presence bits per container', () => {
    const names = Array.from({length: 70}, (_, index) => 'p' + index);
    const schemas = [
      {required: names},
      {anyOf: names.map((name) => ({required: [name]}))},
      {oneOf: names.map((name) => ({required: [name]}))},
      {allOf: names.map((name) => ({if: {required: [name]}, then: {properties: {[name]: {type: 'integer'}}}, else: {not: {required: [name + 'x']}}}))},
      {dependentRequired: Object.fromEntries(names.map((name, index) => [name, [names[(index + 1) % names.length]!]]))},
      {items: {type: 'object'}, ...{allOf: names.map((name) => ({contains: {required: [name]}}))}},
    ];
    const texts = [
      JSON.stringify(Object.fromEntries(names.map((name) => [name, 1]))),
      JSON.stringify(Object.fromEntries(names.map((name) => [name, 1]).filter((_, index) => index !== 40))),
      '{"p69": 1}',
      '{"p40": 1, "p41": 2}',
      '{"p33": "1"}',
      '{"p65x": 1}',
      JSON.stringify(names.map((name) => ({[name]: 1}))),
      JSON.stringify(names.slice(1).map((name) => ({[name]: 1}))),
    ];
    for (const schema of schemas) {
      decidesAsValueMode(schema, texts);
    }
  });

  it('leaves a $ref cycle that never descends to the evaluator', () => {
    const selfApplied = {$ref: '#/$defs/loop', $defs: {loop: {$ref: '#/$defs/loop'}}};
    const checker = checkerFor(selfApplied);
    assert.equal(checker.check('{}'), UNSURE);
    assert.equal(checker.check('1'), UNSURE);
    assert.equal(compile(selfApplied).validateText('{}').errors[0]?.params?.code, 'limit.recursion');
  });

  it('keeps bounded caches on objects whose keys never repeat', () => {
    const checker = checkerFor({additionalProperties: {type: 'object', properties: {v: {type: 'integer'}}}});
    for (let round = 0; round < 3; round++) {
      const text = JSON.stringify(Object.fromEntries(Array.from({length: 3000}, (_, index) => [`k${round}-${index}`, {v: index}])));
      assert.equal(checker.check(text), PASS);
      assert.equal(checker.check(text.replace('{"v":7}', '{"v":"7"}')), FAIL);
    }
    const shapes = (checker as unknown as {cache: {shapes: Map<string, {named: {keptNames: number}}>}}).cache.shapes;
    for (const shape of shapes.values()) assert.ok(shape.named.keptNames <= 1024, `a shape remembers ${shape.named.keptNames} names`);
  });

  it('compares the items of a uniqueItems array by fingerprint, as the evaluator does: numbers by decimal value', () => {
    const checker = checkerFor({uniqueItems: true, items: {type: ['string', 'number', 'boolean', 'null', 'array']}});
    assert.equal(checker.check('["a", "b", 1, 1.5, true, false, null]'), PASS);
    assert.equal(checker.check('["a", "a"]'), FAIL);
    assert.equal(checker.check('[1, 1.0]'), FAIL);
    assert.equal(checker.check('[0, -0]'), FAIL);
    assert.equal(checker.check('[null, null]'), FAIL);
    assert.equal(checker.check('[true, false, true]'), FAIL);
    assert.equal(checker.check('[1, "1", true, "true", null, "null"]'), PASS);
    // JSON.parse would round these two to the same double; their decimal values differ, and so do
    // their fingerprints (src/engine/fingerprint.ts), in the checker as in the evaluator.
    assert.equal(checker.check('[1, 1.00000000000000001]'), PASS);
    assert.equal(checker.check('[1e400, 10e399]'), FAIL);
    // Objects and arrays by fingerprint: by value, objects in any key order.
    assert.equal(checker.check('[[1], [1]]'), FAIL);
    assert.equal(checker.check('[[1], [2], [1, 2], [2, 1], []]'), PASS);
    const objects = checkerFor({uniqueItems: true});
    assert.equal(objects.check('[{"a": 1, "b": [2, {"c": null}]}, {"b": [2, {"c": null}], "a": 1.0}]'), FAIL);
    assert.equal(objects.check('[{"a": 1, "b": [2, {"c": null}]}, {"b": [{"c": null}, 2], "a": 1}]'), PASS);
    assert.equal(objects.check('[{}, [], {"": []}, [{}], "{}"]'), PASS);
    assert.equal(objects.check('[[1.00000000000000001], [1]]'), PASS);
    assert.equal(objects.check('[{"x": [[1]]}, {"x": [[1e0]]}]'), FAIL);
    assert.equal(checker.check('{"a": ["x", "x"]}'), PASS);
  });

  it('counts the items that satisfy contains, scalars and containers alike', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      contains: {anyOf: [{type: 'integer', minimum: 5}, {type: 'object', required: ['hit']}]},
      minContains: 2,
      maxContains: 3,
    };
    const texts = ['[5, 6]', '[5]', '[1, 2, 3]', '[5, {"hit": 1}]', '[{"hit": 1}, {"miss": 1}, [5, 6]]', '[5, 6, 7, 8]', '[[5], {"hit": {"hit": 1}}, 9]', '[]', '{}'];
    decidesAsValueMode(schema, texts);
  });

  it('gives up on a schema with a keyword it cannot ask, for good', () => {
    // Every keyword of the five drafts has an outline: take one away to see the checker give up.
    const outline = uniqueItems.outline;
    delete (uniqueItems as {outline?: unknown}).outline;
    try {
      const checker = checkerFor({properties: {a: {uniqueItems: true}}});
      assert.equal(checker.usable, true);
      assert.equal(checker.check('{"a": [1]}'), UNSURE);
      assert.equal(checker.unsureOf, 'schema');
      assert.equal(checker.usable, false);
    } finally {
      (uniqueItems as {outline?: unknown}).outline = outline;
    }
  });

  it('decides unevaluatedItems beside conditional items and 2020-12 contains', () => {
    const schemas = [
      {$schema: 'https://json-schema.org/draft/2020-12/schema', contains: {type: 'integer'}, unevaluatedItems: false},
      {$schema: 'https://json-schema.org/draft/2020-12/schema', prefixItems: [{type: 'string'}], anyOf: [{prefixItems: [true, {type: 'integer'}]}, {contains: {type: 'boolean'}}], unevaluatedItems: {type: 'null'}},
      {$schema: 'https://json-schema.org/draft/2020-12/schema', if: {prefixItems: [{const: 'x'}]}, then: {items: {type: 'integer'}}, else: {prefixItems: [true, true]}, unevaluatedItems: false},
      {$schema: 'https://json-schema.org/draft/2019-09/schema', oneOf: [{items: [{type: 'string'}]}, {items: [{type: 'integer'}, {type: 'integer'}]}], unevaluatedItems: false},
    ];
    const texts = ['[]', '[1]', '["a"]', '["a", 1]', '["a", 1, null]', '["a", true]', '["a", "b"]', '["x", 1, 2]', '["x", "y"]', '["y", 1, 2]', '[1, 2]', '[1, 2, 3]', '[true, "a", null]', '[{}, 1]'];
    for (const schema of schemas) decidesAsValueMode(schema, texts);
  });

  it('decides unevaluatedProperties beside subschemas that evaluate conditionally', () => {
    const schemas = [
      {anyOf: [{properties: {a: true}}, {required: ['b']}], unevaluatedProperties: false},
      {oneOf: [{properties: {kind: {const: 'x'}, x: true}, required: ['kind']}, {properties: {kind: {const: 'y'}, y: {type: 'integer'}}, required: ['kind']}], unevaluatedProperties: false},
      {if: {properties: {kind: {const: 'x'}}, required: ['kind']}, then: {properties: {x: true}}, else: {properties: {y: true}}, properties: {kind: true}, unevaluatedProperties: false},
      {dependentSchemas: {trigger: {properties: {extra: true}}}, properties: {trigger: true}, unevaluatedProperties: {type: 'string'}},
      {not: {not: {properties: {a: true}}}, unevaluatedProperties: false},
      {allOf: [{anyOf: [{properties: {a: {type: 'object', unevaluatedProperties: false, properties: {n: true}}}}, {properties: {b: true}}]}], unevaluatedProperties: {type: 'boolean'}},
      {anyOf: [{properties: {a: true}, unevaluatedProperties: false}, {properties: {b: true}}], unevaluatedProperties: false},
    ];
    const texts = [
      '{}', '{"a": 1}', '{"b": 1}', '{"a": 1, "b": 2}', '{"c": 1}', '{"c": true}', '{"kind": "x", "x": 1}', '{"kind": "x", "y": 1}',
      '{"kind": "y", "y": 1}', '{"kind": "y", "y": "1"}', '{"kind": "z", "y": 1}', '{"trigger": 1, "extra": 1}', '{"extra": 1}', '{"extra": "1"}',
      '{"a": {"n": 1}, "c": true}', '{"a": {"m": 1}, "b": 1}', '{"a": {"m": 1}}', '{"a": {"n": 1}, "c": 1}',
    ];
    for (const schema of schemas) {
      decidesAsValueMode(schema, texts);
    }
  });

  it('follows $dynamicRef and $recursiveRef through the dynamic scope', () => {
    const recursiveTree = {
      $schema: 'https://json-schema.org/draft/2019-09/schema',
      $id: 'https://example.com/strict-recursive',
      $recursiveAnchor: true,
      $ref: 'recursive',
      unevaluatedProperties: false,
    };
    const recursive = {$id: 'https://example.com/recursive', $recursiveAnchor: true, type: 'object', properties: {data: true, children: {type: 'array', items: {$recursiveRef: '#'}}}};
    const cases: [unknown, Record<string, unknown>][] = [
      [strictTree, treeSchemas],
      [recursiveTree, {'https://example.com/recursive': recursive}],
    ];
    for (const [schema, others] of cases) {
      decidesAsValueMode(schema, ['{"children": [{"data": 1}]}', '{"children": [{"daat": 1}]}', '{"children": [{"children": [{"children": [], "extra": 1}]}]}', '{"data": 1, "x": 1}'], {schemas: others});
    }
  });

  it('decides unevaluatedItems when everything that evaluates applies unconditionally', () => {
    for (const [draft, schema] of [
      ['draft2020-12', {allOf: [{prefixItems: [{type: 'string'}]}, {$ref: '#/$defs/second'}], $defs: {second: {prefixItems: [true, {type: 'integer'}]}}, unevaluatedItems: {type: 'boolean'}}],
      ['draft2019-09', {items: [{type: 'string'}], contains: {type: 'boolean'}, unevaluatedItems: false}],
    ] as const) {
      decidesAsValueMode(schema, ['[]', '["a"]', '["a", 1]', '["a", 1, true, false]', '["a", 1, "x"]', '[1]', '["a", true]', '["a", "b"]'], {draft});
    }
  });

  it('decides unevaluatedProperties when everything that evaluates applies unconditionally', () => {
    const schema = {
      $defs: {base: {properties: {id: {type: 'integer'}}, patternProperties: {'^x-': true}}},
      allOf: [{$ref: '#/$defs/base'}, {properties: {name: {type: 'string'}}}],
      properties: {nested: {properties: {a: true}, unevaluatedProperties: {type: 'boolean'}}},
      anyOf: [{required: ['id']}, {required: ['name']}],
      unevaluatedProperties: {type: 'number'},
    };
    const texts = [
      '{"id": 1, "name": "n", "x-a": "s", "other": 2}',
      '{"id": 1, "other": "2"}',
      '{"name": "n", "nested": {"a": "s", "b": true}}',
      '{"name": "n", "nested": {"a": "s", "b": 1}}',
      '{"other": 1}',
      '{"id": 1, "x-b": {"deep": 1}, "more": 1.5}',
    ];
    decidesAsValueMode(schema, texts);
  });

  it('decides nested conditions by the flags of the container they apply to', () => {
    const schema = {
      anyOf: [
        {properties: {kind: {const: 'a'}, value: {type: 'string'}}, if: {required: ['x']}, then: {required: ['y']}},
        {properties: {kind: {const: 'b'}, value: {type: 'object', properties: {n: {not: {type: 'string'}}}}}},
      ],
      dependentSchemas: {z: {oneOf: [{required: ['a1']}, {required: ['a2']}]}},
    };
    const texts = [
      '{"kind": "a", "value": "v"}',
      '{"kind": "a", "value": 1}',
      '{"kind": "a", "value": "v", "x": 1}',
      '{"kind": "a", "value": "v", "x": 1, "y": 2}',
      '{"kind": "b", "value": {"n": 1}}',
      '{"kind": "b", "value": {"n": "1"}}',
      '{"kind": "b", "value": {"n": 1}, "z": 1}',
      '{"kind": "b", "value": {"n": 1}, "z": 1, "a1": 0}',
      '{"kind": "b", "value": {"n": 1}, "z": 1, "a1": 0, "a2": 0}',
      '{"kind": "c"}',
      '{"kind": "a", "value": {"n": 1}}',
    ];
    decidesAsValueMode(schema, texts);
  });

  it('keeps no slice of a document in its caches of property names', () => {
    const checker = checkerFor({properties: {a: {type: 'integer'}}});
    const name = 'a-property-name-long-enough-to-be-sliced';
    assert.equal(checker.check(`{"${name}": 1, "\\ud800-lone-surrogate-escaped-key": 2}`), PASS);
    assert.equal(checker.check(`{"${name}": 1}`), PASS);
  });
});

describe("checkValue: value mode's fast verdict", () => {
  const passes = (schema: unknown, value: unknown, options: Options = {}): boolean => checkerFor(schema, options).checkValue(value) === PASS;

  it('non-JSON values still get their error from the walk', () => {
    const validator = compile({type: 'object'});
    assert.equal(checkerFor({type: 'object'}).checkValue({a: NaN}), UNSURE);
    assert.equal(validator.validate({a: NaN}).errors[0]?.params?.code, 'value.notJson');
    assert.equal(validator.validate({a: () => 1}).errors[0]?.params?.code, 'value.notJson');
    assert.equal(validator.validate([undefined]).valid, false);
    // A property whose value is undefined is absent, as in JSON.stringify.
    assert.equal(compile({required: ['a']}).validate({a: undefined}).valid, false);
    assert.equal(compile({required: ['b']}).validate({a: undefined, b: 1}).valid, true);
  });

  it('limits still apply', () => {
    const limits = {maxStringLength: 3, maxDepth: 2, maxProperties: 1, maxKeyLength: 2};
    const validator = compile({}, {limits});
    assert.equal(validator.validate('abcd').errors[0]?.params?.code, 'limit.string');
    assert.equal(validator.validate([[[]]]).errors[0]?.params?.code, 'limit.depth');
    assert.equal(validator.validate({a: 1, b: 2}).errors[0]?.params?.code, 'limit.properties');
    assert.equal(validator.validate({abc: 1}).errors[0]?.params?.code, 'limit.key');
    assert.equal(validator.validate({ab: ['abc']}).valid, true);
    assert.equal(passes({}, {ab: ['abc']}, {limits}), true);
  });

  it('inherited properties are not present; an own __proto__ is', () => {
    assert.equal(passes({required: ['toString']}, {}), false);
    assert.equal(compile({required: ['toString']}).validate({}).valid, false);
    const parsed = JSON.parse('{"__proto__": 1}');
    assert.equal(passes(JSON.parse('{"required": ["__proto__"], "properties": {"__proto__": {"type": "integer"}}}'), parsed), true);
    assert.equal(passes(JSON.parse('{"properties": {"__proto__": {"type": "string"}}}'), parsed), false);
  });

  it('an enumerable property on Object.prototype sends every object to the walk', () => {
    const prototype = Object.prototype as Record<string, unknown>;
    prototype.polluted = 1;
    try {
      assert.equal(checkerFor({type: 'object'}).checkValue({a: 1}), UNSURE);
      assert.equal(compile({additionalProperties: false}).validate({}).valid, true);
    } finally {
      delete prototype.polluted;
    }
  });

  it('a class instance, a Map or a Date is not JSON: the walk decides', () => {
    class Point {
      x = 1;
    }
    for (const value of [new Point(), new Map(), new Date(0)]) assert.equal(checkerFor({}).checkValue({a: value}), UNSURE);
    assert.equal(passes({}, {a: Object.create(null)}), true);
  });

  it('a value deeper than the checker recurses is decided by the walk', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 600; i++) deep = [deep];
    const schema = {$defs: {nested: {anyOf: [{type: 'integer'}, {type: 'array', items: {$ref: '#/$defs/nested'}}]}}, $ref: '#/$defs/nested'};
    assert.equal(checkerFor(schema).checkValue(deep), UNSURE);
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
    // The walk reports it as input that cannot be read, instead of throwing out of validate.
    assert.equal(compile({type: 'object'}).validate(throwing).errors[0]?.params?.code, 'value.unreadable');
  });

  it('decides unevaluatedProperties, and uniqueItems on long arrays of objects', () => {
    assert.equal(passes({not: {unevaluatedProperties: false}}, {a: 1}), true);
    assert.equal(passes({not: {unevaluatedProperties: false}}, {}), false);
    const long = Array.from({length: 100}, (_, i) => ({id: i, tags: [i, {x: i}]}));
    assert.equal(passes({uniqueItems: true}, long), true);
    assert.equal(passes({uniqueItems: true}, [...long, {tags: [7, {x: 7}], id: 7}]), false);
    assert.equal(passes({uniqueItems: true}, [1, '1', [1], {a: [1, {b: 2}]}, {a: [1, {b: 3}]}, null, true]), true);
  });

  it('numbers compare by value and integers by their double', () => {
    assert.equal(passes({const: 1}, 1.0), true);
    assert.equal(passes({enum: [[1, 2], {a: 1}]}, {a: 1}), true);
    assert.equal(passes({enum: [[1, 2], {a: 1}]}, {a: 1, b: 2}), false);
    assert.equal(passes({type: 'integer', multipleOf: 0.1}, 3), true);
    assert.equal(passes({multipleOf: 0.1}, 0.3), true);
    assert.equal(passes({type: 'integer'}, 2 ** 64), true);
  });
});

/** Only arrays and objects made by literals or JSON.parse inside. */
function isPlain(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (!Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every(isPlain);
}

describe('limits are checked wherever checkValue looks, or does not', () => {
  const limits = {maxStringLength: 8, maxKeyLength: 4, maxProperties: 3, maxDepth: 4};
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
    {unevaluatedProperties: false, properties: {a: true}},
  ];
  class Point {
    x = 1;
  }
  const values: unknown[] = [
    {a: 'x'},
    {a: 'x', b: undefined},
    {a: 'long string here'},
    {a: ['x', 'y'], b: 'x'},
    {a: ['long string here']},
    {a: [[[['deep']]]]},
    {a: NaN},
    {a: [undefined]},
    {a: 1, b: 2, c: 3, d: 4},
    {a: 1, b: 2, c: 3, d: undefined},
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
  it('passes only what the walk passes, and everything plain it passes', () => {
    const problems: string[] = [];
    for (const schema of schemas) {
      const eventsVerdict = eventsVerdictOf(schema, {limits});
      const checker = checkerFor(schema, {limits});
      for (const value of values) {
        const passed = checker.checkValue(value) === PASS;
        const events = eventsVerdict(value);
        if (passed && !events) problems.push(`passed what the walk fails: ${JSON.stringify(schema)} on ${JSON.stringify(value)}`);
        // Plain values that pass must be decided (else the fast path would be dead code).
        if (!passed && events && isPlain(value)) problems.push(`left to the walk: ${JSON.stringify(schema)} on ${JSON.stringify(value)}`);
        assert.equal(compile(schema, {limits}).validate(value).valid, events, `${JSON.stringify(schema)} on ${JSON.stringify(value)}`);
      }
    }
    assert.deepEqual(problems, []);
  });
});
