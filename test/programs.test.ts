// Value mode's generated code (src/engine/programs.ts) on its own, without the checker behind
// it: a pass only for valid values, on the whole official suite and on names no code should be
// written from; most valid values decided, or it would be a fast path that never runs; and the
// suite with code generation refused, on the checker alone, with the same verdicts.

import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {describe, it} from 'node:test';
import {fileURLToPath} from 'node:url';
import {compileSchema} from '../src/compile/compile.js';
import {PASS, TextChecker} from '../src/engine/checker.js';
import {CheckerCache} from '../src/engine/checkerCache.js';
import {Member} from '../src/engine/shape.js';
import {HeldScalar} from '../src/engine/scalar.js';
import {ProgramState, TextState, generatesCode, type TextProgram, type ValueProgram as Program} from '../src/engine/programs.js';
import {TextScanner} from '../src/json/scanner.js';
import {compile} from '../src/index.js';
import {defaultLimits} from '../src/json/limits.js';
import {drafts, remotes, suiteFiles, suiteFormats, suiteSkips} from './support/suite.js';
import {evaluatorSession} from './support/evaluatorSession.js';
import {eventsVerdictOf} from './support/evaluatorVerdict.js';

type Options = Parameters<typeof compileSchema>[1];

const schemas = remotes();
const root = fileURLToPath(new URL('..', import.meta.url));

/** The generated code for a document of `schema`, and a held scalar to run it with. */
function programFor(schema: unknown, options: Options = {}): {program: Program; held: HeldScalar} {
  const compiled = compileSchema(schema, options);
  const limits = {...defaultLimits, ...options.limits};
  const cache = new CheckerCache();
  const member = new Member(-1, [compiled.root], [-1], [cache.documentScope], cache.scalarPlans);
  const program = cache.valueProgramOf(member, limits);
  assert.ok(program !== null, 'no code generated where the runtime allows it');
  return {program, held: new HeldScalar()};
}

const passes = ({program, held}: {program: Program; held: HeldScalar}, value: unknown): boolean => program(value, held, 0, new ProgramState()) >= 0;

/** The generated code that reads whole texts of `schema`, as TextChecker.checkText runs it. */
function textProgramFor(schema: unknown, options: Options = {}): (text: string) => boolean {
  const compiled = compileSchema(schema, options);
  const limits = {...defaultLimits, ...options.limits};
  const cache = new CheckerCache();
  const member = new Member(-1, [compiled.root], [-1], [cache.documentScope], cache.scalarPlans);
  const program: TextProgram | null = cache.textProgramOf(member, limits);
  assert.ok(program !== null, 'no code generated where the runtime allows it');
  const state = new TextState(new TextScanner(limits));
  const held = new HeldScalar();
  const space = /[ \t\n\r]*/y;
  return (text) => {
    state.reader.readStrings(text);
    try {
      space.lastIndex = text.charCodeAt(0) === 0xfeff ? 1 : 0;
      space.test(text);
      const end = program(text, space.lastIndex, held, 0, state);
      if (end < 0) return false;
      space.lastIndex = end;
      space.test(text);
      return space.lastIndex === text.length;
    } finally {
      state.release();
    }
  };
}

/**
 * Over the whole suite: `verdictsOf(schema, options)` judges a document (null: not asked), each
 * verdict a pass of the code. None may pass an invalid document, and nine in ten of the valid ones
 * the checker passes must pass.
 */
function assertCovers(what: string, verdictsOf: (schema: unknown, options: Options) => ((data: unknown) => boolean[]) | null): void {
  const problems: string[] = [];
  let valid = 0;
  let decided = 0;
  for (const draft of drafts) {
    for (const optional of [false, true]) {
      for (const file of suiteFiles(draft, optional)) {
        for (const suiteCase of file.cases) {
          const options = {draft, schemas, ...suiteFormats(optional)};
          const verdicts = verdictsOf(suiteCase.schema, options);
          if (verdicts === null) continue;
          const checker = new TextChecker(compileSchema(suiteCase.schema, options).root, {...defaultLimits});
          for (const suiteTest of suiteCase.tests) {
            const id = `${draft}/${file.name}/${suiteCase.description}/${suiteTest.description}`;
            if (suiteSkips.has(id) || suiteSkips.has(`${draft}/${file.name}`)) continue;
            for (const passed of verdicts(suiteTest.data)) {
              if (passed && !suiteTest.valid) problems.push(`passed an invalid document: ${id}`);
              if (!suiteTest.valid || checker.checkValue(suiteTest.data) !== PASS) continue;
              valid++;
              if (passed) decided++;
            }
          }
        }
      }
    }
  }
  console.log(`generated code: ${decided} of the ${valid} valid suite ${what} the checker passes`);
  assert.deepEqual(problems, []);
  assert.ok(decided / valid > 0.9, `decided only ${decided} of ${valid}`);
}

describe('value mode: code generated from the shapes', () => {
  it('runs here: code generation is allowed in the test process', () => {
    assert.equal(generatesCode, true);
  });

  it('passes no invalid value of the suite, and decides nine in ten of the valid ones the checker decides', () => {
    assertCovers('values', (schema, options) => {
      const judge = programFor(schema, options);
      return (data) => [passes(judge, data)];
    });
  });

  it('writes property names as text, never as code: quotes, backslashes, line separators, lone surrogates, template syntax', () => {
    const names = ['"', "'", '\\', '`', '${process.exit(9)}', '*/', '\u2028', '\u2029', '\ud800', '\udfff', '\n', 'constructor', '__proto__', 'toString', ''];
    const properties = Object.fromEntries(names.map((name) => [name, {type: 'integer'}]));
    const schema = {properties, required: names, additionalProperties: false};
    const judge = programFor(schema);
    const validator = compile(schema);
    const value = JSON.parse(JSON.stringify(Object.fromEntries(names.map((name, index) => [name, index]))));
    assert.equal(passes(judge, value), true);
    assert.equal(validator.validate(value).valid, true);
    for (const name of names) {
      const wrong = {...value, [name]: 'x'};
      const missing = {...value};
      delete missing[name];
      assert.equal(passes(judge, wrong), false, JSON.stringify(name));
      assert.equal(passes(judge, missing), false, JSON.stringify(name));
      assert.equal(validator.validate(wrong).valid, false);
      assert.equal(validator.validate(missing).valid, false);
    }
    assert.equal(passes(judge, {...value, other: 1}), false);
  });

  it('looks the names of a schema with a thousand properties up in a map, presence bits and all, with the same verdicts', () => {
    const names = Array.from({length: 1000}, (_, index) => `p${index}`);
    const schema = {properties: Object.fromEntries(names.map((name) => [name, {type: 'integer'}])), required: names.filter((_, index) => index % 100 === 99), additionalProperties: false};
    const judge = programFor(schema);
    const value = Object.fromEntries(names.map((name, index) => [name, index]));
    assert.equal(passes(judge, value), true);
    assert.equal(passes(judge, {...value, p999: 'x'}), false);
    assert.equal(passes(judge, {...value, p0: 'x'}), false);
    const {p899: _, ...missing} = value;
    assert.equal(passes(judge, missing), false);
    assert.equal(passes(judge, {...value, q: 1}), false);
  });

  it('leaves to the checker what is not JSON within the limits', () => {
    const limits = {maxStringLength: 3, maxDepth: 2, maxProperties: 2, maxKeyLength: 2};
    const judge = programFor({}, {limits});
    for (const value of ['abcd', [[[]]], {a: 1, b: 2, c: 3}, {abc: 1}, {a: NaN}, {a: Infinity}, [undefined], {a: 1n}, {a: () => 1}, new Date(0), new Map()]) {
      assert.equal(passes(judge, value), false, String(value));
    }
    for (const value of ['abc', [[]], {a: 1, b: 2}, {ab: 1}, {a: undefined, b: 1}, Object.create(null)]) assert.equal(passes(judge, value), true);
  });
});

describe('whole texts: code generated from the shapes', () => {
  it('passes no invalid text of the suite, in two layouts, and decides nine in ten of the valid ones', () => {
    assertCovers('texts', (schema, options) => {
      // A schema any value passes is left to the scanner (RootPrograms.textPasses).
      if (compileSchema(schema, options).root.bool === true) return null;
      const judge = textProgramFor(schema, options);
      return (data) => [JSON.stringify(data), '\ufeff ' + JSON.stringify(data, null, 2) + '\n'].map(judge);
    });
  });

  it('refuses every truncation of a valid text, and every text cut from it at any two points', () => {
    const schema = {type: 'object', properties: {id: {type: 'integer'}, tags: {type: 'array', items: {type: 'string'}}, meta: {}}, required: ['id'], patternProperties: {'^x-': {type: 'string'}}};
    const judge = textProgramFor(schema);
    const validator = compile(schema);
    const text = '{"id": 12, "tags": ["a\\"b", "\\u00e9"], "meta": {"k": [1, {"z": null}]}, "x-a": "q", "other": [true, false]}';
    assert.equal(judge(text), true);
    for (let end = 0; end < text.length; end++) assert.equal(judge(text.slice(0, end)), false, text.slice(0, end));
    for (let from = 1; from < text.length; from++) {
      for (let to = from; to <= text.length; to++) {
        const cut = text.slice(0, from) + text.slice(to);
        if (judge(cut)) assert.equal(validator.validateText(cut).valid, true, `passed ${cut}`);
      }
    }
  });

  it('refuses a repeated key, listed or not, written plainly or escaped, in small and wide objects', () => {
    const small = textProgramFor({properties: {id: {type: 'integer'}}});
    const names = Array.from({length: 40}, (_, index) => `p${index}`);
    const wide = textProgramFor({properties: Object.fromEntries(names.map((name) => [name, {type: 'integer'}]))});
    for (const judge of [small, wide]) {
      for (const text of ['{"id":1,"id":1}', '{"id":1,"\\u0069d":1}', '{"q":1,"q":2}', '{"q":{},"q":{}}', '{"a":{"q":1,"q":1}}', '{"p1":1,"p1":1}', '{"p1":1,"\\u00701":1}']) {
        assert.equal(judge(text), false, text);
      }
      assert.equal(judge('{"id":1,"q":1,"p1":1,"a":{"q":1},"b":{"q":1}}'), true);
    }
  });

  it('leaves to the checker what the scanner refuses: the limits, and numbers past the doubles under inexactNumbers: reject', () => {
    const limits = {maxStringLength: 3, maxDepth: 2, maxProperties: 2, maxKeyLength: 2, maxNumberLength: 3};
    const judge = textProgramFor({type: ['object', 'array', 'string', 'number']}, {limits});
    for (const text of ['"abcd"', '[[[]]]', '{"a":1,"b":2,"c":3}', '{"abc":1}', '1234', '{"a":"abcd"}', '', ' ', '{', '"\\x"', '"\u0001"', '01', '1.', 'nul', 'true false']) {
      assert.equal(judge(text), false, JSON.stringify(text));
    }
    for (const text of ['"abc"', '[[]]', '{"a":1,"b":2}', '{"ab":1}', '123', '"\\n"']) assert.equal(judge(text), true, text);
    const strict = textProgramFor({type: 'array', items: {type: 'number'}}, {limits: {inexactNumbers: 'reject'}});
    assert.equal(strict('[1e400]'), false);
    assert.equal(strict('[1e300]'), true);
  });

  it('finds each listed name among names of its length, and no unlisted one', () => {
    // Names of one length that differ at one place, at another, or nowhere but their last
    // character; the empty name; names past Latin-1 (nameIndex in src/engine/programs.ts).
    const names = ['ab', 'ba', 'aa', 'abc', 'abd', 'xbd', 'axd', '', 'é', 'e', '\ud83d\ude00', 'ab\u00e9', 'zzzzzzzzzy', 'zzzzzzzzzz'];
    const schema = {properties: Object.fromEntries(names.map((name, index) => [name, {const: index}])), additionalProperties: false};
    const judge = textProgramFor(schema);
    names.forEach((name, index) => {
      assert.equal(judge(`{${JSON.stringify(name)}: ${index}}`), true, name);
      assert.equal(judge(`{${JSON.stringify(name)}: ${index + 1}}`), false, name);
      // The same name escaped: decoded, it is the listed one.
      const escaped = `"${[...name].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`;
      if (name.length === 1) assert.equal(judge(`{${escaped}: ${index}}`), true, escaped);
    });
    for (const unlisted of ['ac', 'bb', 'abe', 'xbc', 'zzzzzzzzzx', 'f', 'AB', 'ab ']) assert.equal(judge(`{${JSON.stringify(unlisted)}: 0}`), false, unlisted);
    assert.equal(judge(JSON.stringify(Object.fromEntries(names.map((name, index) => [name, index])))), true);
  });

  it('judges every name the schema does not know with one member only where no keyword tells such names apart', () => {
    // `properties` selects nothing for such names, `additionalProperties` beside no
    // `patternProperties` selects its subschema for all of them (Sources.tellsOtherNamesApart).
    // Each of the others tells some apart, itself or from an in-place subschema, and must judge
    // `b` here.
    const closed = {properties: {a: {type: 'integer'}}, required: ['a']};
    const alike: Record<string, object> = {
      properties: closed,
      'additionalProperties: {type: string}': {...closed, additionalProperties: {type: ['string', 'number']}},
      'allOf, additionalProperties': {...closed, allOf: [{properties: {a: true, b: true}, additionalProperties: {type: ['string', 'number']}}]},
    };
    const apart: Record<string, object> = {
      patternProperties: {...closed, patternProperties: {'^b': {type: 'string'}}},
      'additionalProperties beside patternProperties': {...closed, patternProperties: {'^c': true}, additionalProperties: {type: 'string'}},
      'allOf, additionalProperties: false': {...closed, allOf: [{properties: {a: true}, additionalProperties: false}]},
      'if/then, patternProperties': {...closed, if: {properties: {a: {const: 1}}}, then: {patternProperties: {'^b': false}}},
      'dependentSchemas, additionalProperties': {...closed, dependentSchemas: {a: {properties: {a: true}, additionalProperties: {type: 'string'}}}},
      '$ref, patternProperties': {...closed, $ref: '#/$defs/b', $defs: {b: {patternProperties: {b: {type: 'null'}}}}},
      'a const object': {...closed, const: {a: 1}},
      'an enum of objects': {...closed, enum: [{a: 1}, {a: 2}]},
    };
    const texts = {valid: '{"a":1,"c":"x","d":-2.5}', unlisted: '{"a":1,"b":[true,{"c":null}],"c":"x","d":-2.5}'};
    for (const [name, schema] of Object.entries({...alike, ...apart})) {
      for (const text of Object.values(texts)) {
        const valid = compile(schema).validate(JSON.parse(text)).valid;
        assert.equal(textProgramFor(schema)(text), valid, `${name}: ${text}`);
        assert.equal(passes(programFor(schema), JSON.parse(text)), valid, `${name}: ${text}`);
      }
      assert.equal(textProgramFor(schema)('{"a":1}'), true, name);
      if (name in apart) assert.equal(compile(schema).validate(JSON.parse(texts.unlisted)).valid, false, `${name}: b should fail`);
      for (const each of ['{"a":1,"b":1,"b":1}', '{"a":1,"b":1,"\\u0062":2}', '{"b":{"c":1,"c":1},"a":1}']) assert.equal(textProgramFor(schema)(each), false, `${name}: ${each}`);
    }
    for (const each of ['{"a":1,"b":"abcd"}', '{"a":1,"b":[[[]]]}', '{"a":1,"bcd":0}']) {
      const limits = {maxStringLength: 3, maxDepth: 3, maxKeyLength: 2};
      assert.equal(textProgramFor(closed, {limits})(each), false, each);
      assert.equal(passes(programFor(closed, {limits}), JSON.parse(each)), false, each);
    }
  });

  it('judges a value after its discriminator against the branches left: if/then and oneOf, in either order', () => {
    // Programs.live: once `kind` has failed an `if`, or `t` a oneOf branch, the subschemas that fail
    // only to that flag are not applied to `v` or `w`. A wrong pruning passes an invalid text here.
    const schema = {
      allOf: [
        {if: {properties: {kind: {const: 'a'}}}, then: {properties: {v: {type: 'string'}}}},
        {if: {properties: {kind: {const: 'b'}}}, then: {properties: {v: {type: 'number'}}}},
      ],
      oneOf: [
        {properties: {t: {const: 1}, w: {type: 'string'}}},
        {properties: {t: {const: 2}, w: {type: 'number'}}},
      ],
    };
    const judge = textProgramFor(schema);
    const value = programFor(schema);
    // The verdict written out: the validator's own would come from this same code.
    const validity = (kind: string, v: unknown, t: number, w: unknown): boolean =>
      (kind !== 'a' || typeof v === 'string') && (kind !== 'b' || typeof v === 'number') && (t === 1 && typeof w === 'string') !== (t === 2 && typeof w === 'number');
    const members = [['kind', ['a', 'b', 'c']], ['v', ['x', 1]], ['t', [1, 2]], ['w', ['s', 5]]] as const;
    let valid = 0;
    const orders = [[0, 1, 2, 3], [1, 0, 3, 2], [3, 2, 1, 0]];
    for (const kind of members[0][1]) for (const v of members[1][1]) for (const t of members[2][1]) for (const w of members[3][1]) {
      const values = [kind, v, t, w];
      for (const order of orders) {
        const document = Object.fromEntries(order.map((index) => [members[index]![0], values[index]]));
        const text = JSON.stringify(document);
        const expected = validity(kind, v, t, w);
        assert.equal(judge(text), expected, text);
        assert.equal(passes(value, document), expected, text);
        if (expected) valid++;
      }
    }
    assert.ok(valid > 0 && valid < 72, `${valid} of 72 valid`);
  });

  it('writes property names as text, never as code', () => {
    const names = ['"', '\\', '`', '${process.exit(9)}', '*/', '\u2028', '\ud800', 'constructor', '__proto__', ''];
    const schema = {properties: Object.fromEntries(names.map((name) => [name, {type: 'integer'}])), required: names, additionalProperties: false};
    const judge = textProgramFor(schema);
    const text = JSON.stringify(Object.fromEntries(names.map((name, index) => [name, index])));
    assert.equal(judge(text), true);
    assert.equal(judge(text.replace(/:0/, ':"0"')), false);
    assert.equal(judge(text.slice(0, -1) + ',"other":1}'), false);
  });
});

describe('keywords judged across the members of a container: uniqueItems, contains, unevaluated*, propertyNames', () => {
  /**
   * Each text, and its value, as the code alone judges them against what compile() says; each case
   * must decide some way. `soundOnly`: the code may leave a valid text to the checker.
   */
  function assertDecides(schema: unknown, texts: readonly string[], label: string, soundOnly = false): void {
    const judge = textProgramFor(schema);
    const value = programFor(schema);
    const validator = compile(schema);
    let passed = 0;
    for (const text of texts) {
      // The evaluator's verdict: validateText and validate ask the code first.
      const session = evaluatorSession(validator);
      session.write(text);
      const expected = session.end().valid;
      assert.equal(validator.validateText(text).valid, expected, `${label}: validateText on ${text}`);
      assert.equal(validator.validate(JSON.parse(text)).valid, expected, `${label}: validate on ${text}`);
      for (const [passed, what] of [[judge(text), 'text'], [passes(value, JSON.parse(text)), 'value']] as const) {
        if (soundOnly) assert.ok(!passed || expected, `${label}, ${what}: passed ${text}`);
        else assert.equal(passed, expected, `${label}, ${what}: ${text}`);
      }
      if (expected) passed++;
    }
    assert.ok(passed > 0 && passed < texts.length, `${label}: ${passed} of ${texts.length} valid`);
  }

  it('uniqueItems: equal items written apart are equal; values of different kinds are not', () => {
    const texts = ['["a","\\u0061"]', '[1,1.0]', '[1,1e0]', '[0,-0]', '[100,1e2]', '[0.5,5e-1]', '[true,true]', '[null,null]', '["a","b"]', '["1",1]', '[true,"true"]', '[null,"null",0,false]', '[1,2,3,"\\u0031"]'];
    assertDecides({uniqueItems: true}, texts, 'uniqueItems');
    // Failing to a branch's flag, not the document's: a repeated item is left to the checker, which
    // knows whether the anyOf's other branch passes (two numbers may share a double and differ).
    assertDecides({anyOf: [{uniqueItems: true}, {maxItems: 2}]}, [...texts, '[1,1,1]', '[1,2,1]'], 'uniqueItems in anyOf', true);
    assertDecides({not: {uniqueItems: true}}, texts, 'uniqueItems in not', true);
    // Numbers that share a double but differ: the text is valid, the code leaves it to the checker.
    for (const text of ['[9007199254740993,9007199254740992]', '[1e-400,0]']) {
      assert.equal(textProgramFor({uniqueItems: true})(text), false, text);
      assert.equal(compile({uniqueItems: true}).validateText(text).valid, true, text);
      assert.equal(compile({not: {uniqueItems: true}}).validateText(text).valid, false, text);
    }
    // Items the code cannot key (containers) go to the checker, and are judged there.
    assert.equal(textProgramFor({uniqueItems: true})('[{},[]]'), false);
    assert.equal(compile({uniqueItems: true}).validateText('[{},[]]').valid, true);
  });

  it('uniqueItems: past limits.maxUniqueItems the code leaves the array to the checker', () => {
    const limits = {maxUniqueItems: 3};
    assert.equal(textProgramFor({uniqueItems: true}, {limits})('[1,2,3]'), true);
    assert.equal(textProgramFor({uniqueItems: true}, {limits})('[1,2,3,4]'), false);
    assert.equal(passes(programFor({uniqueItems: true}, {limits}), [1, 2, 3, 4]), false);
  });

  it('contains with minContains and maxContains, alone and in a branch', () => {
    const texts = ['[]', '[1]', '["a"]', '["a",1]', '["a","b"]', '["a","b","c"]', '[1,2,"a",3]', '[[],{},"a"]'];
    assertDecides({contains: {type: 'string'}}, texts, 'contains');
    assertDecides({contains: {type: 'string'}, minContains: 2, maxContains: 2}, texts, 'minContains/maxContains');
    assertDecides({contains: {type: 'string'}, maxContains: 0, minContains: 0}, texts, 'maxContains 0');
    assertDecides({oneOf: [{contains: {type: 'string'}, maxContains: 1}, {contains: {type: 'number'}}]}, texts, 'contains in oneOf');
  });

  it('unevaluatedItems beside prefixItems, contains and conditional items', () => {
    const texts = ['[]', '[1]', '[1,"a"]', '[1,"a",2.5]', '[1,"a",null]', '[1,null]', '["a",1]', '[1,"a","b"]', '[true]'];
    assertDecides({prefixItems: [{type: 'integer'}], contains: {type: 'string'}, unevaluatedItems: {type: 'number'}}, texts, 'prefixItems, contains');
    assertDecides({if: {prefixItems: [{const: 1}]}, then: {items: {type: ['string', 'integer']}}, unevaluatedItems: false}, texts, 'if/then items');
    assertDecides({anyOf: [{prefixItems: [true, {type: 'string'}]}, {prefixItems: [{type: 'boolean'}]}], unevaluatedItems: {type: 'number'}}, texts, 'anyOf prefixItems');
  });

  it('unevaluatedProperties beside conditional sources: if/then/else, dependentSchemas, anyOf, not', () => {
    const texts = ['{}', '{"a":1}', '{"a":1,"b":"x"}', '{"a":"s","b":"x"}', '{"b":{}}', '{"a":1,"b":{}}', '{"c":true}', '{"a":1,"c":true}', '{"d":2,"c":1}'];
    assertDecides({if: {properties: {a: {type: 'integer'}}, required: ['a']}, then: {properties: {b: true}}, else: {properties: {c: true}}, unevaluatedProperties: {type: 'number'}}, texts, 'if/then/else');
    assertDecides({properties: {a: true}, dependentSchemas: {a: {properties: {b: {type: 'object'}}}}, unevaluatedProperties: {type: ['string', 'number']}}, texts, 'dependentSchemas');
    assertDecides({anyOf: [{properties: {b: {type: 'string'}}}, {properties: {c: true}}], unevaluatedProperties: false}, texts, 'anyOf');
    assertDecides({not: {not: {properties: {c: true}}}, unevaluatedProperties: {type: 'number'}}, texts, 'not');
    // The schema benchmarks/keywords.ts times.
    assertDecides(
      {properties: {a: true}, dependentSchemas: {b: {required: ['a'], properties: {b: {type: 'object'}}}}, if: {properties: {a: {const: 1}}}, then: {required: ['c']}, else: {not: {required: ['c']}}, unevaluatedProperties: {type: ['string', 'number']}},
      texts,
      'dependentSchemas and if/then/else',
    );
  });

  it('propertyNames: every name judged as a string, repeated and escaped names too; its failure to a branch', () => {
    const texts = ['{}', '{"a":1}', '{"ab":1}', '{"abc":1}', '{"bc":1}', '{"\\u0061":1}', '{"b":1,"a":2}', '{"a\\nb":1}', '{"x":{"abcd":1}}'];
    assertDecides({propertyNames: {maxLength: 2, pattern: '^a'}}, texts, 'propertyNames');
    assertDecides({anyOf: [{propertyNames: {maxLength: 1}}, {propertyNames: {pattern: '^a'}}]}, texts, 'propertyNames in anyOf');
    assertDecides({propertyNames: {enum: ['a', 'b', 'x']}, additionalProperties: {propertyNames: {maxLength: 3}}}, texts, 'propertyNames by enum, nested');
    // Names the code lists: one that passes is not judged again, one that fails is, each time.
    assertDecides({properties: {a: {type: 'integer'}, abc: {type: 'integer'}, bc: {type: 'integer'}}, propertyNames: {maxLength: 2}}, texts, 'listed names');
    assertDecides({properties: {a: {type: 'integer'}, abc: {type: 'integer'}}, anyOf: [{propertyNames: {maxLength: 2}}, {required: ['a']}]}, texts, 'listed names, in anyOf');
    // Not a leaf: the name is read again by the program for names.
    assertDecides({properties: {a: true, abc: true}, propertyNames: {anyOf: [{maxLength: 1}, {pattern: 'c$'}]}}, texts, 'propertyNames not a leaf');
    assert.equal(textProgramFor({propertyNames: {maxLength: 2}})('{"a":1,"\\u0061":2}'), false, 'a repeated name');
  });
});

describe('items judged in the loop of their array, where every item has one member that is a leaf', () => {
  it('the same verdicts as their own programs: kinds, limits, branches, containers among scalars, values that are not JSON', () => {
    const texts = ['[]', '[1]', '[1,2.5,-0]', '["a","b"]', '[1,"a"]', '[true,null]', '[1,[2]]', '[{"a":1},2]', '[1e400]', '["abcdef"]', '[12345678]', '[1,]', '[,1]', '[01]', '["a\\u0062"]', '[ 1 , 2 ]'];
    const schemas: [string, unknown][] = [
      ['numbers', {items: {type: 'number', minimum: 0}}],
      ['strings', {items: {type: 'string', maxLength: 3}}],
      ['anything scalar', {items: {type: ['string', 'number', 'boolean', 'null']}}],
      // The items' failures go to a branch's flag, not the document's.
      ['in anyOf', {anyOf: [{items: {type: 'string'}}, {items: {type: 'number'}}]}],
      ['in not', {not: {items: {type: 'string'}}}],
      ['with containers', {items: {type: ['number', 'array', 'object'], maxItems: 1, maxProperties: 0}}],
      ['under uniqueItems and contains', {items: {type: 'number'}, uniqueItems: true, contains: {minimum: 2}}],
    ];
    // A pass counts only if it comes: the valid texts and values the code decides, for each schema.
    const decided = new Map<string, number>();
    for (const [label, schema] of schemas) {
      for (const limits of [{}, {maxStringLength: 4, maxNumberLength: 6, inexactNumbers: 'reject' as const}]) {
        const judge = textProgramFor(schema, {limits});
        const value = programFor(schema, {limits});
        const validator = compile(schema, {limits});
        const evaluatorOf = eventsVerdictOf(schema, {limits});
        for (const text of texts) {
          const session = evaluatorSession(validator);
          session.write(text);
          const expected = session.end().valid;
          assert.ok(!judge(text) || expected, `${label} ${JSON.stringify(limits)}: the code passed ${text}`);
          if (judge(text)) decided.set(`${label}, text`, (decided.get(`${label}, text`) ?? 0) + 1);
          assert.equal(validator.validateText(text).valid, expected, `${label} ${JSON.stringify(limits)}: validateText ${text}`);
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            continue;
          }
          const valueExpected = evaluatorOf(parsed);
          assert.ok(!passes(value, parsed) || valueExpected, `${label} ${JSON.stringify(limits)}: the code passed the value of ${text}`);
          if (passes(value, parsed)) decided.set(`${label}, value`, (decided.get(`${label}, value`) ?? 0) + 1);
          assert.equal(validator.validate(parsed).valid, valueExpected, `${label} ${JSON.stringify(limits)}: validate ${text}`);
        }
      }
    }
    for (const [label] of schemas) for (const mode of ['text', 'value']) assert.ok((decided.get(`${label}, ${mode}`) ?? 0) >= 3, `${label}, ${mode}: the code decided ${decided.get(`${label}, ${mode}`) ?? 0}`);
    // Not JSON: a hole, undefined, NaN, a function; the code leaves them to the checker.
    const numbers = programFor({items: {type: 'number'}});
    for (const array of [[1, , 2], [1, undefined], [Number.NaN], [Number.POSITIVE_INFINITY], [() => 1]]) assert.equal(passes(numbers, array), false, String(array));
    assert.equal(passes(numbers, [1, 2, 3]), true);
  });
});

describe('programs that cover too little of a schema', () => {
  it('are given up after 64 valid documents read twice, with the same verdicts; those that cover the schema are kept', () => {
    // uniqueItems over objects below the root: the code leaves that array to the checker.
    const deep = compile({properties: {a: {type: 'array', uniqueItems: true}}});
    const covered = compile({properties: {a: {type: 'array', maxItems: 2}}});
    const cacheOf = (validator: unknown): CheckerCache => (validator as {parts: {checkerCache: CheckerCache}}).parts.checkerCache;
    for (let i = 0; i < 200; i++) {
      for (const validator of [deep, covered]) {
        assert.equal(validator.validateText(`{"a": [{"x": ${i}}, {"x": ${i + 1}}]}`).valid, true);
        assert.equal(validator.validateText(`{"a": [{"x": ${i}}, {"x": ${i}}, {"x": ${i}}]}`).valid, false);
        assert.equal(validator.validate({a: [{x: i}, {x: i + 1}]}).valid, true);
        assert.equal(validator.validate({a: [{x: i}, {x: i}, {x: i}]}).valid, false);
      }
    }
    for (const mode of ['text', 'value'] as const) {
      assert.equal(cacheOf(deep).asksPrograms(mode), false, `${mode}: still asked`);
      assert.equal(cacheOf(deep).programMisses[mode], 64);
      assert.equal(cacheOf(covered).asksPrograms(mode), true, `${mode}: given up`);
      assert.equal(cacheOf(covered).programPasses[mode], 200);
      assert.equal(cacheOf(covered).programMisses[mode], 0);
    }
  });
});

describe('with code generation refused (node --disallow-code-generation-from-strings)', () => {
  it('generates none, and the suite and the checker tests pass on the checker alone', {timeout: 300_000}, () => {
    const flags = ['--disallow-code-generation-from-strings', '--import', 'tsx'];
    const probe = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', "const {generatesCode} = await import('./src/engine/programs.ts'); process.exit(generatesCode ? 1 : 0);"], {cwd: root, encoding: 'utf8'});
    assert.equal(probe.status, 0, `code was generated under the flag: ${probe.stderr}`);
    // Not as a child of this test run (NODE_TEST_CONTEXT), which would make it report to us instead of running.
    const {NODE_TEST_CONTEXT: _, ...env} = process.env;
    const suite = spawnSync(process.execPath, [...flags, '--test', '--test-reporter=tap', 'test/suite.test.ts', 'test/checker.test.ts'], {cwd: root, encoding: 'utf8', env});
    assert.equal(suite.status, 0, suite.stdout + suite.stderr);
    // The suite's files ran, every test of them.
    const passed = Number(/^# pass (\d+)$/m.exec(suite.stdout)?.[1]);
    assert.ok(passed > 1700, `only ${passed} tests passed:\n${suite.stdout.slice(-2000)}`);
    assert.match(suite.stdout, /^# fail 0$/m);
  });
});
