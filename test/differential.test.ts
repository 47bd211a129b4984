// Differential property test: random schemas built from the object and conditional keywords of
// ../shared/spec/object-validation.md (plus a few scalar ones), random instances biased towards the
// names and values each schema mentions, and for every pair:
//   1. stream-schema's verdict equals ajv's (ajv 8, strict: false, allErrors: false);
//   2. value mode, validateText and a session fed random chunks (and 1-byte chunks for short texts)
//      agree on the verdict and on where the errors are (kind, keywordLocation, instanceLocation).
//   3. a naive reference evaluator written from the spec (below) agrees with stream-schema; it is the
//      judge when ajv disagrees: a disagreement passes only as a listed, explained ajv deviation.
// Seeded and deterministic: a fixed seed list for CI; DIFF_SEEDS=<n> runs seeds 1..n locally
// (DIFF_REPORT=<n> shows more failures). Failures are shrunk to a small schema and instance.

import assert from 'node:assert/strict';
import {after, describe, test} from 'node:test';
import Ajv from 'ajv';
import Ajv2019 from 'ajv/dist/2019.js';
import Ajv2020 from 'ajv/dist/2020.js';
import AjvDraft04 from 'ajv-draft-04';
import {compile} from '../src/index.js';
import type {Draft, Result, Validator} from '../src/types.js';
import {byteChunks, feed, random, randomChunks} from './support/chunks.js';

/**
 * Drafts with an ajv to compare against. Draft 4 runs against ajv-draft-04 with schemas in draft 4's
 * terms (no boolean subschemas but `additionalProperties: false`, no `const`, `propertyNames` or
 * numeric `exclusiveMinimum`); draft 6 against ajv's draft-07 with schemas that only use draft 6
 * keywords (no if/then/else), where the two drafts mean the same.
 */
const drafts = ['draft4', 'draft6', 'draft7', 'draft2019-09', 'draft2020-12'] as const satisfies readonly Draft[];
type TestedDraft = (typeof drafts)[number];

const defaultSeeds = [1, 2, 3, 4, 5, 6, 7, 8];
const seeds = process.env.DIFF_SEEDS === undefined ? defaultSeeds : Array.from({length: Number(process.env.DIFF_SEEDS)}, (_, index) => index + 1);
const schemasPerSeed = 40;
const instancesPerSchema = 12;
/** Texts up to this many bytes are also fed one byte at a time. */
const byteChunkLimit = 80;

type Json = null | boolean | number | string | Json[] | {[key: string]: Json};
type JsonObject = {[key: string]: Json};

// ---------------------------------------------------------------------------------------------
// ajv, one instance per draft

type AjvLike = {compile(schema: object | boolean): ((data: unknown) => boolean) & {errors?: unknown}};

function makeAjv(draft: TestedDraft): AjvLike {
  const options = {strict: false, allErrors: false, validateFormats: false} as const;
  if (draft === 'draft2020-12') return new Ajv2020.default(options) as unknown as AjvLike;
  if (draft === 'draft2019-09') return new Ajv2019.default(options) as unknown as AjvLike;
  if (draft === 'draft4') return new AjvDraft04.default(options) as unknown as AjvLike;
  return new Ajv.default(options) as unknown as AjvLike;
}

// ---------------------------------------------------------------------------------------------
// Known ajv deviations: pairs where ajv is wrong by the spec. Each has a reason and a fixed case
// proving the deviation still exists (the check fails when ajv is fixed, so the entry can go).

/** A generated pair on which ajv and stream-schema disagree. */
interface Pair {
  readonly draft: TestedDraft;
  readonly schema: Json;
  readonly instance: Json;
  readonly ajv: AjvVerdict;
  readonly ours: boolean;
}

interface KnownDeviation {
  /** A short name for the counts printed at the end. */
  readonly name: string;
  readonly reason: string;
  /** The smallest case we know, checked on its own below. */
  readonly draft: TestedDraft;
  readonly schema: Json;
  readonly instance: Json;
  /** What the spec says. */
  readonly valid: boolean;
  /** True when a generated disagreement is this deviation (and so stream-schema is right). */
  readonly matches: (pair: Pair, ajv: AjvLike) => boolean;
}

const knownDeviations: KnownDeviation[] = [
  {
    name: 'anyOf items not counted by unevaluatedItems',
    reason:
      'ajv rejects [1,2] for {anyOf: [{items: true}], unevaluatedItems: false}: 2020-12 core §11.2 says the items annotations of ' +
      'successful anyOf branches count, so every item is evaluated and the array is valid',
    draft: 'draft2020-12',
    schema: {anyOf: [{items: true}], unevaluatedItems: false},
    instance: [1, 2],
    valid: true,
    // The generator makes no array keywords, so generated pairs never hit this one.
    matches: () => false,
  },
  {
    name: 'failed if counted by unevaluatedProperties',
    reason:
      'ajv keeps the properties evaluated by a failing `if` when `then` or `else` has applicators: 2020-12 core §7.7.1.2 drops ' +
      'the annotations of failed subschemas and §11.3 lets unevaluatedProperties see only successful ones (spec §4.1 rule 4: ' +
      '"A then subschema contributes its properties only when its if validated"), so c is unevaluated and the object is invalid',
    draft: 'draft2020-12',
    schema: {if: {properties: {c: false}}, then: {anyOf: [{}]}, unevaluatedProperties: false},
    instance: {c: 0},
    valid: false,
    // Confirmed by ajv itself: it agrees with stream-schema once every if/then/else is written as
    // the equivalent anyOf (same verdict, same annotations), which does not trigger the bug.
    // When another ajv bug below spoils that rewrite (nested conditionals), recognised by shape and
    // direction: ajv accepts, and the schema has an if next to unevaluatedProperties.
    matches: (pair, ajv) =>
      containsKey(pair.schema, 'if') &&
      (ajvVerdict(ajv.compile(withoutIf(pair.schema) as object), pair.instance) === pair.ours ||
        (pair.ajv === true && containsKey(pair.schema, 'unevaluatedProperties'))),
  },
  {
    name: 'failed anyOf/oneOf branch counted by unevaluatedProperties',
    reason:
      'ajv counts the names that patternProperties matched in a failed anyOf/oneOf branch as evaluated: 2020-12 core ' +
      '§7.7.1.2 and §11.3 (spec §4.1 rule 4: the allowed set is what was successfully validated) say a failed branch ' +
      'evaluates nothing, so x-9 is unevaluated and the object is invalid',
    draft: 'draft2020-12',
    schema: {anyOf: [{patternProperties: {'^x-': false}}, {}], unevaluatedProperties: false},
    instance: {'x-9': 1},
    valid: false,
    // No rewrite sidesteps this one ($ref-ing the branch does not), so it is recognised by its
    // shape and direction: ajv accepts, and some anyOf/oneOf branch holds a patternProperties.
    matches: (pair) =>
      pair.ajv === true && !pair.ours && containsKey(pair.schema, 'unevaluatedProperties') && branchesContain(pair.schema, 'patternProperties'),
  },
  {
    name: 'dependentSchemas applied without its trigger',
    reason:
      'ajv lets an unevaluatedProperties inside dependentSchemas act although the trigger property is absent: 2020-12 ' +
      'core §10.2.2.4 and spec §4.1 rule 9 say the paired schema is then not applied, so x-1, evaluated by properties, ' +
      'passes and the object is valid',
    draft: 'draft2020-12',
    schema: {dependentSchemas: {a: {unevaluatedProperties: false}}, properties: {'x-1': true}, unevaluatedProperties: false},
    instance: {'x-1': false},
    valid: true,
    // Confirmed by ajv itself, with each dependentSchemas entry written as the equivalent
    // allOf [{if: {required: [name]}, then: schema}].
    matches: (pair, ajv) =>
      containsKey(pair.schema, 'dependentSchemas') && ajvVerdict(ajv.compile(withoutDependentSchemas(pair.schema) as object), pair.instance) === pair.ours,
  },
  {
    name: 'evaluated properties leak from one property value to the next',
    reason:
      'ajv does not reset the evaluated properties of a subschema that it applies to several property values in one ' +
      'object: after a non-object value (a1: 1), the failed anyOf branch of the next value counts; by 2020-12 core §11.3 ' +
      'each instance location has its own evaluated set and a failed branch gives none, so ab.ab is unevaluated: invalid',
    draft: 'draft2020-12',
    schema: {additionalProperties: {unevaluatedProperties: false, anyOf: [{required: ['1'], properties: {ab: true}}, {}]}},
    instance: {a1: 1, ab: {ab: true}},
    valid: false,
    // Recognised by shape and direction: ajv accepts, and an unevaluatedProperties applies to
    // property values (below properties, patternProperties or additionalProperties).
    matches: (pair) => pair.ajv === true && !pair.ours && propertyValuesContain(pair.schema, 'unevaluatedProperties'),
  },
  {
    name: 'ajv throws "Cannot set properties of undefined"',
    reason:
      'ajv throws "Cannot set properties of undefined" from its evaluated-properties tracking (an anyOf/oneOf nested in an ' +
      'allOf or else branch, next to patternProperties) instead of giving a verdict; by the spec the anyOf branch {} passes and ' +
      'the object is valid',
    draft: 'draft2020-12',
    schema: {allOf: [{anyOf: [{}, {maxProperties: 0, properties: {b: true}}]}], patternProperties: {a: true}},
    instance: {a: 1},
    valid: true,
    matches: (pair) => typeof pair.ajv === 'string' && pair.ajv.includes('Cannot set properties of undefined'),
  },
  {
    name: 'ajv throws "props0 is not defined"',
    reason:
      'ajv\'s generated code throws "props0 is not defined" for an unevaluatedProperties reached through anyOf next to ' +
      '`not: true` instead of giving a verdict; by the spec the first branch fails (not true), the second passes, and a ' +
      'string is valid',
    draft: 'draft2020-12',
    schema: {anyOf: [{not: true, anyOf: [{allOf: [{unevaluatedProperties: false}]}]}, {}]},
    instance: 'a',
    valid: true,
    matches: (pair) => typeof pair.ajv === 'string' && /props\d+ is not defined/.test(pair.ajv),
  },
];

/** Whether some object in the schema has this key (the generator never names a property after a keyword). */
function containsKey(schema: Json, key: string): boolean {
  if (schema === null || typeof schema !== 'object') return false;
  if (Array.isArray(schema)) return schema.some((item) => containsKey(item, key));
  return key in schema || Object.values(schema).some((value) => containsKey(value, key));
}

/** Whether a subschema applied to property values holds this key at any depth. */
function propertyValuesContain(schema: Json, key: string): boolean {
  if (schema === null || typeof schema !== 'object') return false;
  if (Array.isArray(schema)) return schema.some((item) => propertyValuesContain(item, key));
  const valueSchemas = [
    ...Object.values((schema.properties ?? {}) as JsonObject),
    ...Object.values((schema.patternProperties ?? {}) as JsonObject),
    schema.additionalProperties ?? true,
  ];
  if (valueSchemas.some((valueSchema) => containsKey(valueSchema, key))) return true;
  return Object.values(schema).some((value) => propertyValuesContain(value, key));
}

/** Whether some anyOf/oneOf branch holds this key at any depth. */
function branchesContain(schema: Json, key: string): boolean {
  if (schema === null || typeof schema !== 'object') return false;
  if (Array.isArray(schema)) return schema.some((item) => branchesContain(item, key));
  if ([schema.anyOf, schema.oneOf].some((branches) => Array.isArray(branches) && containsKey(branches, key))) return true;
  return Object.values(schema).some((value) => branchesContain(value, key));
}

/** `{dependentSchemas: {name: S}}` as `{allOf: [{if: {required: [name]}, then: S}]}`: same verdict, same annotations. */
function withoutDependentSchemas(schema: Json): Json {
  if (schema === null || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map(withoutDependentSchemas);
  const rewritten: JsonObject = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, withoutDependentSchemas(value)]));
  if (!('dependentSchemas' in rewritten)) return rewritten;
  const {dependentSchemas, allOf = [], ...rest} = rewritten;
  const conditionals = Object.entries(dependentSchemas as JsonObject).map(([name, then]) => ({if: {required: [name]}, then}));
  return {...rest, allOf: [...(allOf as Json[]), ...conditionals]};
}

/**
 * `{if: I, then: T, else: E}` as `{anyOf: [{allOf: [I, T]}, {allOf: [{not: I}, E]}]}`: the same
 * verdict, and the same annotations (I and T when I passes; only E when it fails, as `not` gives
 * none). Every object with `if` is taken for a schema: the generator never names a property `if`.
 */
function withoutIf(schema: Json): Json {
  if (schema === null || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map(withoutIf);
  const rewritten: JsonObject = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, withoutIf(value)]));
  if (!('if' in rewritten)) return rewritten;
  const {if: condition, then = true, else: otherwise = true, allOf = [], ...rest} = rewritten;
  const conditional = {anyOf: [{allOf: [condition!, then!]}, {allOf: [{not: condition!}, otherwise!]}]};
  return {...rest, allOf: [...(allOf as Json[]), conditional]};
}

// ---------------------------------------------------------------------------------------------
// Schema generator

/** JSON text with object keys sorted: equal JSON values, equal strings. */
function canonical(value: Json): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key]!)}`).join(',')}}`;
}

const namePool = ['a', 'b', 'c', 'd', 'x-1', 'x-2', 'ab', '1'];
const patternPool = ['^x-', 'a', '^[a-c]$', '[0-9]', 'b$'];
const scalarPool: Json[] = [0, 1, 2, -3, 2.5, 'a', 'b', '', 'x-1', 'abc', null, true, false];
const typePool = ['object', 'string', 'number', 'integer', 'null', 'boolean', 'array'];

/** Everything a schema mentions that instances should reuse to hit it. */
interface Mentions {
  names: Set<string>;
  values: Json[];
}

interface Scope {
  depth: number;
  /** Which `$defs` (by index) a `$ref` here may name without an in-place cycle. */
  refs: readonly number[];
}

class SchemaGenerator {
  readonly mentions: Mentions = {names: new Set(), values: []};
  private defNames: string[] = [];

  constructor(
    private readonly next: () => number,
    private readonly draft: TestedDraft,
  ) {}

  private get modern(): boolean {
    return this.draft === 'draft2019-09' || this.draft === 'draft2020-12';
  }

  private get defsKeyword(): string {
    return this.modern ? '$defs' : 'definitions';
  }

  private int(below: number): number {
    return Math.floor(this.next() * below);
  }

  private chance(p: number): boolean {
    return this.next() < p;
  }

  private pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  private name(): string {
    const name = this.pick(namePool);
    this.mentions.names.add(name);
    return name;
  }

  private names(min: number, max: number): string[] {
    const count = min + this.int(max - min + 1);
    return [...new Set(Array.from({length: count}, () => this.name()))];
  }

  private literal(): Json {
    const roll = this.next();
    let value: Json;
    if (roll < 0.6) value = this.pick(scalarPool);
    else if (roll < 0.85) value = Object.fromEntries(this.names(0, 2).map((name) => [name, this.pick(scalarPool)]));
    else value = [this.pick(scalarPool)];
    this.mentions.values.push(value);
    return value;
  }

  /** A whole schema document: the root, maybe with `$defs` that it and they `$ref`. */
  document(): Json {
    const defCount = this.int(4);
    this.defNames = Array.from({length: defCount}, (_, index) => `d${index}`);
    const all = this.defNames.map((_, index) => index);
    const root = this.objectSchema({depth: 0, refs: all});
    if (defCount === 0) return root;
    // A definition may $ref later ones in place, and any one below a property (the instance is
    // finite, so that recursion ends).
    const defs = Object.fromEntries(this.defNames.map((name, index) => [name, this.schema({depth: 1, refs: all.filter((other) => other > index)})]));
    return {...root, [this.defsKeyword]: defs};
  }

  private schema(scope: Scope): Json {
    // Draft 4 has no boolean schemas: {} and {not: {}} say true and false.
    if (this.chance(scope.depth === 0 ? 0 : 0.15)) return this.draft === 'draft4' ? (this.chance(0.6) ? {} : {not: {}}) : this.chance(0.6);
    if (scope.refs.length > 0 && this.chance(0.15)) return this.refSchema(scope);
    return this.objectSchema(scope);
  }

  private refSchema(scope: Scope): JsonObject {
    return {$ref: `#/${this.defsKeyword}/${this.defNames[this.pick(scope.refs)]}`};
  }

  /** The value's subschemas: below the instance, where every definition may be named again. */
  private below(scope: Scope): Scope {
    return {depth: scope.depth + 1, refs: this.defNames.map((_, index) => index)};
  }

  /** Subschemas applied in place (same instance location): no $ref back up the chain. */
  private inPlace(scope: Scope): Scope {
    return {depth: scope.depth + 1, refs: scope.refs};
  }

  private objectSchema(scope: Scope): JsonObject {
    const keywordCount = scope.depth >= 3 ? 1 : 1 + this.int(scope.depth === 0 ? 4 : 3);
    const schema: JsonObject = {};
    for (let index = 0; index < keywordCount; index++) this.addKeyword(schema, scope);
    // Before 2019-09 the siblings of $ref are ignored (and ajv applies them anyway): keep it alone.
    if (!this.modern && scope.refs.length > 0 && this.chance(0.1)) return this.refSchema(scope);
    if (this.modern && scope.refs.length > 0 && this.chance(0.1)) Object.assign(schema, this.refSchema(scope));
    return schema;
  }

  private subschemas(scope: Scope, min: number, max: number): Json[] {
    const count = min + this.int(max - min + 1);
    return Array.from({length: count}, () => this.schema(this.inPlace(scope)));
  }

  private addKeyword(schema: JsonObject, scope: Scope): void {
    const deep = scope.depth >= 3;
    const keywords = this.keywords().filter((keyword) => !deep || !applicators.has(keyword));
    const keyword = this.pick(keywords);
    switch (keyword) {
      case 'type':
        schema.type = this.chance(0.7) ? (this.chance(0.5) ? 'object' : this.pick(typePool)) : [...new Set([this.pick(typePool), this.pick(typePool)])];
        return;
      case 'properties':
        schema.properties = Object.fromEntries(this.names(1, 3).map((name) => [name, this.schema(this.below(scope))]));
        return;
      case 'patternProperties':
        schema.patternProperties = Object.fromEntries(
          [...new Set([this.pick(patternPool), this.pick(patternPool)])].map((pattern) => [pattern, this.schema(this.below(scope))]),
        );
        return;
      case 'additionalProperties':
        schema.additionalProperties = this.chance(0.5) ? false : this.schema(this.below(scope));
        return;
      case 'unevaluatedProperties':
        schema.unevaluatedProperties = this.chance(0.6) ? false : this.schema(this.below(scope));
        return;
      case 'required':
        schema.required = this.names(1, 3);
        return;
      case 'propertyNames':
        schema.propertyNames = this.pick<Json>([
          {pattern: this.pick(patternPool)},
          {maxLength: 1},
          {minLength: 2},
          {enum: this.names(1, 3)},
          {const: this.name()},
          {not: {const: this.name()}},
          false,
          true,
        ]);
        return;
      case 'minProperties':
        schema.minProperties = this.int(3);
        return;
      case 'maxProperties':
        schema.maxProperties = this.int(4);
        return;
      case 'dependentRequired':
        schema.dependentRequired = Object.fromEntries(this.names(1, 2).map((name) => [name, this.names(0, 2)]));
        return;
      case 'dependentSchemas':
        schema.dependentSchemas = Object.fromEntries(this.names(1, 2).map((name) => [name, this.schema(this.inPlace(scope))]));
        return;
      case 'dependencies':
        schema.dependencies = Object.fromEntries(
          // Draft 4's meta-schema asks for at least one name in a dependency array.
          this.names(1, 2).map((name) => [name, this.chance(0.5) ? this.names(this.draft === 'draft4' ? 1 : 0, 2) : this.schema(this.inPlace(scope))]),
        );
        return;
      case 'if':
        schema.if = this.schema(this.inPlace(scope));
        if (this.chance(0.7)) schema.then = this.schema(this.inPlace(scope));
        if (this.chance(0.6)) schema.else = this.schema(this.inPlace(scope));
        return;
      case 'allOf':
      case 'anyOf':
      case 'oneOf':
        schema[keyword] = this.subschemas(scope, 1, 3);
        return;
      case 'not':
        schema.not = this.schema(this.inPlace(scope));
        return;
      case 'enum': {
        // Items must be unique (ajv checks the schema against its meta-schema, which says so).
        const literals = new Map(Array.from({length: 1 + this.int(3)}, () => this.literal()).map((literal) => [canonical(literal), literal]));
        schema.enum = [...literals.values()];
        return;
      }
      case 'const':
        schema.const = this.literal();
        return;
      case 'pattern':
        schema.pattern = this.pick(patternPool);
        return;
      case 'minimum':
      case 'maximum':
        schema[keyword] = this.pick([-1, 0, 1, 2]);
        return;
      case 'exclusiveMinimum':
        schema.exclusiveMinimum = this.pick([-1, 0, 1]);
        return;
      case 'multipleOf':
        schema.multipleOf = this.pick([2, 3]);
        return;
      case 'minLength':
      case 'maxLength':
        schema[keyword] = this.int(3);
        return;
    }
  }

  private keywords(): readonly string[] {
    switch (this.draft) {
      case 'draft4':
        return draft4Keywords;
      case 'draft6':
        return draft6Keywords;
      case 'draft7':
        return draft7Keywords;
      default:
        return modernKeywords;
    }
  }
}

const scalarKeywords = ['minimum', 'maximum', 'exclusiveMinimum', 'multipleOf', 'minLength', 'maxLength', 'pattern'];
const commonKeywords = [
  'type', 'type', 'properties', 'properties', 'properties', 'patternProperties', 'additionalProperties', 'required', 'required',
  'propertyNames', 'minProperties', 'maxProperties', 'allOf', 'anyOf', 'oneOf', 'not', 'enum', 'const', 'const',
  ...scalarKeywords,
];
const draft4Keywords = [...commonKeywords, 'dependencies', 'dependencies'].filter(
  (keyword) => keyword !== 'const' && keyword !== 'propertyNames' && keyword !== 'exclusiveMinimum',
);
const draft6Keywords = [...commonKeywords, 'dependencies', 'dependencies'];
const draft7Keywords = [...draft6Keywords, 'if', 'if'];
const modernKeywords = [
  ...commonKeywords, 'if', 'if', 'unevaluatedProperties', 'unevaluatedProperties', 'unevaluatedProperties',
  'dependentRequired', 'dependentSchemas', 'dependentSchemas',
];
/** Keywords that hold subschemas: not generated at the deepest level. */
const applicators = new Set([
  'properties', 'patternProperties', 'additionalProperties', 'unevaluatedProperties', 'dependentSchemas', 'dependencies',
  'if', 'allOf', 'anyOf', 'oneOf', 'not',
]);

// ---------------------------------------------------------------------------------------------
// Instance generator: objects made of the names the schema mentions (and a few it does not),
// values it mentions, and the literals of its enum/const, sometimes changed a little.

function instanceGenerator(next: () => number, mentions: Mentions): () => Json {
  const names = [...mentions.names, ...mentions.names, 'x-9', 'zz', 'a1'];
  const values = [...mentions.values, ...scalarPool];
  const int = (below: number): number => Math.floor(next() * below);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;

  const object = (depth: number): JsonObject => {
    const result: JsonObject = {};
    const count = int(5);
    for (let index = 0; index < count; index++) result[pick(names)] = value(depth + 1);
    return result;
  };
  const tweak = (literal: Json): Json => {
    if (literal === null || typeof literal !== 'object' || Array.isArray(literal)) return literal;
    const copy = {...literal};
    if (next() < 0.5) copy[pick(names)] = pick(values);
    else delete copy[pick(Object.keys(copy).concat(['zz']))];
    return copy;
  };
  const value = (depth: number): Json => {
    const roll = next();
    if (depth < 3 && roll < 0.4) return object(depth);
    if (roll < 0.75 && mentions.values.length > 0) return next() < 0.7 ? pick(mentions.values) : tweak(pick(mentions.values));
    if (depth < 3 && roll < 0.8) return [value(depth + 1)];
    return pick(values);
  };
  return () => (next() < 0.8 ? object(0) : value(0));
}

// ---------------------------------------------------------------------------------------------
// A reference evaluator for the generated keywords, written straight from the spec texts and kept
// naive on purpose (recursive, value mode only). It judges disagreements with ajv: a pair is put
// down to a known ajv deviation only when the reference agrees with stream-schema.

interface Evaluation {
  valid: boolean;
  /** Properties of this instance evaluated by the schema and its in-place subschemas (2019-09 core §9.3, 2020-12 core §11.3). */
  evaluated: Set<string>;
}

const failedEvaluation = (): Evaluation => ({valid: false, evaluated: new Set()});

function isObject(value: Json): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function typeMatches(type: string, instance: Json): boolean {
  switch (type) {
    case 'object':
      return isObject(instance);
    case 'array':
      return Array.isArray(instance);
    case 'integer':
      return typeof instance === 'number' && Number.isInteger(instance);
    case 'null':
      return instance === null;
    default:
      return typeof instance === type;
  }
}

function resolvePointer(root: Json, ref: string): Json {
  return ref
    .slice(2)
    .split('/')
    .reduce<Json>((node, token) => (node as JsonObject)[token.replace(/~1/g, '/').replace(/~0/g, '~')]!, root);
}

class Reference {
  constructor(
    private readonly root: Json,
    private readonly draft: TestedDraft,
  ) {}

  valid(instance: Json): boolean {
    return this.evaluate(this.root, instance).valid;
  }

  private evaluate(schema: Json, instance: Json): Evaluation {
    if (schema === true) return {valid: true, evaluated: new Set()};
    if (schema === false || !isObject(schema)) return failedEvaluation();
    // Before 2019-09, $ref makes its siblings ignored (draft 7 core §8.3).
    const legacy = this.draft === 'draft4' || this.draft === 'draft6' || this.draft === 'draft7';
    if (legacy && typeof schema.$ref === 'string') return this.evaluate(resolvePointer(this.root, schema.$ref), instance);
    const evaluated = new Set<string>();
    const apply = (subschema: Json): boolean => {
      const result = this.evaluate(subschema, instance);
      if (result.valid) for (const name of result.evaluated) evaluated.add(name);
      return result.valid;
    };
    let valid = this.assertions(schema, instance);
    if (typeof schema.$ref === 'string') valid = apply(resolvePointer(this.root, schema.$ref)) && valid;
    if (Array.isArray(schema.allOf)) valid = schema.allOf.map(apply).every(Boolean) && valid;
    if (Array.isArray(schema.anyOf)) valid = schema.anyOf.map(apply).some(Boolean) && valid;
    if (Array.isArray(schema.oneOf)) {
      const passed = schema.oneOf.map((branch) => this.evaluate(branch, instance)).filter((result) => result.valid);
      if (passed.length === 1) for (const name of passed[0]!.evaluated) evaluated.add(name);
      valid = passed.length === 1 && valid;
    }
    if ('not' in schema) valid = !this.evaluate(schema.not!, instance).valid && valid;
    if ('if' in schema && this.draft !== 'draft4' && this.draft !== 'draft6') {
      valid = (apply(schema.if!) ? apply(schema.then ?? true) : apply(schema.else ?? true)) && valid;
    }
    if (isObject(instance)) valid = this.objectKeywords(schema, instance, evaluated, apply) && valid;
    if (!valid) return failedEvaluation();
    return {valid, evaluated};
  }

  private objectKeywords(schema: JsonObject, instance: JsonObject, evaluated: Set<string>, apply: (subschema: Json) => boolean): boolean {
    let valid = true;
    const names = Object.keys(instance);
    const dependentSchemas = (this.draft === 'draft4' || this.draft === 'draft6' || this.draft === 'draft7' ? schema.dependencies : schema.dependentSchemas) as JsonObject | undefined;
    for (const [name, dependency] of Object.entries(dependentSchemas ?? {})) {
      if (!Object.hasOwn(instance, name)) continue;
      valid = (Array.isArray(dependency) ? dependency.every((other) => Object.hasOwn(instance, other as string)) : apply(dependency)) && valid;
    }
    for (const [name, required] of Object.entries((schema.dependentRequired ?? {}) as JsonObject)) {
      if (Object.hasOwn(instance, name)) valid = (required as string[]).every((other) => Object.hasOwn(instance, other)) && valid;
    }
    const properties = (schema.properties ?? {}) as JsonObject;
    const patterns = Object.entries((schema.patternProperties ?? {}) as JsonObject).map(([source, subschema]) => [new RegExp(source, 'u'), subschema] as const);
    for (const name of names) {
      let matched = false;
      if (Object.hasOwn(properties, name)) {
        matched = true;
        valid = this.evaluate(properties[name]!, instance[name]!).valid && valid;
      }
      for (const [pattern, subschema] of patterns) {
        if (!pattern.test(name)) continue;
        matched = true;
        valid = this.evaluate(subschema, instance[name]!).valid && valid;
      }
      if (!matched && 'additionalProperties' in schema) {
        valid = this.evaluate(schema.additionalProperties!, instance[name]!).valid && valid;
        matched = true;
      }
      if (matched) evaluated.add(name);
      if ('propertyNames' in schema) valid = this.evaluate(schema.propertyNames!, name).valid && valid;
    }
    // Last: it sees what every other keyword here evaluated (2020-12 core §11.3).
    if ('unevaluatedProperties' in schema && (this.draft === 'draft2019-09' || this.draft === 'draft2020-12')) {
      for (const name of names) {
        if (evaluated.has(name)) continue;
        valid = this.evaluate(schema.unevaluatedProperties!, instance[name]!).valid && valid;
        evaluated.add(name);
      }
    }
    return valid;
  }

  /** The keywords that only assert. */
  private assertions(schema: JsonObject, instance: Json): boolean {
    const types = schema.type === undefined ? undefined : ([] as Json[]).concat(schema.type);
    if (types !== undefined && !types.some((type) => typeMatches(type as string, instance) || (type === 'number' && typeof instance === 'number'))) return false;
    if (Array.isArray(schema.enum) && !schema.enum.some((literal) => canonical(literal) === canonical(instance))) return false;
    if ('const' in schema && canonical(schema.const!) !== canonical(instance)) return false;
    if (isObject(instance)) {
      const count = Object.keys(instance).length;
      if (Array.isArray(schema.required) && !schema.required.every((name) => Object.hasOwn(instance, name as string))) return false;
      if (typeof schema.minProperties === 'number' && count < schema.minProperties) return false;
      if (typeof schema.maxProperties === 'number' && count > schema.maxProperties) return false;
    }
    if (typeof instance === 'string') {
      const length = [...instance].length;
      if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(instance)) return false;
      if (typeof schema.minLength === 'number' && length < schema.minLength) return false;
      if (typeof schema.maxLength === 'number' && length > schema.maxLength) return false;
    }
    if (typeof instance === 'number') {
      if (typeof schema.minimum === 'number' && instance < schema.minimum) return false;
      if (typeof schema.maximum === 'number' && instance > schema.maximum) return false;
      if (typeof schema.exclusiveMinimum === 'number' && instance <= schema.exclusiveMinimum) return false;
      if (typeof schema.multipleOf === 'number' && !Number.isInteger(instance / schema.multipleOf)) return false;
    }
    return true;
  }
}

// ---------------------------------------------------------------------------------------------
// Running one pair

const encoder = new TextEncoder();

/** Where the errors are: what every mode must agree on. */
function locations(result: Result): string[] {
  return result.errors.map((unit) => `${unit.kind} ${unit.keywordLocation} ${unit.instanceLocation}`);
}

/** Where the modes disagree with value mode (empty when they all agree). */
function modeProblems(validator: Validator, instance: Json, next: () => number): {valid: boolean; problems: string[]} {
  const byValue = validator.validate(instance);
  const expected = JSON.stringify({valid: byValue.valid, errors: locations(byValue)});
  const problems: string[] = [];
  const check = (mode: string, result: Result): void => {
    const actual = JSON.stringify({valid: result.valid, errors: locations(result)});
    if (actual !== expected) problems.push(`${mode}: ${actual}, value mode: ${expected}`);
  };
  const text = JSON.stringify(instance);
  check('validateText', validator.validateText(text));
  const pretty = encoder.encode(JSON.stringify(instance, null, next() < 0.5 ? 1 : undefined));
  check('random chunks', feed(validator, randomChunks(pretty, next, 1 + Math.floor(next() * 12))));
  const bytes = encoder.encode(text);
  if (bytes.length <= byteChunkLimit) check('1-byte chunks', feed(validator, byteChunks(bytes)));
  return {valid: byValue.valid, problems};
}

/** ajv's verdict, or the message of what it threw while validating. */
type AjvVerdict = boolean | `threw: ${string}`;

function ajvVerdict(validate: (data: unknown) => boolean, instance: Json): AjvVerdict {
  try {
    return validate(instance);
  } catch (error) {
    return `threw: ${(error as Error).message}`;
  }
}

/** The three verdicts on a pair, or undefined when ajv or stream-schema refuses the schema. */
interface Verdicts {
  readonly ajv: AjvVerdict;
  readonly ours: boolean;
  readonly reference: boolean;
}

function verdicts(draft: TestedDraft, ajv: AjvLike, schema: Json, instance: Json): Verdicts | undefined {
  let validate: (data: unknown) => boolean;
  let ours: boolean;
  try {
    validate = ajv.compile(schema as object);
    ours = compile(schema, {draft}).validate(instance).valid;
  } catch {
    return undefined;
  }
  return {ajv: ajvVerdict(validate, instance), ours, reference: new Reference(schema, draft).valid(instance)};
}

/** Smaller variants of a JSON value: members dropped, object members made `true`, children shrunk. */
function* smaller(value: Json): Generator<Json> {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) yield [...value.slice(0, index), ...value.slice(index + 1)];
    for (let index = 0; index < value.length; index++) {
      for (const child of smaller(value[index]!)) yield [...value.slice(0, index), child, ...value.slice(index + 1)];
    }
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const keys = Object.keys(value);
  for (const key of keys) {
    const {[key]: _dropped, ...rest} = value;
    yield rest;
  }
  for (const key of keys) {
    const child = value[key]!;
    if (typeof child === 'object' && child !== null && !Array.isArray(child)) yield {...value, [key]: true};
    for (const smallerChild of smaller(child)) yield {...value, [key]: smallerChild};
  }
}

/** A disagreement, by who disagrees with whom (ajv's exceptions apart from its verdicts). */
function signature(found: Verdicts): string {
  const ajv = typeof found.ajv === 'boolean' ? found.ajv === found.ours : 'threw';
  return `${ajv}/${found.ours === found.reference}`;
}

/** Greedy shrinking of schema and instance while the same parties still disagree. */
function shrink(found: Disagreement, ajv: AjvLike): Disagreement {
  let {schema, instance} = found;
  const wanted = signature(found);
  const same = (candidateSchema: Json, candidateInstance: Json): boolean => {
    const result = verdicts(found.draft, ajv, candidateSchema, candidateInstance);
    return result !== undefined && signature(result) === wanted;
  };
  let budget = 3000;
  const shrinkOnce = (): boolean => {
    for (const candidate of smaller(schema)) {
      if (--budget <= 0) return false;
      if (same(candidate, instance)) return ((schema = candidate), true);
    }
    for (const candidate of smaller(instance)) {
      if (--budget <= 0) return false;
      if (same(schema, candidate)) return ((instance = candidate), true);
    }
    return false;
  };
  while (shrinkOnce());
  return {...found, schema, instance, ...verdicts(found.draft, ajv, schema, instance)!};
}

function describeDisagreement(found: Disagreement): string {
  const said = (verdict: AjvVerdict): string => (typeof verdict === 'boolean' ? (verdict ? 'valid' : 'invalid') : verdict);
  return (
    `seed ${found.seed}: ajv says ${said(found.ajv)}, stream-schema says ${said(found.ours)}, the reference says ${said(found.reference)}\n` +
    `  schema:   ${JSON.stringify(found.schema)}\n  instance: ${JSON.stringify(found.instance)}`
  );
}

// ---------------------------------------------------------------------------------------------

interface Disagreement extends Pair, Verdicts {
  readonly seed: number;
}

interface Tally {
  pairs: number;
  valid: number;
  schemas: number;
  /** Known deviation name → pairs that matched it. */
  deviations: Map<string, number>;
}

const counts = new Map<TestedDraft, Tally>();
const started = Date.now();
const reportLimit = Number(process.env.DIFF_REPORT ?? 5);

describe('differential against ajv', () => {
  for (const draft of drafts) {
    test(`${draft}: random object/conditional schemas and instances`, () => {
      const ajv = makeAjv(draft);
      const tally: Tally = {pairs: 0, valid: 0, schemas: 0, deviations: new Map()};
      counts.set(draft, tally);
      /** stream-schema and the reference disagree: one of them is wrong. */
      const referenceDisagreements: Disagreement[] = [];
      /** ajv is wrong (the other two agree) in a way no known deviation explains. */
      const unlisted: Disagreement[] = [];
      const modeDisagreements: string[] = [];
      for (const seed of seeds) {
        const next = random(seed * 7919 + drafts.indexOf(draft));
        for (let schemaIndex = 0; schemaIndex < schemasPerSeed; schemaIndex++) {
          const generator = new SchemaGenerator(next, draft);
          const schema = generator.document();
          // Every generated schema is valid in its draft: either side refusing one is a bug.
          const ajvValidate = ajv.compile(schema as object);
          const validator = compile(schema, {draft});
          const reference = new Reference(schema, draft);
          tally.schemas++;
          const instance = instanceGenerator(next, generator.mentions);
          for (let instanceIndex = 0; instanceIndex < instancesPerSchema; instanceIndex++) {
            const data = instance();
            const {valid: ours, problems} = modeProblems(validator, data, next);
            if (problems.length > 0) modeDisagreements.push(`seed ${seed}: ${JSON.stringify(schema)} on ${JSON.stringify(data)}\n  ${problems.join('\n  ')}`);
            tally.pairs++;
            if (ours) tally.valid++;
            const found: Disagreement = {draft, seed, schema, instance: data, ajv: ajvVerdict(ajvValidate, data), ours, reference: reference.valid(data)};
            if (found.ours !== found.reference) referenceDisagreements.push(found);
            else if (found.ajv !== found.ours) {
              const deviation = knownDeviations.find((known) => known.matches(found, ajv));
              if (deviation === undefined) unlisted.push(found);
              else tally.deviations.set(deviation.name, (tally.deviations.get(deviation.name) ?? 0) + 1);
            }
          }
        }
      }
      const report = (found: Disagreement[]): string[] => found.slice(0, reportLimit).map((one) => describeDisagreement(shrink(one, ajv)));
      assert.deepEqual(modeDisagreements.slice(0, reportLimit), [], `${modeDisagreements.length} pair(s) where the modes disagree; the first ones`);
      assert.deepEqual(report(referenceDisagreements), [], `${referenceDisagreements.length} pair(s) where stream-schema and the reference disagree; the first ones, shrunk`);
      assert.deepEqual(report(unlisted), [], `${unlisted.length} pair(s) where ajv alone disagrees, not a known deviation; the first ones, shrunk`);
    });
  }
});

describe('known ajv deviations (ajv is wrong by the spec; stream-schema follows the spec)', () => {
  for (const deviation of knownDeviations) {
    test(deviation.reason, () => {
      const ajv = makeAjv(deviation.draft);
      assert.notEqual(ajvVerdict(ajv.compile(deviation.schema as object), deviation.instance), deviation.valid, 'ajv still deviates');
      assert.equal(compile(deviation.schema, {draft: deviation.draft}).validate(deviation.instance).valid, deviation.valid);
      assert.equal(new Reference(deviation.schema, deviation.draft).valid(deviation.instance), deviation.valid, 'the reference agrees');
    });
  }
});

after(() => {
  const lines = [`Differential test against ajv (seeds ${seeds.join(',')}), ${Date.now() - started} ms:`];
  for (const [draft, tally] of counts) {
    lines.push(
      `  ${draft.padEnd(13)} ${tally.pairs} pairs (${tally.valid} valid, ${tally.pairs - tally.valid} invalid) over ${tally.schemas} schemas; ` +
        (tally.deviations.size === 0 ? 'no known ajv deviation hit' : `ajv deviations: ${[...tally.deviations].map(([name, count]) => `${name} ×${count}`).join(', ')}`),
    );
  }
  console.log(lines.join('\n'));
});
