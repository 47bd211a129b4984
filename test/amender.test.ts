// src/engine/amender.ts: the value options change the tokens before either engine sees them. What
// each option does is tested with its keyword (test/keywords/type, properties, items,
// additionalProperties); here, what holds across them: every mode hands on the same value, a
// removed member is skipped as it streams, the value given to `validate` changes in place, and
// the places where we differ from ajv on purpose, each with ajv's answer beside ours.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {Ajv} from 'ajv';
import {compile, tokenValidator} from '../src/index.js';
import {AmendPlans, Amender} from '../src/engine/amender.js';
import {ApplicationCount} from '../src/engine/evaluator.js';
import {Scope} from '../src/engine/dynamicScope.js';
import {KeyPlans} from '../src/engine/keyPlan.js';
import {compileSchema} from '../src/compile/compile.js';
import {defaultLimits} from '../src/json/limits.js';
import {Tokenizer} from '../src/json/tokenizer.js';
import type {CompileOptions, TokenSink} from '../src/types.js';
import {amended} from './keywords/check.js';

type ValueOptions = Pick<CompileOptions, 'coerceTypes' | 'useDefaults' | 'removeAdditional'>;

/** The options a Fastify route validates with by default. */
const fastify: ValueOptions = {coerceTypes: 'array', useDefaults: true, removeAdditional: true};

/** ajv's verdict and value with the same options (its root value through a holder). */
function ajvAmended(schema: object, value: unknown, options: ValueOptions): {valid: boolean; value: unknown} {
  const validate = new Ajv({...options, strict: false}).compile(schema);
  const holder = {value: structuredClone(value)};
  const valid = validate(holder.value, {instancePath: '', parentData: holder, parentDataProperty: 'value', rootData: holder, dynamicAnchors: {}});
  return {valid, value: holder.value};
}

/** The tokens an amender lets through, as written calls. */
class Recorder implements TokenSink {
  readonly calls: string[] = [];
  startObject(): void {
    this.calls.push('{');
  }
  endObject(): void {
    this.calls.push('}');
  }
  startArray(): void {
    this.calls.push('[');
  }
  endArray(): void {
    this.calls.push(']');
  }
  keyValue(key: string): void {
    this.calls.push(`key ${key}`);
  }
  stringValue(value: string): void {
    this.calls.push(JSON.stringify(value));
  }
  numberValue(text: string): void {
    this.calls.push(text);
  }
  nullValue(): void {
    this.calls.push('null');
  }
  trueValue(): void {
    this.calls.push('true');
  }
  falseValue(): void {
    this.calls.push('false');
  }
}

/** What an amender for `schema` under `options` passes on of `text`, written one character at a time. */
function passedOn(schema: object, options: CompileOptions, text: string): {calls: string[]; amender: Amender} {
  const {root} = compileSchema(schema, options);
  const recorder = new Recorder();
  const amender = new Amender(new AmendPlans(root, new KeyPlans(), new Scope(null, null)), defaultLimits, (pattern, name) => pattern.test(name), new ApplicationCount(defaultLimits.maxApplications), false);
  const tokenizer = new Tokenizer(recorder, defaultLimits);
  tokenizer.redirect(amender.begin(recorder, tokenizer, true));
  for (const character of text) tokenizer.write(character);
  tokenizer.end();
  return {calls: recorder.calls, amender};
}

describe('the value options in every mode', () => {
  const route = {
    type: 'object',
    properties: {name: {type: 'string'}, n: {type: 'integer'}, role: {enum: ['user', 'admin'], default: 'user'}},
    required: ['name'],
    additionalProperties: false,
  };

  test("Fastify's defaults: the bodies of the issue, as plain Fastify (ajv) hands them on", () => {
    for (const text of ['{"name":"a","n":"5"}', '{"name":"a","extra":1}', '{"name":"a"}', '{"name":"a","n":"x"}']) {
      const ours = amended(route, text, fastify);
      const theirs = ajvAmended(route, JSON.parse(text), fastify);
      assert.equal(ours.valid, theirs.valid, text);
      if (ours.valid) assert.deepEqual(ours.value, theirs.value, text);
    }
    assert.deepEqual(amended(route, '{"name":"a","n":"5"}', fastify).value, {name: 'a', n: 5, role: 'user'});
    assert.deepEqual(amended(route, '{"name":"a","extra":1}', fastify).value, {name: 'a', role: 'user'});
  });

  test('validate changes the value it is given, in place, and hands it on as Result.value', () => {
    const validator = compile(route, fastify);
    const body = {name: 'a', n: '5', extra: {deep: [1]}};
    const result = validator.validate(body);
    assert.equal(result.value, body);
    assert.deepEqual(body, {name: 'a', n: 5, role: 'user'});
    // A root scalar cannot change in place: the coerced value is Result.value alone.
    const scalar = compile({type: 'integer'}, {coerceTypes: true}).validate('5');
    assert.deepEqual(scalar, {valid: true, errors: [], value: 5});
  });

  test('an invalid value is changed as far as the amendments go, and its errors are about that value', () => {
    const body = {name: 1, n: 'x', extra: 1};
    const result = compile(route, {...fastify, allErrors: true}).validate(body);
    assert.equal(result.valid, false);
    assert.deepEqual(body, {name: '1', n: 'x', role: 'user'});
    assert.deepEqual(result.errors.map((unit) => unit.instanceLocation), ['/n']);
  });

  test('a "__proto__" key is a property like any other: removed, kept or defaulted without touching a prototype', () => {
    const schema = {properties: {['__proto__']: {type: 'integer', default: 1}, a: {}}, additionalProperties: false};
    const kept = amended(schema, '{"__proto__": "7", "b": 1}', fastify);
    assert.deepEqual(Object.getOwnPropertyDescriptor(kept.value, '__proto__')?.value, 7);
    const added = amended(schema, '{}', fastify);
    assert.deepEqual(Object.getOwnPropertyDescriptor(added.value, '__proto__')?.value, 1);
    assert.equal(Object.getPrototypeOf(added.value), Object.prototype);
    const removed = amended({properties: {a: {}}, additionalProperties: false}, '{"__proto__": {"polluted": 1}}', fastify);
    assert.deepEqual(Object.keys(removed.value as object), []);
    assert.equal(({} as {polluted?: unknown}).polluted, undefined);
  });

  test('stream-json tokens (tokenValidator) are amended too', () => {
    const tokens = tokenValidator(compile({properties: {n: {type: 'integer'}}}, {coerceTypes: true}));
    for (const token of [{name: 'startObject'}, {name: 'keyValue', value: 'n'}, {name: 'stringValue', value: '5'}, {name: 'endObject'}]) tokens.push(token);
    assert.equal(tokens.end().valid, true);
  });

  test('a session refuses at the byte that makes the amended value invalid, and says where', () => {
    const session = compile(route, fastify).session({parse: true});
    const text = '{"name":"a","n":"x","role":"user"}';
    let refusedAt = -1;
    [...text].forEach((character, index) => {
      if (!session.write(character) && refusedAt === -1) refusedAt = index;
    });
    assert.equal(refusedAt, text.indexOf('"x"') + 2);
    const [unit] = session.end().errors;
    assert.equal(unit?.instanceLocation, '/n');
    assert.equal(unit?.keyword, 'type');
  });
});

describe('a document valid as sent, under options that change no valid document', () => {
  /** `work`'s result, and how many times it called JSON.parse (the scanner's pass, then the value as sent). */
  function parses<T>(work: () => T): [T, number] {
    const parse = JSON.parse;
    let calls = 0;
    JSON.parse = ((...args: Parameters<typeof JSON.parse>) => (calls++, parse(...args))) as typeof JSON.parse;
    try {
      return [work(), calls];
    } finally {
      JSON.parse = parse;
    }
  }

  const schema = {type: 'object', properties: {n: {type: 'number'}, tags: {type: 'array', items: {type: 'string'}}}, additionalProperties: false};
  const texts = ['{"n": 5, "tags": ["a"]}', '{"n": "5"}', '{"n": 5, "x": 1}', '{"tags": "a"}', '{"n": [5]}', '[]', '{"n": 5'];

  test('is judged and parsed as sent, with the result the amender gives', () => {
    // The same schema with one default nobody reaches: the options could change a valid document.
    const amending = compile({...schema, $defs: {unused: {default: 1}}}, fastify);
    const asSent = compile(schema, fastify);
    for (const text of texts) {
      const [result, calls] = parses(() => asSent.parseText(text));
      const [expected, amendingCalls] = parses(() => amending.parseText(text));
      assert.deepEqual(result, expected, text);
      assert.deepEqual(asSent.validateText(text), amending.validateText(text), text);
      assert.equal(amendingCalls, 0, text);
      // Parsed as sent exactly when it was valid as sent.
      assert.equal(calls, text === texts[0] ? 1 : 0, text);
    }
  });

  test("a default anywhere, a reference that may lead to one, or removeAdditional: 'all' keeps the amender", () => {
    const valid = '{"n": 5}';
    for (const [variant, options] of [
      [{...schema, properties: {...schema.properties, m: {type: 'number', default: 2}}}, fastify],
      [{...schema, properties: {...schema.properties, m: {$ref: 'https://json-schema.org/draft/2020-12/schema'}}}, fastify],
      [schema, {...fastify, removeAdditional: 'all'}],
    ] as const) {
      const [, calls] = parses(() => compile(variant, options as ValueOptions).parseText(valid));
      assert.equal(calls, 0, JSON.stringify(variant));
    }
    // Without useDefaults a default changes nothing: the document is parsed as sent.
    const [result, calls] = parses(() => compile({...schema, properties: {...schema.properties, m: {default: 2}}}, {coerceTypes: 'array', removeAdditional: true}).parseText(valid));
    assert.deepEqual([result, calls], [{valid: true, errors: [], value: {n: 5}}, 1]);
  });
});

describe('streaming: what is held and what is skipped', () => {
  test('a member to be removed is skipped as it streams: none of its tokens goes on, none is held', () => {
    const {calls} = passedOn({properties: {a: {}}, additionalProperties: false}, {removeAdditional: true}, '{"a": 1, "big": {"x": [1, 2, {"y": "z"}]}, "b": 2}');
    assert.deepEqual(calls, ['{', 'key a', '1', '}']);
  });

  test("'failing' holds a member's tokens until its value is judged, then lets them through or drops them", () => {
    const schema = {additionalProperties: {type: 'array', items: {type: 'integer'}}};
    const {calls} = passedOn(schema, {removeAdditional: 'failing', coerceTypes: true}, '{"ok": [1, "2"], "bad": [1, "x"]}');
    assert.deepEqual(calls, ['{', 'key ok', '[', '1', '2', ']', '}']);
  });

  test("'array' holds an array's first scalar until the next token says whether it was alone", () => {
    const schema = {properties: {n: {type: 'integer'}, list: {type: 'integer'}}};
    const {calls} = passedOn(schema, {coerceTypes: 'array'}, '{"n": ["5"], "list": [1, 2]}');
    assert.deepEqual(calls, ['{', 'key n', '5', 'key list', '[', '1', '2', ']', '}']);
  });

  test('defaults go in as the object closes, after what was sent', () => {
    const {calls} = passedOn({properties: {a: {default: {b: [true]}}, c: {}}}, {useDefaults: true}, '{"c": null}');
    assert.deepEqual(calls, ['{', 'key c', 'null', 'key a', '{', 'key b', '[', 'true', ']', '}', '}']);
  });
});

describe('where we differ from ajv on purpose (ajv changes the value while it tries, so its answer depends on its order)', () => {
  // Each case: ajv's answer, asserted so that a change in ajv shows here, and ours.

  test('inside anyOf/oneOf a value is judged as it came: ajv coerces in every branch it tries', () => {
    const schema = {anyOf: [{type: 'integer'}, {type: 'null'}]};
    assert.deepEqual(ajvAmended(schema, '5', {coerceTypes: true}), {valid: true, value: 5});
    assert.equal(amended(schema, '"5"', {coerceTypes: true}).valid, false);
    // The same schema written as one type list is coerced.
    assert.deepEqual(amended({type: ['integer', 'null']}, '"5"', {coerceTypes: true}).value, 5);
  });

  test('inside anyOf/oneOf nothing is removed: ajv removes what a branch it merely tried calls additional', () => {
    const schema = {anyOf: [{properties: {a: {}}, additionalProperties: false}, {properties: {b: {}}, additionalProperties: false}]};
    assert.deepEqual(ajvAmended(schema, {b: 1}, {removeAdditional: true}), {valid: true, value: {}});
    assert.deepEqual(amended(schema, '{"b": 1}', {removeAdditional: true}), {valid: true, value: {b: 1}, errors: []});
  });

  test('keywords judge the object after removal: ajv counts properties (and checks required, propertyNames) before', () => {
    const schema = {properties: {a: {}}, additionalProperties: false, maxProperties: 1};
    assert.equal(ajvAmended(schema, {a: 1, b: 2}, {removeAdditional: true}).valid, false);
    assert.deepEqual(amended(schema, '{"a": 1, "b": 2}', {removeAdditional: true}).value, {a: 1});
    const required = {required: ['b'], properties: {a: {}}, additionalProperties: false};
    assert.deepEqual(ajvAmended(required, {a: 1, b: 2}, {removeAdditional: true}), {valid: true, value: {a: 1}});
    assert.equal(amended(required, '{"a": 1, "b": 2}', {removeAdditional: true}).valid, false);
  });

  test('one value, coerced once for all: ajv judges each subschema on the value as the one before left it', () => {
    const schema = {properties: {x: {type: 'integer'}}, patternProperties: {'^x': {type: 'string'}}};
    assert.deepEqual(ajvAmended(schema, {x: null}, {coerceTypes: true}), {valid: true, value: {x: '0'}});
    assert.equal(amended(schema, '{"x": null}', {coerceTypes: true}).valid, false);
    const constant = {const: {n: 5}, properties: {n: {type: 'integer'}}};
    assert.equal(ajvAmended(constant, {n: '5'}, {coerceTypes: true}).valid, false);
    assert.deepEqual(amended(constant, '{"n": "5"}', {coerceTypes: true}).value, {n: 5});
  });
});
