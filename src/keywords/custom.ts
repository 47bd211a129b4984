// Keywords of one's own (CompileOptions.keywords), with the meaning of ajv's `addKeyword` with
// `validate`: a predicate on the whole JSON value at the keyword's location, for values of the
// keyword's `type`. A scalar is judged as it arrives, by `accepts`, which both engines ask alike.
// An object or array is assembled from its tokens by the evaluator (Instance.assemble), from its
// opening bracket to its closing one and no longer, and judged there; nothing outside it is held.
// The text checker cannot run the predicate on a container it never builds: the outline says so
// (judgedWhole), and such a document goes to the evaluator.

import {SchemaError} from '../output/errors.js';
import {draftTables} from './drafts.js';
import {ARRAY, BOOLEAN, INTEGER, NOT_ASSEMBLED, NULL, NUMBER, OBJECT, STRING, type CompiledKeyword, type Kind, type KeywordDefinition, type Run, type Scalar} from '../schema/node.js';
import {defaultLimits} from '../json/limits.js';
import type {CompileOptions, CustomKeyword} from '../types.js';

/** One custom keyword, its definition checked. */
interface Spec {
  readonly name: string;
  /** The kinds it applies to, as `type` masks (INTEGER: whole numbers). */
  readonly kinds: number;
  readonly validate: (schemaValue: unknown, data: unknown) => unknown;
  readonly message: CustomKeyword['message'];
  /** The most values one assembled object or array may hold (limits.maxAssembledValues). */
  readonly maxValues: number;
}

/** Compiled: the keyword's definition and its value in this schema object. */
interface Custom {
  readonly spec: Spec;
  readonly schemaValue: unknown;
}

const TYPE_MASKS: ReadonlyMap<unknown, number> = new Map([['object', OBJECT], ['array', ARRAY], ['string', STRING], ['number', NUMBER], ['integer', INTEGER], ['boolean', BOOLEAN], ['null', NULL]]);
const CONTAINERS = OBJECT | ARRAY;

/** The keyword applies to a value of `kind` (a number: `integer` asks for a whole one). */
function appliesTo(kinds: number, kind: Kind, scalar: Scalar): boolean {
  return (kinds & kind) !== 0 || (kind === NUMBER && (kinds & INTEGER) !== 0 && scalar.isInteger());
}

function scalarValue(kind: Kind, scalar: Scalar): unknown {
  if (kind === STRING) return scalar.text;
  if (kind === NUMBER) return scalar.number();
  if (kind === BOOLEAN) return scalar.booleanValue;
  return null;
}

/**
 * Why `data` fails the keyword, as a message and ajv's params; undefined when it passes. Only
 * `true` passes: a predicate that throws, or answers anything else, has not said the value is good.
 */
function failureOf({spec, schemaValue}: Custom, data: unknown): [message: string, params: Record<string, unknown>] | undefined {
  let verdict: unknown;
  try {
    verdict = spec.validate(schemaValue, data);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return [`"${spec.name}" keyword validation threw: ${reason}`, {keyword: spec.name, error: reason}];
  }
  if (verdict === true) return undefined;
  return [messageOf(spec, schemaValue, data), {keyword: spec.name}];
}

/** The definition's message; ajv's default when it has none, or when its function fails to give one. */
function messageOf(spec: Spec, schemaValue: unknown, data: unknown): string {
  const fallback = `must pass "${spec.name}" keyword validation`;
  if (typeof spec.message === 'string') return spec.message;
  if (typeof spec.message !== 'function') return fallback;
  try {
    const message: unknown = spec.message(schemaValue, data);
    return typeof message === 'string' ? message : fallback;
  } catch {
    return fallback;
  }
}

function judge(run: Run, keyword: CompiledKeyword<Custom>, data: unknown): void {
  const failure = failureOf(keyword.value, data);
  if (failure !== undefined) run.fail(keyword, failure[0], failure[1]);
}

function definitionOf(spec: Spec): KeywordDefinition<Custom> {
  return {
    name: spec.name,
    compile: (schemaValue) => ({spec, schemaValue}),
    callsCaller: () => true,
    accepts: (keyword, kind, scalar) => !appliesTo(spec.kinds, kind, scalar) || failureOf(keyword.value, scalarValue(kind, scalar)) === undefined,
    outline: (_keyword, outline) => outline.judgedWhole(spec.kinds & CONTAINERS),
    begin(run, keyword) {
      if ((run.kind & CONTAINERS & spec.kinds) !== 0) run.evaluator.assemble(run, keyword, spec.maxValues);
    },
    scalar(run, keyword) {
      const kind = run.kind as Kind;
      if (appliesTo(spec.kinds, kind, run.evaluator)) judge(run, keyword, scalarValue(kind, run.evaluator));
    },
    end(run, keyword) {
      if ((run.kind & CONTAINERS) === 0) return;
      const value = run.evaluator.assembled(run, keyword);
      if (value !== NOT_ASSEMBLED) judge(run, keyword, value);
    },
  };
}

/** Every name a draft gives a meaning: a custom keyword may not change what a schema says. */
const BUILT_IN = new Set<string>(
  Object.values(draftTables).flatMap((draft) => [
    ...draft.keywords.keys(),
    ...draft.annotations,
    ...[draft.identifiers.id, draft.identifiers.anchor, draft.identifiers.dynamicAnchor, draft.identifiers.recursiveAnchor, ...draft.identifiers.schemaHolders].filter((name) => name !== undefined),
    ...[...(draft.vocabularies?.values() ?? [])].flat(),
  ]),
);

/**
 * The definitions of `options.keywords`, by name. Throws SchemaError `schema.option.keywords`,
 * naming the entry and what is wrong with it. `reserved`: further names taken (`errorMessage`
 * when `errorMessages` is on).
 */
export function customKeywords(options: Readonly<CompileOptions>, reserved: readonly string[]): ReadonlyMap<string, KeywordDefinition> {
  const definitions = new Map<string, KeywordDefinition>();
  const list: unknown = options.keywords;
  if (list === undefined) return definitions;
  if (!Array.isArray(list)) throw refusal('options.keywords must be an array of keyword definitions');
  const maxValues = options.limits?.maxAssembledValues ?? defaultLimits.maxAssembledValues;
  list.forEach((entry: unknown, index) => {
    const spec = specOf(entry, `options.keywords[${index}]`, maxValues);
    if (BUILT_IN.has(spec.name) || reserved.includes(spec.name)) throw refusal(`options.keywords[${index}]: "${spec.name}" is a keyword of JSON Schema already`);
    if (definitions.has(spec.name)) throw refusal(`options.keywords[${index}]: "${spec.name}" is defined twice`);
    definitions.set(spec.name, definitionOf(spec));
  });
  return definitions;
}

function specOf(entry: unknown, where: string, maxValues: number): Spec {
  if (typeof entry !== 'object' || entry === null) throw refusal(`${where} must be an object {keyword, type?, validate, message?}`);
  const {keyword, type, validate, message} = entry as Record<string, unknown>;
  if (typeof keyword !== 'string' || keyword === '') throw refusal(`${where}.keyword must be a non-empty string`);
  if (typeof validate !== 'function') throw refusal(`${where} ("${keyword}"): validate must be a function (schemaValue, data) => boolean`);
  if (message !== undefined && typeof message !== 'string' && typeof message !== 'function') {
    throw refusal(`${where} ("${keyword}"): message must be a string or a function (schemaValue, data) => string`);
  }
  return {name: keyword, kinds: kindsOf(type, `${where} ("${keyword}")`), validate: validate as Spec['validate'], message: message as Spec['message'], maxValues};
}

function kindsOf(type: unknown, where: string): number {
  if (type === undefined) return OBJECT | ARRAY | STRING | NUMBER | BOOLEAN | NULL;
  const names: unknown[] = Array.isArray(type) ? type : [type];
  let kinds = 0;
  for (const name of names) {
    const mask = TYPE_MASKS.get(name);
    if (mask === undefined) throw refusal(`${where}: type ${JSON.stringify(name)} is not one of ${[...TYPE_MASKS.keys()].join(', ')}`);
    kinds |= mask;
  }
  if (kinds === 0) throw refusal(`${where}: type must name at least one JSON type`);
  return kinds;
}

function refusal(reason: string): SchemaError {
  return new SchemaError('schema.option.keywords', '', reason);
}
