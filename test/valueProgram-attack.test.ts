// Value mode's generated code (src/engine/programs.ts) attacked from outside: only its pass is
// trusted, so a pass on a value the evaluator (the reference) finds invalid, or on a value that is
// not JSON within the limits, is the one bug that matters. Random schemas over the keywords the
// code covers, with random values through one validator in turn; then hostile names, values and
// options one by one. Each compares the code's verdict, `validate()` and the evaluator's alone.
//

import assert from 'node:assert/strict';
import fc from 'fast-check';
import {describe, it} from 'node:test';
import {compileSchema} from '../src/compile/compile.js';
import {CheckerCache} from '../src/engine/checkerCache.js';
import {ProgramState} from '../src/engine/programs.js';
import {HeldScalar} from '../src/engine/scalar.js';
import {Member} from '../src/engine/shape.js';
import {compile} from '../src/index.js';
import {defaultLimits} from '../src/json/limits.js';
import {eventsVerdictOf} from './support/evaluatorVerdict.js';
import {property} from './support/property.js';

type Options = NonNullable<Parameters<typeof compileSchema>[1]>;

/** Each way of judging a value: the generated code alone, `validate()`, the evaluator alone. */
interface Judges {
  readonly program: (value: unknown) => boolean;
  readonly validate: (value: unknown) => boolean;
  readonly evaluator: (value: unknown) => boolean;
}

function judgesOf(schema: unknown, options: Options = {}): Judges {
  const limits = {...defaultLimits, ...options.limits};
  const compiled = compileSchema(schema, options);
  const cache = new CheckerCache();
  const program = cache.valueProgramOf(new Member(-1, [compiled.root], [-1], [cache.documentScope], cache.scalarPlans), limits);
  assert.ok(program !== null, 'no code generated where the runtime allows it');
  const held = new HeldScalar();
  const validator = compile(schema, options);
  return {
    // A throw is no pass: the checker catches it and reads the value again.
    program: (value) => {
      try {
        return program(value, held, 0, new ProgramState()) >= 0;
      } catch {
        return false;
      }
    },
    validate: (value) => validator.validate(value).valid,
    evaluator: eventsVerdictOf(schema, options),
  };
}

interface Verdicts {
  program: boolean;
  validate: boolean;
  evaluator: boolean;
}

/**
 * The three verdicts on values `make` makes afresh for each (a value with getters or traps may
 * change as it is read), with a pass of the code only for valid values, and `validate()` as the
 * evaluator says.
 */
function assertSound(schema: unknown, make: () => unknown, options: Options = {}, where = ''): Verdicts {
  const judges = judgesOf(schema, options);
  const verdicts = {program: judges.program(make()), validate: judges.validate(make()), evaluator: judges.evaluator(make())};
  const what = `${where} ${JSON.stringify(schema).slice(0, 200)}`;
  assert.ok(!verdicts.program || verdicts.evaluator, `false pass of the generated code: ${what}`);
  assert.equal(verdicts.validate, verdicts.evaluator, `validate() and the evaluator differ: ${what}`);
  return verdicts;
}

// ---------------------------------------------------------------------------------------------
// Random schemas and values

/** Names schemas and values share, hostile ones among them. */
const NAMES = ['a', 'b', 'c', '0', '', '__proto__', 'constructor', 'toString', 'hasOwnProperty', '\u2028', '\ud800', '"', '\\', '`', '${a}', '*/'];
const SCALARS: unknown[] = [0, 1, -1, 2, 2.5, -0, 0.1, 0.3, 0.30000000000000004, 1e21, 2 ** 53 + 2, 1e-7, 'a', 'b', '', 'ab', 'abc', '2020-01-01', 'a@b.c', '1.2.3.4', '\ud800', '😀', '\u2028', null, true, false];
const TYPES = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'];
const PATTERNS = ['^a', 'b$', '^[a-c]*$', '\\d', '^.{0,2}$', '^$', '_'];
const FORMATS = ['date', 'email', 'ipv4', 'uuid', 'hostname'];

const nameArbitrary = fc.oneof({weight: 6, arbitrary: fc.constantFrom(...NAMES)}, {weight: 1, arbitrary: fc.string({maxLength: 3})});
const scalarArbitrary = fc.oneof(
  {weight: 5, arbitrary: fc.constantFrom(...SCALARS)},
  {weight: 2, arbitrary: fc.integer({min: -4, max: 4})},
  {weight: 1, arbitrary: fc.double({noNaN: true, noDefaultInfinity: true})},
  {weight: 1, arbitrary: fc.string({maxLength: 4})},
);

/** JSON values over the shared names and scalars, as JSON.parse makes them (own `__proto__` included). */
const { value: valueArbitrary } = fc.letrec((tie) => ({
  value: fc.oneof({depthSize: 'small', withCrossShrink: true}, scalarArbitrary, tie('array'), tie('object')),
  array: fc.array(tie('value'), {maxLength: 4}),
  object: fc.array(fc.tuple(nameArbitrary, tie('value')), {maxLength: 4}).map((entries) => Object.fromEntries(entries)),
}));

const count = fc.integer({min: 0, max: 3});
const names = fc.uniqueArray(nameArbitrary, {maxLength: 3});
const nameMap = <T>(values: fc.Arbitrary<T>): fc.Arbitrary<Record<string, T>> => fc.array(fc.tuple(nameArbitrary, values), {minLength: 1, maxLength: 3}).map((entries) => Object.fromEntries(entries));

/** The keywords of a schema that are not applicators. */
const assertions: fc.Arbitrary<[string, unknown]>[] = [
  fc.tuple(fc.constant('type'), fc.oneof(fc.constantFrom(...TYPES), fc.uniqueArray(fc.constantFrom(...TYPES), {minLength: 1, maxLength: 3}))),
  fc.tuple(fc.constant('enum'), fc.array(fc.oneof({weight: 3, arbitrary: scalarArbitrary}, {weight: 1, arbitrary: valueArbitrary}), {minLength: 1, maxLength: 4})),
  fc.tuple(fc.constant('const'), fc.oneof({weight: 3, arbitrary: scalarArbitrary}, {weight: 1, arbitrary: valueArbitrary})),
  fc.tuple(fc.constantFrom('minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'), fc.constantFrom(-1, 0, 0.5, 1, 2, 1e21)),
  fc.tuple(fc.constant('multipleOf'), fc.constantFrom(1, 2, 0.5, 0.1, 3, 1e-8)),
  fc.tuple(fc.constantFrom('minLength', 'maxLength', 'minProperties', 'maxProperties', 'minItems', 'maxItems'), count),
  fc.tuple(fc.constant('pattern'), fc.constantFrom(...PATTERNS)),
  fc.tuple(fc.constant('format'), fc.constantFrom(...FORMATS)),
  fc.tuple(fc.constant('required'), names),
  fc.tuple(fc.constant('dependentRequired'), nameMap(names)),
  fc.tuple(fc.constant('uniqueItems'), fc.boolean()),
  fc.tuple(fc.constantFrom('minContains', 'maxContains'), count),
];

/** Schemas nested `depth` applicators deep at most, `$ref`s to `#/$defs/d0` and `d1` among them. */
function schemaArbitrary(depth: number): fc.Arbitrary<unknown> {
  const leaf = fc.array(fc.oneof(...assertions), {maxLength: 3}).map((entries) => Object.fromEntries(entries));
  const ref = fc.constantFrom({$ref: '#/$defs/d0'}, {$ref: '#/$defs/d1'});
  if (depth <= 0) return fc.oneof({weight: 1, arbitrary: fc.boolean()}, {weight: 1, arbitrary: ref}, {weight: 6, arbitrary: leaf});
  const sub = schemaArbitrary(depth - 1);
  const branches = fc.array(sub, {minLength: 1, maxLength: 3});
  const applicators: fc.Arbitrary<[string, unknown]>[] = [
    fc.tuple(fc.constant('properties'), nameMap(sub)),
    fc.tuple(fc.constant('patternProperties'), fc.array(fc.tuple(fc.constantFrom(...PATTERNS), sub), {minLength: 1, maxLength: 2}).map((entries) => Object.fromEntries(entries))),
    fc.tuple(fc.constant('additionalProperties'), sub),
    fc.tuple(fc.constant('dependentSchemas'), nameMap(sub)),
    fc.tuple(fc.constant('items'), sub),
    fc.tuple(fc.constant('prefixItems'), branches),
    fc.tuple(fc.constantFrom('allOf', 'anyOf', 'oneOf'), branches),
    fc.tuple(fc.constantFrom('not', 'if', 'then', 'else'), sub),
    fc.tuple(fc.constant('$ref'), fc.constantFrom('#/$defs/d0', '#/$defs/d1')),
    fc.tuple(fc.constantFrom('propertyNames', 'contains', 'unevaluatedProperties', 'unevaluatedItems'), sub),
  ];
  const keywords = fc.array(fc.oneof({weight: 2, arbitrary: fc.oneof(...applicators)}, {weight: 1, arbitrary: fc.oneof(...assertions)}), {maxLength: 4});
  return fc.oneof({weight: 1, arbitrary: sub}, {weight: 4, arbitrary: keywords.map((entries) => Object.fromEntries(entries))});
}

/** A schema with its definitions (which may refer to themselves and to each other), and options. */
const caseArbitrary = fc
  .record({
    body: schemaArbitrary(3),
    d0: schemaArbitrary(2),
    d1: schemaArbitrary(2),
    assertFormats: fc.boolean(),
    limits: fc.option(fc.record({maxDepth: fc.integer({min: 1, max: 4}), maxStringLength: fc.integer({min: 0, max: 4}), maxKeyLength: fc.integer({min: 0, max: 2}), maxProperties: fc.integer({min: 0, max: 4})}, {requiredKeys: []}), {freq: 3}),
  })
  .map(({body, d0, d1, assertFormats, limits}) => ({
    schema: typeof body === 'object' ? {...(body as object), $defs: {d0, d1}} : {allOf: [body], $defs: {d0, d1}},
    options: {...(assertFormats ? {formats: 'assert' as const} : {}), ...(limits === null ? {} : {limits})} satisfies Options,
  }));

const describeValue = (value: unknown): string => JSON.stringify(value, (_, inner: unknown) => (typeof inner === 'number' && Object.is(inner, -0) ? '-0' : inner));

describe('generated code against the evaluator on random schemas and values', () => {
  it('passes only values the evaluator finds valid, and validate() says what the evaluator says, value after value', () => {
    let pairs = 0;
    let passes = 0;
    let valid = 0;
    let refused = 0;
    fc.assert(
      fc.property(caseArbitrary, fc.array(valueArbitrary, {minLength: 1, maxLength: 10}), ({schema, options}, values) => {
        let judges: Judges;
        try {
          judges = judgesOf(schema, options);
        } catch {
          refused++;
          return;
        }
        const where = (value: unknown): string => `${JSON.stringify(schema)} ${JSON.stringify(options)}: ${describeValue(value)}`;
        const verdicts = values.map((value) => {
          const verdict = judges.evaluator(value);
          const passed = judges.program(value);
          pairs++;
          if (passed) passes++;
          if (verdict) valid++;
          assert.ok(!passed || verdict, `false pass of the generated code: ${where(value)}`);
          assert.equal(judges.validate(value), verdict, `validate(): ${where(value)}`);
          return verdict;
        });
        // Again, last to first, through the same validator and code: nothing of one value stays for the next.
        for (let i = values.length - 1; i >= 0; i--) {
          assert.equal(judges.validate(values[i]), verdicts[i], `validate() again: ${where(values[i])}`);
          assert.ok(!judges.program(values[i]) || verdicts[i], `false pass again: ${where(values[i])}`);
        }
      }),
      property(1000),
    );
    console.log(`random: ${pairs} values, ${valid} valid, ${passes} passed by the code; ${refused} schemas refused at compile`);
    // A property that never sees a pass would prove nothing.
    assert.ok(passes > pairs / 10, `the code passed only ${passes} of ${pairs}`);
  });
});

// ---------------------------------------------------------------------------------------------
// Hostile cases

const HOSTILE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '', '\u2028', '\u2029', '\ud800', '\udfff', '\udfff\ud800', '"', "'", '\\', '`', '${globalThis.injected = 1}', '*/', '/*', '\n', '\r', '\0', '</script>', '"+(globalThis.injected=1)+"'];

describe('names no code should be written from', () => {
  for (const padding of [0, 30]) {
    it(`as properties, required, dependentRequired and dependentSchemas (${padding === 0 ? 'listed in the code' : 'looked up in a map'})`, () => {
      const names = [...HOSTILE_NAMES, ...Array.from({length: padding}, (_, index) => `p${index}`)];
      const schema = {
        properties: Object.fromEntries(names.map((name) => [name, {type: 'integer'}])),
        required: names.slice(0, 10),
        dependentRequired: Object.fromEntries(names.map((name, index) => [name, [names[(index + 1) % names.length]!]])),
        dependentSchemas: Object.fromEntries(names.map((name) => [name, {minProperties: 2}])),
        additionalProperties: false,
      };
      const whole = Object.fromEntries(names.map((name, index) => [name, index]));
      const verdicts = assertSound(schema, () => whole, {}, 'all names');
      assert.equal(verdicts.program, true, 'the code decides a valid value of this schema');
      for (const name of names) {
        assertSound(schema, () => ({...whole, [name]: 'x'}), {}, `${JSON.stringify(name)} wrong`);
        assertSound(schema, () => Object.fromEntries(Object.entries(whole).filter(([key]) => key !== name)), {}, `${JSON.stringify(name)} missing`);
        assertSound(schema, () => Object.fromEntries([[name, 1]]), {}, `${JSON.stringify(name)} alone`);
      }
      assert.equal((globalThis as {injected?: unknown}).injected, undefined);
    });
  }

  it('as const and enum members, and names only documents send', () => {
    for (const name of HOSTILE_NAMES) {
      const literal = Object.fromEntries([[name, [name]]]);
      for (const schema of [{const: literal}, {enum: [literal, 1]}, {properties: {a: {const: literal}}}, {patternProperties: {'.': {type: 'string'}}}, {additionalProperties: {type: 'integer'}}]) {
        for (const value of [literal, Object.fromEntries([[name, 1]]), Object.fromEntries([[name, name]]), {a: literal}]) assertSound(schema, () => value, {}, JSON.stringify(name));
      }
    }
    assert.equal((globalThis as {injected?: unknown}).injected, undefined);
  });
});

describe('values that are not plain JSON', () => {
  const schemas: unknown[] = [{}, true, {type: 'object'}, {required: ['a']}, {properties: {a: {type: 'integer'}}, additionalProperties: false}, {maxProperties: 1}, {items: {type: 'integer'}}, {maxItems: 1}, {minItems: 2}];

  const thrower = (): unknown => ({
    get a(): number {
      throw new Error('getter');
    },
  });
  const proxy = (): unknown => new Proxy({a: 1}, {});
  const revoked = (): unknown => {
    const {proxy: revokedProxy, revoke} = Proxy.revocable({a: 1}, {});
    revoke();
    return revokedProxy;
  };
  const symbols = (): unknown => ({a: 1, [Symbol('b')]: 'x'});
  const sparse = (): unknown => [1, , 2]; // eslint-disable-line no-sparse-arrays
  const extra = (): unknown => Object.assign([1, 2], {b: 'x'});
  const frozen = (): unknown => Object.freeze({a: Object.freeze([1])});
  const bare = (): unknown => Object.assign(Object.create(null), {a: 1});
  class Point {
    a = 1;
  }
  const values: [string, () => unknown][] = [
    ['a getter that throws', thrower],
    ['a Proxy', proxy],
    ['a revoked Proxy', revoked],
    ['a revoked Proxy inside', () => ({a: revoked()})],
    ['symbol keys', symbols],
    ['a sparse array', sparse],
    ['an array with a named property', extra],
    ['frozen', frozen],
    ['Object.create(null)', bare],
    ['a class instance', () => new Point()],
    ['a Date', () => new Date(0)],
    ['a Map', () => new Map([['a', 1]])],
    ['a boxed string', () => new String('ab')], // eslint-disable-line no-new-wrappers
    ['a typed array', () => new Uint8Array(2)],
    ['NaN', () => ({a: NaN})],
    ['Infinity', () => [Infinity]],
    ['undefined in an array', () => [undefined]],
    ['a function', () => ({a: () => 1})],
    ['a bigint', () => ({a: 1n})],
    ['a symbol', () => [Symbol('a')]],
    ['an object from another prototype', () => Object.assign(Object.create({b: 1}), {a: 1})],
    ['an array subclass', () => Object.setPrototypeOf([1, 2], class extends Array {}.prototype)],
  ];
  const notJson = new Set(['a getter that throws', 'a revoked Proxy', 'a revoked Proxy inside', 'a sparse array', 'a class instance', 'a Date', 'a Map', 'a boxed string', 'a typed array', 'NaN', 'Infinity', 'undefined in an array', 'a function', 'a bigint', 'a symbol', 'an object from another prototype']);

  for (const [label, make] of values) {
    it(label, () => {
      for (const schema of schemas) {
        const verdicts = assertSound(schema, make, {}, label);
        if (notJson.has(label)) assert.equal(verdicts.program, false, `the code passed what is not JSON: ${label}`);
      }
    });
  }

  it('a Proxy whose prototype changes between reads: the code does not see properties the walk does not', () => {
    const make = (): unknown => {
      const inherited = Object.assign(Object.create(null), {x: 1});
      let reads = 0;
      return new Proxy({}, {getPrototypeOf: () => (++reads % 2 === 1 ? Object.prototype : inherited)});
    };
    for (const schema of [{required: ['x']}, {minProperties: 1}, {properties: {y: {required: ['x']}}}]) assertSound(schema, make, {}, 'prototype trap');
  });
});

describe('limits, at them and one past', () => {
  const limits = {maxDepth: 3, maxStringLength: 4, maxKeyLength: 3, maxProperties: 3};
  const nest = (levels: number): unknown => (levels === 0 ? 1 : levels % 2 === 0 ? [nest(levels - 1)] : {a: nest(levels - 1)});
  const cases: [string, unknown, boolean][] = [
    ['depth at maxDepth', nest(3), true],
    ['depth past maxDepth', nest(4), false],
    ['empty containers at maxDepth', [[[]]], true],
    ['empty containers past maxDepth', [[[[]]]], false],
    ['string at maxStringLength', 'abcd', true],
    ['string past maxStringLength', 'abcde', false],
    ['string of surrogate pairs past maxStringLength', '😀😀😀', false],
    ['key at maxKeyLength', {abc: 1}, true],
    ['key past maxKeyLength', {abcd: 1}, false],
    ['key past maxKeyLength with an undefined value', {abcd: undefined}, true],
    ['properties at maxProperties', {a: 1, b: 2, c: 3}, true],
    ['properties past maxProperties', {a: 1, b: 2, c: 3, d: 4}, false],
    ['properties past maxProperties, one undefined', {a: 1, b: 2, c: 3, d: undefined}, false],
    ['an item past maxStringLength', ['abcde'], false],
  ];
  const schemas: unknown[] = [{}, {type: ['object', 'array', 'string']}, {properties: {a: {}}, additionalProperties: true}, {additionalProperties: {type: ['integer', 'array', 'object']}, items: {}}];
  for (const [label, value, within] of cases) {
    it(label, () => {
      for (const schema of schemas) {
        const verdicts = assertSound(schema, () => value, {limits}, label);
        if (!within) assert.equal(verdicts.program, false, `the code passed a value past the limits: ${label}`);
        else if (schema !== schemas[1] || typeof value !== 'number') assert.equal(verdicts.evaluator, true, label);
      }
    });
  }

  it('a limit given as text is refused by compile, never written into the code', () => {
    delete (globalThis as {injected?: unknown}).injected;
    for (const limit of ['maxStringLength', 'maxKeyLength', 'maxProperties', 'maxDepth']) {
      assert.throws(() => compile({type: ['string', 'object']}, {limits: {[limit]: '99||(globalThis.injected=1)' as unknown as number}}).validate({a: 'x'}), TypeError);
      assert.equal((globalThis as {injected?: unknown}).injected, undefined, `code from limits.${limit} ran`);
    }
  });
});

describe('values that change as they are read', () => {
  it('Object.prototype given an enumerable property by a getter while the value is read: validate() says what the evaluator says', () => {
    const make = (): unknown => ({
      get a(): number {
        (Object.prototype as Record<string, unknown>).x = 1;
        return 1;
      },
      b: {},
    });
    try {
      // The code reads the inherited name as the value's own; the checker, which asks it, looks
      // at Object.prototype again after the read and leaves such a value to the evaluator.
      for (const schema of [{properties: {b: {required: ['x']}}}, {properties: {b: {minProperties: 1}}}, {properties: {b: {dependentRequired: {x: ['y']}}}}]) {
        const judges = judgesOf(schema);
        assert.equal(judges.validate(make()), judges.evaluator(make()), JSON.stringify(schema));
        delete (Object.prototype as Record<string, unknown>).x;
      }
    } finally {
      delete (Object.prototype as Record<string, unknown>).x;
    }
  });

  it('Object.prototype polluted before validate(): the checker does not ask the code (which reads inherited names)', () => {
    (Object.prototype as Record<string, unknown>).x = 1;
    try {
      for (const schema of [{required: ['x']}, {minProperties: 1}, {additionalProperties: false}]) {
        const judges = judgesOf(schema);
        assert.equal(judges.validate({}), judges.evaluator({}), JSON.stringify(schema));
      }
    } finally {
      delete (Object.prototype as Record<string, unknown>).x;
    }
  });

  it('Array.prototype given an index, under a sparse array', () => {
    (Array.prototype as unknown as Record<number, unknown>)[1] = 'x';
    try {
      for (const schema of [{items: {type: 'integer'}}, {}]) assertSound(schema, () => [1, , 2], {}, 'array prototype'); // eslint-disable-line no-sparse-arrays
    } finally {
      delete (Array.prototype as unknown as Record<number, unknown>)[1];
    }
  });

  it('an array that grows as its first item is read: its length is read at each item', () => {
    const make = (): unknown => {
      const array: unknown[] = [];
      Object.defineProperty(array, 0, {get: () => (array.length < 2 && array.push('x'), 1), enumerable: true, configurable: true});
      return array;
    };
    for (const schema of [{maxItems: 1}, {items: {type: 'integer'}}]) assertSound(schema, make, {}, 'growing array');
  });
});

describe('custom formats and keywords', () => {
  it('a format that throws: never a pass, and validate() throws what it threw, as the evaluator does', () => {
    const options: Options = {formats: 'assert', customFormats: {boom: () => {
      throw new Error('boom');
    }}};
    const cases: [unknown, unknown][] = [[{format: 'boom'}, 'a'], [{properties: {a: {format: 'boom', maxLength: 3}}}, {a: 'b'}]];
    for (const [schema, value] of cases) {
      const judges = judgesOf(schema, options);
      const validator = compile(schema, options);
      assert.equal(judges.program(value), false);
      assert.throws(() => validator.validate(value), /boom/);
      assert.equal(validator.validate(1).valid, true);
      assert.equal(judges.program(1), true);
    }
  });

  it('a keyword that throws fails, as in the evaluator', () => {
    const options: Options = {keywords: [{keyword: 'boom', type: 'string', validate: () => {
      throw new Error('boom');
    }}]};
    for (const value of ['a', 1, {a: 'b'}, ['b']]) assertSound({boom: true, items: {boom: true}, properties: {a: {boom: true}}}, () => value, options, 'throwing keyword');
  });

  it('a format and a keyword that call validate() on their own validator again', () => {
    const inner: {validator: ReturnType<typeof compile> | null} = {validator: null};
    const reenter = (value: unknown): boolean => {
      if (value !== 'ok') inner.validator!.validate('ok');
      return true;
    };
    const cases: [unknown, Options][] = [
      [{format: 'again', maxLength: 3}, {formats: 'assert', customFormats: {again: reenter}}],
      [{allOf: [{format: 'again'}, {maxLength: 3}], properties: {a: {format: 'again', maxLength: 3}}}, {formats: 'assert', customFormats: {again: reenter}}],
      [{again: true, maxLength: 3, items: {again: true, maxLength: 3}}, {keywords: [{keyword: 'again', type: 'string', validate: (_: unknown, value: unknown) => reenter(value)}]}],
    ];
    for (const [schema, options] of cases) {
      const validator = compile(schema, options);
      inner.validator = validator;
      for (const value of ['toolong', 'ok', ['toolong'], {a: 'toolong'}, {a: 'ok'}]) {
        const judges = judgesOf(schema, options);
        assert.equal(validator.validate(value).valid, judges.evaluator(value), `${JSON.stringify(schema)}: ${JSON.stringify(value)}`);
      }
    }
  });
});

describe('one validator, many documents', () => {
  it('presence bits, flags and the held scalar do not carry from one document to the next', () => {
    const schema = {
      properties: {a: {type: 'string', maxLength: 2}, b: {type: 'integer'}},
      required: ['a'],
      dependentRequired: {b: ['c']},
      dependentSchemas: {c: {required: ['d']}},
      anyOf: [{required: ['a']}, {required: ['e']}],
      oneOf: [{properties: {a: {const: 'x'}}}, {properties: {a: {const: 'y'}}}],
      if: {required: ['f']},
      then: {required: ['g']},
      else: {not: {required: ['g']}},
    };
    const judges = judgesOf(schema);
    const validator = compile(schema);
    const documents = [{a: 'x'}, {a: 'x', b: 1}, {a: 'x', b: 1, c: 1}, {a: 'x', b: 1, c: 1, d: 1}, {a: 'z'}, {}, {a: 'y', f: 1}, {a: 'y', f: 1, g: 1}, {a: 'x', g: 1}, 'x', 1, null, [{a: 'x'}], {a: 'xyz'}];
    for (let round = 0; round < 3; round++) {
      for (const document of round === 1 ? [...documents].reverse() : documents) {
        const verdict = judges.evaluator(document);
        assert.ok(!judges.program(document) || verdict, `false pass: ${JSON.stringify(document)}`);
        assert.equal(validator.validate(document).valid, verdict, JSON.stringify(document));
      }
    }
  });
});

describe('wide and many-branched schemas', () => {
  const many = (count: number): string[] => Array.from({length: count}, (_, index) => `p${index}`);

  for (const count of [25, 1001]) {
    it(`${count} properties, every one required`, () => {
      const names = many(count);
      const schema = {properties: Object.fromEntries(names.map((name) => [name, {type: 'integer'}])), required: names};
      const whole = Object.fromEntries(names.map((name, index) => [name, index]));
      assert.equal(assertSound(schema, () => whole, {}, 'whole').program, true);
      for (const name of [names[0]!, names[24]!, names[count - 1]!]) {
        assertSound(schema, () => ({...whole, [name]: 'x'}), {}, `${name} wrong`);
        assertSound(schema, () => Object.fromEntries(Object.entries(whole).filter(([key]) => key !== name)), {}, `${name} missing`);
        assertSound(schema, () => ({...whole, [name]: undefined}), {}, `${name} undefined`);
      }
    });
  }

  it('more than 32 required names, presence words past the first', () => {
    const names = many(70);
    const schema = {required: names, dependentRequired: {p69: ['q'], p33: ['r']}};
    const whole = Object.fromEntries(names.map((name) => [name, 1]));
    assertSound(schema, () => whole, {}, 'all there');
    for (const name of ['p0', 'p31', 'p32', 'p33', 'p63', 'p64', 'p69']) assertSound(schema, () => Object.fromEntries(Object.entries(whole).filter(([key]) => key !== name)), {}, `${name} missing`);
    assertSound(schema, () => ({...whole, q: 1}), {}, 'q');
    assertSound(schema, () => ({...whole, q: 1, r: 1}), {}, 'q and r');
  });

  for (const keyword of ['anyOf', 'oneOf', 'allOf']) {
    it(`${keyword} of 40 branches: flags past 32, at the root and one level down`, () => {
      const branches = Array.from({length: 40}, (_, index) => ({properties: {k: {const: index}}, required: ['k']}));
      for (const schema of [{[keyword]: branches}, {properties: {a: {[keyword]: branches}}}, {items: {[keyword]: branches}}]) {
        for (const k of [0, 30, 31, 32, 33, 39, 40]) {
          for (const value of [{k}, {a: {k}}, [{k}], [{k}, {k: 31}]]) assertSound(schema, () => value, {}, `k ${k}`);
        }
      }
    });
  }

  it('flags 30 to 33 failing one level up: not, if/then/else and dependentSchemas at the edge of the first word', () => {
    for (const before of [28, 29, 30, 31, 32]) {
      const padding = Array.from({length: before}, () => ({type: 'object'}));
      const schema = {anyOf: [...padding, {properties: {a: {type: 'integer'}}}], not: {properties: {a: {const: 1}}}, if: {properties: {a: {minimum: 5}}}, then: {properties: {a: {maximum: 6}}}};
      for (const a of [1, 2, 5, 6, 7, 'x']) assertSound(schema, () => ({a}), {}, `padding ${before}, a ${String(a)}`);
    }
  });
});

describe('keywords the code leaves to the checker', () => {
  const cases: [unknown, unknown[]][] = [
    [{properties: {a: {}}, unevaluatedProperties: false}, [{a: 1}, {a: 1, b: 2}, {}]],
    [{anyOf: [{properties: {a: {type: 'integer'}}}], unevaluatedProperties: false}, [{a: 1}, {a: 'x'}, {b: 1}]],
    [{prefixItems: [{}], unevaluatedItems: false}, [[1], [1, 2], []]],
    [{uniqueItems: true}, [[1, 2], [1, 1], [{a: 1}, {a: 1}], [1, 1.0]]],
    [{contains: {type: 'string'}, minContains: 2}, [['a', 'b'], ['a', 1], []]],
    [{propertyNames: {maxLength: 1}}, [{a: 1}, {ab: 1}, {}]],
    [{properties: {a: {uniqueItems: true, contains: {const: 1}}}}, [{a: [1, 2]}, {a: [1, 1]}, {a: [2]}]],
    [{items: {propertyNames: {pattern: '^a'}}}, [[{a: 1}], [{b: 1}]]],
  ];
  for (const [schema, values] of cases) {
    it(JSON.stringify(schema), () => {
      for (const value of values) assertSound(schema, () => value, {}, JSON.stringify(value));
    });
  }
});

describe('dynamic references', () => {
  it('$dynamicRef (2020-12) and $recursiveRef (2019-09) over trees', () => {
    const dynamic = {
      $id: 'https://example.com/strict',
      $dynamicAnchor: 'node',
      $ref: 'https://example.com/tree',
      $defs: {tree: {$id: 'https://example.com/tree', $dynamicAnchor: 'node', type: 'object', properties: {data: true, children: {type: 'array', items: {$dynamicRef: '#node'}}}}},
      properties: {data: {type: 'integer'}},
    };
    const recursive = {
      $schema: 'https://json-schema.org/draft/2019-09/schema',
      $id: 'https://example.com/strict2',
      $recursiveAnchor: true,
      $ref: 'https://example.com/tree2',
      $defs: {tree2: {$id: 'https://example.com/tree2', $recursiveAnchor: true, type: 'object', properties: {data: true, children: {type: 'array', items: {$recursiveRef: '#'}}}}},
      properties: {data: {type: 'integer'}},
    };
    const values = [{data: 1}, {data: 'x'}, {data: 1, children: [{data: 2}]}, {data: 1, children: [{data: 'x'}]}, {data: 1, children: [{data: 2, children: [{data: 'x'}]}]}];
    for (const value of values) {
      assertSound(dynamic, () => value, {}, `$dynamicRef ${JSON.stringify(value)}`);
      assertSound(recursive, () => value, {draft: 'draft2019-09'}, `$recursiveRef ${JSON.stringify(value)}`);
    }
  });

  it('recursive $ref through $defs, and a $ref that applies itself in place', () => {
    const list = {$defs: {node: {type: 'object', properties: {value: {type: 'integer'}, next: {anyOf: [{type: 'null'}, {$ref: '#/$defs/node'}]}}, required: ['value']}}, $ref: '#/$defs/node'};
    const deep = (length: number, last: unknown): unknown => (length === 0 ? {value: last, next: null} : {value: length, next: deep(length - 1, last)});
    for (const value of [deep(0, 1), deep(5, 1), deep(5, 'x'), deep(60, 1), deep(60, 'x'), {value: 1, next: {}}]) assertSound(list, () => value, {}, 'list');
    const loop = {$defs: {a: {$ref: '#/$defs/b'}, b: {allOf: [{$ref: '#/$defs/a'}]}}, $ref: '#/$defs/a'};
    for (const value of [1, {}, []]) assertSound(loop, () => value, {}, 'loop');
  });
});
