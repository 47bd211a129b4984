// Whole texts' generated code (src/engine/programs.ts, mode 'text', asked first by
// TextChecker.checkText) attacked from outside. Only its pass is trusted, so the one bug that
// matters is a pass on a text that is not JSON (RFC 8259), repeats a key (RFC 7493 §2.3), crosses a
// limit, or is invalid against the schema. Every text here goes through validateText and parseText
// and is compared with a session's verdict (the Tokenizer and the evaluator, no generated code) and
// with JSON.parse; the code's own verdict is read too, to count what it passed. The last part
// runs the same pairs in a child process where code generation is disallowed (the old path).

import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {fileURLToPath} from 'node:url';
import {describe, it} from 'node:test';
import fc from 'fast-check';
import {compileSchema} from '../src/compile/compile.js';
import {TextChecker} from '../src/engine/checker.js';
import {CheckerCache} from '../src/engine/checkerCache.js';
import {PASSED, type RootPrograms} from '../src/engine/programs.js';
import type {HeldScalar} from '../src/engine/scalar.js';
import {TextScanner} from '../src/json/scanner.js';
import {generatesCode} from '../src/engine/programs.js';
import {compile, defaultLimits} from '../src/index.js';
import type {CompileOptions, Limits, Validator} from '../src/types.js';
import {reference} from './fixtures/jsontestsuite/cases.js';
import {evaluatorSession} from './support/evaluatorSession.js';
import {property} from './support/property.js';
import {handedOnVerdict} from './support/handedOn.js';

const BOM = '\ufeff';

/** What JSON.parse makes of `text`, a leading BOM aside (RFC 8259 §8.1; we accept one there); undefined when it throws. */
function parsedOf(text: string): {value: unknown} | undefined {
  try {
    return {value: JSON.parse(text.startsWith(BOM) ? text.slice(1) : text)};
  } catch {
    return undefined;
  }
}

/**
 * The reference: the evaluator's session fed in pieces shorter than MemberSink's worthIt, so that
 * the Tokenizer and the evaluator alone judge the text (no checker, no generated code).
 */
function sessionVerdict(validator: Validator, text: string): boolean {
  const running = evaluatorSession(validator);
  for (let at = 0; at < text.length; at += 1000) running.write(text.slice(at, at + 1000));
  return running.end().valid;
}

/** The generated code's verdict alone (RootPrograms.textPasses), through a checker of its own. */
function programOf(schema: unknown, options: CompileOptions): (text: string) => boolean {
  const {root} = compileSchema(schema, options);
  const limits = {...defaultLimits, ...options.limits};
  const checker = new TextChecker(root, limits, new CheckerCache()) as unknown as {programs: RootPrograms; held: HeldScalar};
  const scanner = new TextScanner(limits);
  return (text) => checker.programs.textPasses(text, checker.held, scanner) === PASSED;
}

const shown = (text: string): string => {
  const quoted = JSON.stringify(text);
  return quoted.length > 300 ? `${quoted.slice(0, 300)}… (${text.length} characters)` : quoted;
};

/** Tallies of what the checks saw, so that a run that never reached the code's pass shows it. */
interface Tally {
  texts: number;
  valid: number;
  passedByCode: number;
}

const newTally = (): Tally => ({texts: 0, valid: 0, passedByCode: 0});

/** One schema, one validator and the code alone, through which texts are judged in turn. */
class Judge {
  readonly validator: Validator;
  private readonly program: (text: string) => boolean;

  constructor(
    readonly schema: unknown,
    readonly options: CompileOptions = {},
    private readonly tally: Tally = newTally(),
  ) {
    this.validator = compile(schema, options);
    this.program = programOf(schema, options);
  }

  /**
   * validateText, parseText and the code alone against the session, and never valid where
   * JSON.parse throws; on a pass, parseText's value is JSON.parse's. Returns the verdict.
   */
  check(text: string, label = ''): boolean {
    const where = (): string => `${label} schema ${JSON.stringify(this.schema)} options ${JSON.stringify(this.options)} text ${shown(text)}`;
    const expected = sessionVerdict(this.validator, text);
    const passed = this.program(text);
    this.tally.texts++;
    if (expected) this.tally.valid++;
    if (passed) this.tally.passedByCode++;
    assert.ok(!passed || expected, `FALSE PASS of the generated code: ${where()}`);
    assert.equal(this.validator.validateText(text).valid, expected, `validateText differs from a session: ${where()}`);
    const parsed = this.validator.parseText(text);
    assert.equal(parsed.valid, handedOnVerdict(this.validator, text, expected), `parseText differs from a session: ${where()}`);
    const reference = parsedOf(text);
    if (reference === undefined) assert.equal(expected, false, `valid where JSON.parse throws: ${where()}`);
    else if (parsed.valid) assert.deepEqual(parsed.value, reference.value, `parseText's value: ${where()}`);
    return expected;
  }
}

// ---------------------------------------------------------------------------------------------
// Random schemas over the keywords the code covers

/** Names schemas and documents share: escapes, quotes, backslashes, control characters among them. */
const NAMES = ['a', 'b', 'id', 'é', '', '__proto__', 'a b', 'q"', 'k\\', '\u0001', '😀', 'constructor'];
/** Names past MAX_LISTED_NAMES (24), for objects the code looks up in a map. */
const WIDE = Array.from({length: 30}, (_, index) => `n${index}`);
const TYPES = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'];
const PATTERNS = ['^a', 'b$', '^[a-c]*$', '\\d', '^.{0,2}$', '^$', 'é'];
/** Scalar texts documents are made of: numbers whose text matters, strings with escapes. */
const SCALAR_TEXTS = [
  '0', '1', '-1', '2', '3', '12', '2.5', '-0', '1e2', '1E+2', '0.0e-0', '1.0', '0.1', '100000000000000000001', '1e400', '-1e-400',
  '"a"', '""', '"ab"', '"abc"', '"abcd"', '"\\u0061"', '"\\n"', '"é"', '"😀"', '"\\ud800"', '"a\\"b"', '"\\\\"', '"\\/"',
  'null', 'true', 'false',
];
const SCALARS = SCALAR_TEXTS.map((text) => JSON.parse(text) as unknown).filter((value) => typeof value !== 'number' || Number.isFinite(value));

/** Scalars that are not JSON (RFC 8259 §6, §7, §3), written where a value goes. */
const BROKEN_TEXTS = ['01', '-01', '1.', '.5', '-', '+1', '1e', '1e+', '0x1', 'NaN', 'Infinity', '-Infinity', "'a'", '"\\x41"', '"\\u12"', '"\\U0041"', '"a\u0000"', '"\t"', '"\u001f"', 'tru', 'nul', 'True', 'undefined', '"a', '1_0', '١'];

const nameArbitrary = fc.oneof({weight: 8, arbitrary: fc.constantFrom(...NAMES)}, {weight: 1, arbitrary: fc.constantFrom(...WIDE)});
const someNames = fc.uniqueArray(nameArbitrary, {maxLength: 3});
const small = fc.integer({min: 0, max: 3});
const literal = fc.oneof(
  {weight: 4, arbitrary: fc.constantFrom(...SCALARS)},
  {weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...NAMES), fc.constantFrom(...SCALARS), {maxKeys: 2})},
  {weight: 1, arbitrary: fc.array(fc.constantFrom(...SCALARS), {maxLength: 2})},
);

const assertion: fc.Arbitrary<[string, unknown]> = fc.oneof(
  fc.tuple(fc.constant('type'), fc.oneof(fc.constantFrom(...TYPES), fc.uniqueArray(fc.constantFrom(...TYPES), {minLength: 1, maxLength: 3}))),
  fc.tuple(fc.constant('enum'), fc.array(literal, {minLength: 1, maxLength: 3})),
  fc.tuple(fc.constant('const'), literal),
  fc.tuple(fc.constantFrom('minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'), fc.constantFrom(-1, 0, 0.5, 1, 2, 1e21)),
  fc.tuple(fc.constant('multipleOf'), fc.constantFrom(1, 2, 0.5, 0.1, 3)),
  fc.tuple(fc.constantFrom('minLength', 'maxLength', 'minProperties', 'maxProperties', 'minItems', 'maxItems'), small),
  fc.tuple(fc.constant('pattern'), fc.constantFrom(...PATTERNS)),
  fc.tuple(fc.constant('format'), fc.constantFrom('date', 'email', 'ipv4')),
  fc.tuple(fc.constant('required'), someNames),
  fc.tuple(fc.constant('dependentRequired'), fc.dictionary(nameArbitrary, someNames, {minKeys: 1, maxKeys: 2})),
  fc.tuple(fc.constant('uniqueItems'), fc.boolean()),
  fc.tuple(fc.constantFrom('minContains', 'maxContains'), small),
);

const REFS = ['#', '#/$defs/d0', '#/$defs/d1'];

/** Schemas `depth` applicators deep at most; `$ref`s to the root and two definitions (recursion). */
function schemaArbitrary(depth: number): fc.Arbitrary<unknown> {
  const leaf = fc.array(assertion, {maxLength: 3}).map((entries) => Object.fromEntries(entries));
  const ref = fc.constantFrom(...REFS).map(($ref) => ({$ref}));
  if (depth <= 0) return fc.oneof({weight: 1, arbitrary: fc.boolean()}, {weight: 1, arbitrary: ref}, {weight: 6, arbitrary: leaf});
  const sub = schemaArbitrary(depth - 1);
  const branches = fc.array(sub, {minLength: 1, maxLength: 3});
  const map = (keys: fc.Arbitrary<string>): fc.Arbitrary<Record<string, unknown>> => fc.dictionary(keys, sub, {minKeys: 1, maxKeys: 3});
  const applicator: fc.Arbitrary<[string, unknown]> = fc.oneof(
    fc.tuple(fc.constant('properties'), map(nameArbitrary)),
    // Wide objects with leaves only: wide ones nested in wide ones make schemas of megabytes.
    fc.tuple(fc.constant('properties'), schemaArbitrary(0).map((schema) => Object.fromEntries([...WIDE, ...NAMES].map((name) => [name, schema])))),
    fc.tuple(fc.constant('patternProperties'), map(fc.constantFrom(...PATTERNS))),
    fc.tuple(fc.constant('additionalProperties'), sub),
    fc.tuple(fc.constant('dependentSchemas'), map(nameArbitrary)),
    fc.tuple(fc.constant('items'), sub),
    fc.tuple(fc.constant('prefixItems'), branches),
    fc.tuple(fc.constantFrom('allOf', 'anyOf', 'oneOf'), branches),
    fc.tuple(fc.constantFrom('not', 'if', 'then', 'else'), sub),
    fc.tuple(fc.constant('$ref'), fc.constantFrom(...REFS)),
    fc.tuple(fc.constantFrom('propertyNames', 'contains', 'unevaluatedProperties', 'unevaluatedItems'), sub),
  );
  const keywords = fc.array(fc.oneof({weight: 2, arbitrary: applicator}, {weight: 1, arbitrary: assertion}), {maxLength: 4});
  return fc.oneof({weight: 1, arbitrary: sub}, {weight: 4, arbitrary: keywords.map((entries) => Object.fromEntries(entries))});
}

/** Small limits, crossed by the documents below. */
const limitsArbitrary: fc.Arbitrary<Limits> = fc.record(
  {
    maxDepth: fc.integer({min: 1, max: 5}),
    maxStringLength: fc.integer({min: 0, max: 5}),
    maxKeyLength: fc.integer({min: 0, max: 3}),
    maxProperties: fc.integer({min: 0, max: 5}),
    maxNumberLength: fc.integer({min: 1, max: 6}),
    inexactNumbers: fc.constantFrom<'allow' | 'reject'>('allow', 'reject'),
  },
  {requiredKeys: []},
);

interface SchemaCase {
  schema: unknown;
  options: CompileOptions;
}

const caseArbitrary: fc.Arbitrary<SchemaCase> = fc
  .record({body: schemaArbitrary(3), d0: schemaArbitrary(2), d1: schemaArbitrary(2), formats: fc.boolean(), limits: fc.option(limitsArbitrary, {freq: 3})})
  .map(({body, d0, d1, formats, limits}) => ({
    schema: typeof body === 'object' ? {...(body as object), $defs: {d0, d1}} : {allOf: [body], $defs: {d0, d1}},
    options: {...(formats ? {formats: 'assert' as const} : {}), ...(limits === null ? {} : {limits})},
  }));

// ---------------------------------------------------------------------------------------------
// Random texts: JSON written with every kind of whitespace and escape, then mutated

/** Whitespace between tokens: mostly RFC 8259 §2's, sometimes what JavaScript or Unicode calls whitespace. */
const JSON_SPACE = ['', '', '', ' ', '\n', '\t', '\r\n', '  '];
const OTHER_SPACE = ['\v', '\f', '\u00a0', BOM, '\u2028', '\u2029', '\u3000', '\u0085', '\u0000', '\u001f'];
const space = fc.oneof({weight: 30, arbitrary: fc.constantFrom(...JSON_SPACE)}, {weight: 1, arbitrary: fc.constantFrom(...OTHER_SPACE)});

/** `name` as a JSON string, each character escaped (\uXXXX, or its short escape) where `escapes` says. */
function keyText(name: string, escapes: readonly boolean[]): string {
  let text = '"';
  [...name].forEach((character, index) => {
    if (!escapes[index % Math.max(1, escapes.length)]) {
      text += JSON.stringify(character).slice(1, -1);
      return;
    }
    const short = {'"': '\\"', '\\': '\\\\', '/': '\\/', '\n': '\\n'}[character];
    text += short ?? [...character].map((unit) => '\\u' + unit.charCodeAt(0).toString(16).padStart(4, '0')).join('');
  });
  return text + '"';
}

const escapes = fc.oneof({weight: 4, arbitrary: fc.constant([false])}, {weight: 1, arbitrary: fc.array(fc.boolean(), {minLength: 1, maxLength: 4})});
const documentName = fc.oneof({weight: 8, arbitrary: fc.constantFrom(...NAMES)}, {weight: 2, arbitrary: fc.constantFrom(...WIDE)}, {weight: 1, arbitrary: fc.constantFrom('zz', 'ab', 'abcd')});

interface Tree {
  text: string;
}

/**
 * JSON texts. An object may repeat one of its keys (as written or escaped otherwise): those texts
 * are invalid whatever the schema, and most of them still parse.
 */
const {value: jsonText} = fc.letrec<{value: string; array: string; object: string}>((tie) => ({
  value: fc.oneof(
    {depthSize: 'small', withCrossShrink: true},
    {weight: 6, arbitrary: fc.constantFrom(...SCALAR_TEXTS)},
    {weight: 1, arbitrary: fc.constantFrom(...BROKEN_TEXTS)},
    {weight: 3, arbitrary: tie('array')},
    {weight: 3, arbitrary: tie('object')},
  ),
  array: fc
    .tuple(space, fc.array(fc.tuple(space, tie('value'), space), {maxLength: 4}))
    .map(([inside, items]) => `[${items.length === 0 ? inside : items.map((parts) => parts.join('')).join(',')}]`),
  object: fc
    .tuple(
      space,
      fc.uniqueArray(fc.tuple(documentName, escapes, space, space, tie('value'), space), {maxLength: 5, selector: ([name]) => name}),
      fc.option(fc.tuple(fc.nat(), escapes, tie('value')), {freq: 8}),
    )
    .map(([inside, members, repeat]) => {
      const written = members.map(([name, escaped, a, b, value, c]) => `${a}${keyText(name, escaped)}${b}:${value}${c}`);
      if (repeat !== null && members.length > 0) {
        const [at, escaped, value] = repeat;
        written.splice((at % (written.length + 1)), 0, `${keyText(members[at % members.length]![0], escaped)}:${value}`);
      }
      return `{${written.length === 0 ? inside : written.join(',')}}`;
    }),
}));

/** Characters a mutation inserts or writes over another with. */
const MUTANTS = ['"', '\\', ',', ':', '}', ']', '{', '[', '0', '1', '-', '+', '.', 'e', 'E', ' ', '\n', 'u', 'x', 'n', 't', '\u0000', '\u001f', '\u007f', '\u00a0', '\v', BOM, '\ud800', "'", '/'];

type Mutation = ['delete' | 'repeat', number, number] | ['insert' | 'replace', number, string];

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.constant('delete' as const), fc.nat(), fc.integer({min: 1, max: 3})),
  fc.tuple(fc.constant('repeat' as const), fc.nat(), fc.integer({min: 1, max: 12})),
  fc.tuple(fc.constantFrom('insert' as const, 'replace' as const), fc.nat(), fc.oneof(fc.constantFrom(...MUTANTS), fc.constantFrom(...JSON_SPACE, ...OTHER_SPACE))),
);

function mutate(text: string, change: Mutation): string {
  const at = change[1] % (text.length + 1);
  if (change[0] === 'insert') return text.slice(0, at) + change[2] + text.slice(at);
  if (change[0] === 'replace') return text.slice(0, at) + change[2] + text.slice(at + 1);
  const length = change[2] as number;
  if (change[0] === 'delete') return text.slice(0, at) + text.slice(at + length);
  return text.slice(0, at) + text.slice(at, at + length) + text.slice(at);
}

/** Mutations of a valid text, by a number: deletions, insertions and replacements with each MUTANT. */
const MUTATIONS: ((at: number) => Mutation)[] = [
  (at) => ['delete', at, 1],
  (at) => ['repeat', at, 1 + (at % 9)],
  ...MUTANTS.flatMap((character): ((at: number) => Mutation)[] => [(at) => ['insert', at, character], (at) => ['replace', at, character]]),
];

const documentArbitrary = fc
  .tuple(fc.constantFrom('', '', '', BOM, ' ', '\n'), space, jsonText, space, fc.oneof({weight: 2, arbitrary: fc.constant<Mutation[]>([])}, {weight: 3, arbitrary: fc.array(mutation, {minLength: 1, maxLength: 2})}))
  .map(([start, before, value, after, mutations]) => mutations.reduce(mutate, start + before + value + after));

/** Texts made valid for a schema more often: JSON.stringify of the values a text parses to, with members taken away. */
function reduced(text: string, cut: number): string | undefined {
  const parsed = parsedOf(text);
  if (parsed === undefined) return undefined;
  const prune = (value: unknown, depth: number): unknown => {
    if (Array.isArray(value)) return value.filter((_, index) => (cut >> (index + depth)) % 2 === 0).map((item) => prune(item, depth + 1));
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).filter((_, index) => (cut >> (index + depth)) % 2 === 0).map(([key, member]) => [key, prune(member, depth + 1)]));
    return value;
  };
  return JSON.stringify(prune(parsed.value, 0));
}

describe('random schemas and texts: validateText and parseText say what a session says', () => {
  it('texts written with every whitespace and escape, repeated keys and mutations, through one validator in turn', () => {
    const tally = newTally();
    let refused = 0;
    fc.assert(
      fc.property(caseArbitrary, fc.array(fc.tuple(documentArbitrary, fc.nat()), {minLength: 1, maxLength: 8}), ({schema, options}, documents) => {
        let judge: Judge;
        try {
          judge = new Judge(schema, options, tally);
        } catch (error) {
          refused++;
          if (process.env.SHOW_REFUSED) console.log((error as Error).message);
          return;
        }
        for (const [text, cut] of documents) {
          const pruned = reduced(text, cut);
          for (const base of pruned === undefined ? [text] : [text, pruned]) {
            // A valid text, changed by one character here and there: most of them are not.
            if (!judge.check(base, 'as generated')) continue;
            for (let round = 0; round < 6; round++) judge.check(mutate(base, MUTATIONS[(cut + round * 7) % MUTATIONS.length]!(cut * (round + 1))), `mutant ${round}`);
          }
        }
      }),
      property(600),
    );
    console.log(`random texts: ${tally.texts} texts, ${tally.valid} valid, ${tally.passedByCode} passed by the code; ${refused} schemas refused at compile`);
    assert.ok(tally.passedByCode > tally.texts / 20, `the code passed only ${tally.passedByCode} of ${tally.texts}`);
  });
});

// ---------------------------------------------------------------------------------------------
// Schemas under which the code reads every value itself: the verdict is JSON.parse's, but for a
// repeated key and a leading BOM (test/fixtures/jsontestsuite/cases.ts)

const EVERY_TYPE = ['object', 'array', 'string', 'number', 'boolean', 'null'];
const READERS: [string, unknown][] = [
  ['listed names, recursive', {type: EVERY_TYPE, properties: Object.fromEntries(NAMES.map((name) => [name, {$ref: '#'}])), additionalProperties: {$ref: '#'}, items: {$ref: '#'}}],
  ['wide names, recursive', {type: EVERY_TYPE, maxLength: 1000, properties: Object.fromEntries([...WIDE, ...NAMES].map((name) => [name, {$ref: '#'}])), additionalProperties: {$ref: '#'}, items: {$ref: '#'}}],
  ['values skipped', {type: EVERY_TYPE, properties: {a: {}, b: true}, additionalProperties: {}, items: true}],
  ['leaves of scalars', {type: EVERY_TYPE, properties: {a: {type: EVERY_TYPE}, b: {minLength: 0}}, additionalProperties: {not: {const: 'never'}}, items: {type: EVERY_TYPE}}],
  ['patterns and items', {patternProperties: {'^a': {$ref: '#'}, 'é': {minimum: -1e308}}, additionalProperties: {$ref: '#'}, prefixItems: [{$ref: '#'}, true], items: {$ref: '#'}}],
];

describe('schemas under which the code reads every value: the verdict is JSON.parse\'s, a repeated key refused', () => {
  for (const [label, schema] of READERS) {
    it(label, () => {
      const tally = newTally();
      const judge = new Judge(schema, {}, tally);
      fc.assert(
        fc.property(documentArbitrary, (text) => {
          const valid = judge.check(text);
          assert.equal(valid, reference(text).valid, `JSON.parse (repeated keys and a BOM aside) says otherwise: ${shown(text)}`);
        }),
        property(1500),
      );
      console.log(`${label}: ${tally.texts} texts, ${tally.valid} valid, ${tally.passedByCode} passed by the code`);
      assert.ok(tally.passedByCode === tally.valid, 'the code reads every valid text of this schema itself');
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Targeted: valid documents cut and changed at every index

const RECORD = {
  type: 'object',
  properties: {
    id: {type: 'integer', minimum: 0},
    name: {type: 'string', maxLength: 8, pattern: '^[A-Za-z"]*$'},
    tags: {type: 'array', items: {type: 'string', minLength: 1}, maxItems: 3},
    meta: {},
    score: {type: 'number', multipleOf: 0.5},
    kind: {enum: ['a', 'b', null]},
  },
  required: ['id'],
  additionalProperties: false,
};
const TREE = {$ref: '#/$defs/node', $defs: {node: {type: 'object', properties: {value: {type: 'number'}, next: {$ref: '#/$defs/node'}, kids: {type: 'array', items: {$ref: '#/$defs/node'}}}, required: ['value']}}};
const WIDE_SCHEMA = {type: 'object', properties: Object.fromEntries(WIDE.map((name, index) => [name, index % 2 === 0 ? {type: 'integer'} : {type: 'string'}])), additionalProperties: false, minProperties: 1};
const MIXED = {
  type: 'array',
  prefixItems: [{type: 'string'}, {type: 'object', patternProperties: {'^x': {type: 'integer'}}, additionalProperties: {type: 'boolean'}}],
  items: {anyOf: [{type: 'null'}, {type: 'object', dependentRequired: {a: ['b']}, maxProperties: 2}]},
  minItems: 2,
};
const CONDITIONAL = {if: {properties: {t: {const: 'n'}}}, then: {properties: {v: {type: 'number'}}}, else: {properties: {v: {type: 'string'}}}, oneOf: [{required: ['t']}, {required: ['u']}], not: {required: ['t', 'u']}};

const DOCUMENTS: [string, unknown, string][] = [
  ['a record', RECORD, '{"id": 12, "name": "a\\"b\\u0041", "tags": ["x", "y"], "meta": {"k": [1, {"z": null, "y": "\\n"}], "q": -0.5e+1}, "score": 1.5, "kind": null}'],
  ['a tree', TREE, '{"value":1,"next":{"value":-0,"kids":[{"value":1E+2},{"value":0.0e-0,"next":{"value":3}}]}}'],
  ['a wide object', WIDE_SCHEMA, JSON.stringify(Object.fromEntries(WIDE.map((name, index) => [name, index % 2 === 0 ? index : `s${index}`])))],
  ['a tuple', MIXED, '\ufeff [ "s" , {"x1": 1, "\\u0078\\u0032": 2, "y": true}, null, {"a": 1, "b": 2}, {} ] \n'],
  ['a condition', CONDITIONAL, '{"t": "n", "v": 1}'],
];

const REPLACEMENTS = ['"', '\\', ',', ':', '}', ']', '{', '[', '0', '-', '.', 'e', ' ', '\u0000', '\u001f', '\u00a0', 'x'];

describe('valid documents cut and changed at every index', () => {
  for (const [label, schema, text] of DOCUMENTS) {
    it(label, () => {
      const tally = newTally();
      const judge = new Judge(schema, {}, tally);
      assert.equal(judge.check(text), true, `the document is valid: ${text}`);
      for (let at = 0; at < text.length; at++) judge.check(text.slice(0, at), `cut at ${at}`);
      for (let at = 0; at < text.length; at++) {
        for (const character of REPLACEMENTS) {
          judge.check(text.slice(0, at) + character + text.slice(at + 1), `replaced at ${at}`);
          judge.check(text.slice(0, at) + character + text.slice(at), `inserted at ${at}`);
        }
        judge.check(text.slice(0, at) + text.slice(at + 1), `deleted at ${at}`);
      }
      // The valid text again, after all that: nothing of the others stayed.
      assert.equal(judge.check(text), true);
      console.log(`${label}: ${tally.texts} texts, ${tally.valid} valid, ${tally.passedByCode} passed by the code`);
      assert.ok(tally.passedByCode > 1);
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Targeted: a key repeated in every place

/** An object's text from its members' texts, with `copy` (a member's key, maybe escaped, and a value) inserted at `at`. */
const objectText = (members: readonly string[], at: number, copy: string): string => `{${[...members.slice(0, at), copy, ...members.slice(at)].join(', ')}}`;

/** Every character of `name` as \uXXXX. */
const escapedName = (name: string): string => keyText(name, [true]);

describe('a repeated key, wherever it is, is never valid', () => {
  const schemas: [string, unknown][] = [
    ['listed names', {type: 'object', properties: {id: {type: 'integer'}, b: {}, c: {type: 'object'}}}],
    ['names not listed', {type: 'object', additionalProperties: {type: ['integer', 'object', 'string']}}],
    ['values skipped', {type: 'object'}],
    ['wide listed names', {type: 'object', properties: Object.fromEntries([...WIDE, 'id', 'b', 'c'].map((name) => [name, {type: ['integer', 'object', 'string']}]))}],
    ['a pattern', {type: 'object', patternProperties: {'^[a-z]': {type: ['integer', 'object', 'string']}}, additionalProperties: false}],
    ['nested, recursive', {type: 'object', additionalProperties: {anyOf: [{type: 'integer'}, {type: 'string'}, {$ref: '#'}]}}],
  ];
  for (const [label, schema] of schemas) {
    it(label, () => {
      const tally = newTally();
      const judge = new Judge(schema, {}, tally);
      for (const width of [3, 30]) {
        const names = ['id', 'b', 'c', ...WIDE].slice(0, width);
        const members = names.map((name) => `"${name}": ${name === 'c' ? '{"x": 1}' : '1'}`);
        assert.equal(judge.check(`{${members.join(', ')}}`), true, `${label} width ${width}`);
        for (const name of ['id', 'b', 'c', names[names.length - 1]!]) {
          for (const key of [`"${name}"`, escapedName(name), `"${name.slice(0, 1)}${escapedName(name.slice(1)).slice(1)}`]) {
            for (let at = 0; at <= members.length; at++) {
              const text = objectText(members, at, `${key}: "again"`);
              assert.equal(judge.check(text, `${name} again at ${at}`), false, text);
              // Inside a member's value, and inside an array inside it.
              const nested = objectText(members.slice(0, 2), 2, `"inner": ${text}`);
              assert.equal(judge.check(nested), false, nested);
              assert.equal(judge.check(`{"id": 1, "inner": [1, ${text}]}`), false);
            }
          }
        }
        // Keys whose values the code skips, repeated further in.
        assert.equal(judge.check(`{"c": {"x": 1, "y": {"q": 1, "\\u0071": 2}}}`), false);
        assert.equal(judge.check(`{"c": {"x": 1, "x": 2}}`), false);
        assert.equal(judge.check(`{"c": [{"x": 1}, {"x": 1, "y": [{"z": 1, "z": 1}]}]}`), false);
        assert.equal(judge.check(`{"c": [{"x": 1}, {"x": 1}], "c": 1}`), false);
      }
      // The same key in sibling objects is no repeat.
      assert.equal(judge.check('{"id": 1, "c": {"id": 1, "b": 2}, "b": {"id": 1}}'), judge.check('{"id": 1, "c": {"id": 1, "b": 2}, "b": {"id": 2}}'));
      console.log(`${label}: ${tally.texts} texts, ${tally.passedByCode} passed by the code`);
      assert.ok(tally.passedByCode > 0);
    });
  }

  it('in an object with more keys than the set keeps as strings (past 24), at its end', () => {
    const judge = new Judge({type: 'object', additionalProperties: {type: 'integer'}});
    for (const count of [23, 24, 25, 26, 100]) {
      const members = Array.from({length: count}, (_, index) => `"k${index}": ${index}`);
      assert.equal(judge.check(`{${members.join(',')}}`), true);
      for (const index of [0, count - 1, count >> 1]) {
        assert.equal(judge.check(`{${members.join(',')},"k${index}": 0}`), false, `${count} keys, k${index} again`);
        assert.equal(judge.check(`{${members.join(',')},${escapedName(`k${index}`)}: 0}`), false);
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Targeted: limits at the bound and one past, numbers, strings, depth

describe('limits at the bound and one past', () => {
  const open: unknown = {type: EVERY_TYPE, additionalProperties: {$ref: '#'}, items: {$ref: '#'}};
  const skipping: unknown = {type: EVERY_TYPE, properties: {a: {type: EVERY_TYPE}}};
  const cases: [string, Limits, string, boolean][] = [
    ['maxDepth: nested at the bound', {maxDepth: 3}, '{"a": [{"b": 1}]}', true],
    ['maxDepth: one past', {maxDepth: 3}, '{"a": [{"b": []}]}', false],
    ['maxDepth: one past, in a value skipped', {maxDepth: 3}, '{"z": [[[]]]}', false],
    ['maxDepth: empty at the bound', {maxDepth: 2}, '[[]]', true],
    ['maxDepth 0: a scalar', {maxDepth: 0}, '1', true],
    ['maxDepth 0: a container', {maxDepth: 0}, '[]', false],
    ['maxStringLength: at the bound', {maxStringLength: 3}, '["abc", "\\u0061bc"]', true],
    ['maxStringLength: at the bound, escapes', {maxStringLength: 3}, '["\\n\\t\\"", "\\ud83d\\ude00a"]', true],
    ['maxStringLength: one past', {maxStringLength: 3}, '["abcd"]', false],
    ['maxStringLength: one past, escaped', {maxStringLength: 3}, '["a\\u0062cd"]', false],
    ['maxStringLength: one past, surrogate pairs', {maxStringLength: 3}, '["😀😀"]', false],
    ['maxStringLength: one past, in a value skipped', {maxStringLength: 3}, '{"z": {"y": "abcd"}}', false],
    ['maxStringLength: a key is not a string value', {maxStringLength: 1, maxKeyLength: 4}, '{"abcd": 1}', true],
    ['maxKeyLength: at the bound', {maxKeyLength: 2}, '{"ab": {"\\u0061b": 1}}', true],
    ['maxKeyLength: one past', {maxKeyLength: 2}, '{"abc": 1}', false],
    ['maxKeyLength: one past, escaped', {maxKeyLength: 2}, '{"\\u0061bc": 1}', false],
    ['maxKeyLength: one past, in a value skipped', {maxKeyLength: 2}, '{"z": {"abc": 1}}', false],
    ['maxKeyLength 0: the empty key', {maxKeyLength: 0}, '{"": 1}', true],
    ['maxProperties: at the bound', {maxProperties: 2}, '{"a": {"b": 1, "c": 2}, "d": 3}', true],
    ['maxProperties: one past', {maxProperties: 2}, '{"a": 1, "b": 2, "c": 3}', false],
    ['maxProperties: one past, nested', {maxProperties: 2}, '[{"a": 1, "b": 2, "c": 3}]', false],
    ['maxProperties: one past, in a value skipped', {maxProperties: 2}, '{"z": {"a": 1, "b": 2, "c": 3}}', false],
    ['maxProperties 0', {maxProperties: 0}, '[{}]', true],
    ['maxProperties 0: one', {maxProperties: 0}, '[{"a": 1}]', false],
    ['maxNumberLength: at the bound', {maxNumberLength: 4}, '[1234, -123, 1.25, 1e10]', true],
    ['maxNumberLength: one past', {maxNumberLength: 4}, '[12345]', false],
    ['maxNumberLength: one past, negative', {maxNumberLength: 4}, '[-1234]', false],
    ['maxNumberLength: one past, exponent', {maxNumberLength: 4}, '[1e+10]', false],
    ['maxNumberLength: one past, in a value skipped', {maxNumberLength: 4}, '{"z": [12345]}', false],
    ['inexactNumbers reject: 1e400', {inexactNumbers: 'reject'}, '[1e400]', false],
    ['inexactNumbers reject: past 2^53 is rounding, not refused', {inexactNumbers: 'reject'}, '[9007199254740993]', true],
    ['inexactNumbers reject: 1e-400', {inexactNumbers: 'reject'}, '[1e-400]', false],
    ['inexactNumbers reject: in a value skipped', {inexactNumbers: 'reject'}, '{"z": {"y": 1e400}}', false],
    ['inexactNumbers reject: top level', {inexactNumbers: 'reject'}, '1e400', false],
    ['inexactNumbers reject: exact ones', {inexactNumbers: 'reject'}, '[-0, 1E+2, 0.0e-0, 0.5, 9007199254740992, 1e300]', true],
    ['inexactNumbers allow: 1e400', {inexactNumbers: 'allow'}, '[1e400]', true],
  ];
  for (const [label, limits, text, within] of cases) {
    it(label, () => {
      for (const schema of [open, skipping]) {
        const judge = new Judge(schema, {limits});
        assert.equal(judge.check(text), within, `${label}: ${text}`);
        assert.equal(judge.check(` ${text}\n`), within);
        assert.equal(judge.check(`${BOM}${text}`), within);
      }
    });
  }

  it('huge numbers and their digits', () => {
    for (const inexactNumbers of ['allow', 'reject'] as const) {
      const judge = new Judge({type: ['number', 'array', 'object'], items: {type: 'number'}, additionalProperties: {maximum: 1e308}}, {limits: {inexactNumbers, maxNumberLength: 400}});
      for (const text of ['1e400', '-1e400', '1e-400', '1' + '0'.repeat(399), '1' + '0'.repeat(400), '0.' + '0'.repeat(397) + '1', '[' + '9'.repeat(400) + ']', '{"a": 1e309}', '{"a": 1.7976931348623157e308}', '{"a": 1.7976931348623159e308}', '[-0, -0.0, 0e0, 0E-0, 1E+2]']) {
        judge.check(text, inexactNumbers);
      }
    }
  });

  it('strings with escapes at maxStringLength, as values and keys', () => {
    const escapesOfOne = ['a', '\\n', '\\"', '\\\\', '\\/', '\\u0041', '\\ud83d\\ude00', 'é', '😀'];
    for (const max of [0, 1, 2, 4]) {
      const judge = new Judge({type: ['array', 'object', 'string'], items: {type: 'string', maxLength: 100}, additionalProperties: {type: 'string'}}, {limits: {maxStringLength: max, maxKeyLength: max}});
      for (const part of escapesOfOne) {
        for (const count of [max - 1, max, max + 1]) {
          if (count < 0) continue;
          const body = part.repeat(count);
          judge.check(`["${body}"]`, `max ${max}`);
          judge.check(`"${body}"`, `max ${max}`);
          judge.check(`{"${body}": "${body}"}`, `max ${max}`);
          judge.check(`{"${body}": "${body}", "${body}": ""}`, `max ${max}`);
        }
      }
    }
  });
});

describe('nesting at the bound, one past, and past the code\'s 400 levels', () => {
  const nest = (levels: number, leaf: string, arrays: boolean): string => (arrays ? '['.repeat(levels) + leaf + ']'.repeat(levels) : '{"a":'.repeat(levels) + leaf + '}'.repeat(levels));
  const recursive = {anyOf: [{type: 'integer'}, {type: 'object', additionalProperties: {$ref: '#'}}, {type: 'array', items: {$ref: '#'}}]};
  const strict = {type: ['object', 'array'], additionalProperties: {$ref: '#'}, items: {$ref: '#'}};
  it('maxDepth, small and default', () => {
    for (const maxDepth of [1, 2, 5]) {
      for (const schema of [recursive, strict, {}]) {
        const judge = new Judge(schema, {limits: {maxDepth}});
        for (const arrays of [false, true]) {
          assert.equal(judge.check(nest(maxDepth - 1, arrays ? '[]' : '{}', arrays)), true);
          assert.equal(judge.check(nest(maxDepth, '1', arrays)), schema !== strict);
          assert.equal(judge.check(nest(maxDepth + 1, '1', arrays)), false);
          assert.equal(judge.check(nest(maxDepth, '[]', arrays)), false);
        }
      }
    }
  });

  it('past 400 levels the checker decides, rightly', () => {
    // No anyOf here: the evaluator's errors under nested anyOf cost time quadratic in the depth.
    const typed = {type: ['integer', 'object', 'array'], additionalProperties: {$ref: '#'}, items: {$ref: '#'}};
    for (const schema of [typed, strict]) {
      const judge = new Judge(schema);
      for (const levels of [399, 400, 401, 402, 999, 1000]) {
        for (const arrays of [false, true]) {
          const leaf = schema === strict ? (arrays ? '[]' : '{}') : '1';
          assert.equal(judge.check(nest(levels, leaf, arrays)), levels + (schema === strict ? 1 : 0) <= 1000, `${levels} levels`);
          // Broken deep inside: a control character, a repeated key, a string where none may be.
          assert.equal(judge.check(nest(levels, '"\u0001"', arrays)), false);
          assert.equal(judge.check(nest(levels, arrays ? '{"b":1,"b":1}' : '{"b":[],"b":[]}', arrays)), false);
          assert.equal(judge.check(nest(levels, '"x"', arrays)), false);
        }
      }
    }
  });
});

describe('a BOM and whitespace around the document', () => {
  it('only a leading BOM, only JSON whitespace', () => {
    const judge = new Judge({type: ['object', 'array', 'integer'], additionalProperties: {type: 'integer'}, items: {type: 'integer'}});
    for (const value of ['{"a": 1}', '[1, 2]', '7']) {
      for (const before of ['', BOM, `${BOM} \n\t\r`, ` ${BOM}`, `${BOM}${BOM}`, '\u00a0', '\v', '\f', '\u2028', '\u0000', '\u3000']) {
        for (const after of ['', ' \n\t\r', BOM, '\u00a0', '\v', '\u0000', '\u2029', ' x', ',', ' 1']) {
          judge.check(before + value + after);
          // Inside, between tokens.
          judge.check(before + value.replace(/,|:/g, (separator) => `${after}${separator}${before}`) + after);
        }
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Targeted: one validator, many texts; nothing of one stays for the next

describe('many texts through one validator', () => {
  it('a long clean text, then shorter ones broken where the long one was clean', () => {
    const schema = {type: 'object', properties: {a: {type: 'string'}, b: {type: 'array', items: {type: 'string'}}, c: {}}, additionalProperties: {type: 'string'}};
    const judge = new Judge(schema);
    const long = `{"a": "${'x'.repeat(200)}", "b": ["${'y'.repeat(100)}", "z"], "c": {"q": "${'w'.repeat(50)}"}, "d": "${'v'.repeat(80)}"}`;
    assert.equal(judge.check(long), true);
    for (const bad of ['\u0000', '\u0001', '\u001f', '\n', '\t', '\\x', '\\u00', '\\']) {
      for (const at of [8, 20, 100, 210, 230, 260, 300]) {
        const broken = `${long.slice(0, at)}${bad}${long.slice(at + 1)}`;
        judge.check(long);
        judge.check(broken, `${JSON.stringify(bad)} at ${at}`);
        judge.check(broken.slice(0, Math.max(at + 5, 20)), 'cut');
        const short = `{"a": "${'x'.repeat(Math.max(0, at - 8))}${bad}"}`;
        judge.check(long);
        assert.equal(judge.check(short, `short ${JSON.stringify(bad)}`), false, short);
      }
    }
  });

  it('random texts in turn, then in reverse, then each alone', () => {
    const tally = newTally();
    fc.assert(
      fc.property(caseArbitrary, fc.array(documentArbitrary, {minLength: 2, maxLength: 10}), ({schema, options}, texts) => {
        let judge: Judge;
        try {
          judge = new Judge(schema, options, tally);
        } catch {
          return;
        }
        const verdicts = texts.map((text) => judge.check(text));
        texts.reverse().forEach((text, index) => assert.equal(judge.check(text), verdicts[texts.length - 1 - index]));
        for (const text of texts) assert.equal(new Judge(schema, options).check(text), judge.check(text), `alone: ${shown(text)}`);
      }),
      property(150),
    );
    console.log(`in turn: ${tally.texts} texts, ${tally.valid} valid, ${tally.passedByCode} passed by the code`);
  });
});

// ---------------------------------------------------------------------------------------------
// The old path: the same pairs where code generation is disallowed, in a child process

/**
 * Schemas with custom formats and keywords, by name: functions cannot cross to the child, so both
 * sides build them from this one source (the child is given it as its program's text).
 */
const CUSTOM_SCHEMAS_SOURCE = `
const customSchemas = {
  throwingFormat: [{type: 'object', properties: {a: {type: 'string', format: 'boom'}}, additionalProperties: {type: 'integer'}}, {formats: 'assert', customFormats: {boom: (text) => { if (text === 'x') throw new Error('boom'); return text.length < 3; }}}],
  numberFormat: [{type: 'array', items: {format: 'even'}}, {formats: 'assert', customFormats: {even: {type: 'number', validate: (value) => value % 2 === 0}}}],
  regexFormat: [{type: 'array', items: {type: 'string', format: 'hex'}}, {formats: 'assert', customFormats: {hex: /^[0-9a-f]+$/g}}],
  keyword: [{type: 'object', properties: {a: {type: 'string', shout: true}, b: {shout: true}}}, {keywords: [{keyword: 'shout', type: 'string', validate: (_schema, data) => { if (data === 'x') throw new Error('kw'); return data === data.toUpperCase(); }}]}],
  objectKeyword: [{type: 'array', items: {small: 2}}, {keywords: [{keyword: 'small', type: 'object', validate: (max, data) => Object.keys(data).length <= max}], limits: {maxAssembledValues: 3}}],
  throwsOnce: [{type: 'string', format: 'once'}, {formats: 'assert', customFormats: {once: (() => { let calls = 0; return () => { if (++calls === 1) throw new Error('first call'); return true; }; })()}}],
};
`;
const customSchemas = new Function(`${CUSTOM_SCHEMAS_SOURCE} return customSchemas;`)() as Record<string, [unknown, CompileOptions]>;

/** Each pair's verdict from validateText and parseText, or what they threw; the child prints the same. */
const VERDICTS_SOURCE = `
const verdictsOf = (compile, pairs) => {
  const validators = new Map();
  return pairs.map(({schema, options, custom, text}) => {
  const key = JSON.stringify([schema, options, custom]);
  let validator = validators.get(key);
  try {
    validator ??= custom === undefined ? compile(schema, options) : compile(...customSchemas[custom]);
  } catch (error) {
    return 'schema refused';
  }
  validators.set(key, validator);
  const attempt = (call) => { try { return String(call().valid); } catch (error) { return 'throws ' + error.message; } };
  return attempt(() => validator.validateText(text)) + ' ' + attempt(() => validator.parseText(text));
  });
};
`;
const verdictsOf = new Function('customSchemas', `${VERDICTS_SOURCE} return verdictsOf;`)(customSchemas) as (compile: unknown, pairs: Pair[]) => string[];

interface Pair {
  schema?: unknown;
  options?: CompileOptions;
  custom?: string;
  text: string;
}

/** The verdicts of the old path: the same source run where no code may be generated. */
function oldPathVerdicts(pairs: Pair[]): string[] {
  const source = `import {compile} from ${JSON.stringify(fileURLToPath(new URL('../src/index.ts', import.meta.url)))};
import {generatesCode} from ${JSON.stringify(fileURLToPath(new URL('../src/engine/programs.ts', import.meta.url)))};
${CUSTOM_SCHEMAS_SOURCE}
${VERDICTS_SOURCE}
let input = '';
for await (const chunk of process.stdin) input += chunk;
process.stdout.write(JSON.stringify({generatesCode, verdicts: verdictsOf(compile, JSON.parse(input))}));`;
  const child = spawnSync(process.execPath, ['--disallow-code-generation-from-strings', '--import', 'tsx', '--input-type=module', '-e', source], {input: JSON.stringify(pairs), encoding: 'utf8', maxBuffer: 1 << 28});
  assert.equal(child.status, 0, child.stderr);
  const {generatesCode: childGenerates, verdicts} = JSON.parse(child.stdout) as {generatesCode: boolean; verdicts: string[]};
  assert.equal(childGenerates, false, 'the child generates no code');
  return verdicts;
}

describe('the old path, where no code may be generated, says the same', () => {
  it('on random and targeted pairs, custom formats and keywords among them', () => {
    assert.equal(generatesCode, true, 'this process generates code');
    const pairs: Pair[] = [];
    const random = fc.sample(fc.tuple(caseArbitrary, fc.array(documentArbitrary, {minLength: 1, maxLength: 6})), {seed: 20261124, numRuns: 300});
    for (const [{schema, options}, texts] of random) for (const text of texts) pairs.push({schema, options, text});
    for (const [, schema, text] of DOCUMENTS) for (let at = 0; at <= text.length; at += 3) pairs.push({schema, text: text.slice(0, at)}, {schema, text: text.slice(0, at) + '\u0000' + text.slice(at + 1)});
    const customTexts: Record<string, string[]> = {
      throwingFormat: ['{"a": "ok"}', '{"a": "x"}', '{"a": "long"}', '{"b": 1, "a": "x"}', '{"b": "s", "a": "x"}', '{"a": "x", "a": "ok"}', '{"a": "ok", "b": 1, "b": 2}'],
      numberFormat: ['[2, 4]', '[2, 3]', '[2e0, 4.0, -0]', '["a", 3]', '[1e400]'],
      regexFormat: ['["ab", "0f"]', '["ab", "0g"]', '["ab", "ab"]'],
      keyword: ['{"a": "AB"}', '{"a": "ab"}', '{"a": "x"}', '{"b": 1}', '{"b": "X", "a": "\\u0041"}', '{"a": "A", "a": "A"}'],
      objectKeyword: ['[{"a": 1}]', '[{"a": 1, "b": 2, "c": 3}]', '[{"a": {"b": {"c": 1}}}]', '[{"a": 1, "a": 1}]'],
    };
    for (const [custom, texts] of Object.entries(customTexts)) for (const text of texts) pairs.push({custom, text});
    const old = oldPathVerdicts(pairs);
    const now = verdictsOf(compile, pairs);
    const differ = pairs.filter((_, index) => old[index] !== now[index]).map((pair, index) => `${pair.custom ?? JSON.stringify(pair.schema)} ${shown(pair.text)}: now ${now[index]}, old ${old[index]}`);
    console.log(`old path: ${pairs.length} pairs, ${now.filter((verdict) => verdict.startsWith('true')).length} valid now`);
    assert.deepEqual(differ, []);
  });
});

describe('custom formats and keywords with the code', () => {
  it('a format that throws: validateText and parseText throw what it threw', () => {
    const [schema, options] = customSchemas.throwingFormat!;
    const validator = compile(schema, options);
    for (const text of ['{"a": "x"}', '{"b": 1, "a": "x"}']) {
      assert.throws(() => validator.validateText(text), /boom/);
      assert.throws(() => validator.parseText(text), /boom/);
    }
    assert.equal(validator.validateText('{"a": "ok"}').valid, true);
  });

  it('a format that throws on its first call only: validateText throws it, as the old path does, not called again', () => {
    const pair: Pair = {custom: 'throwsOnce', text: '"a"'};
    // Old: 'throws first call true' (validateText throws; parseText, its second call, passes). Now: 'true true'.
    assert.deepEqual(verdictsOf(compile, [pair]), oldPathVerdicts([pair]));
  });
});
