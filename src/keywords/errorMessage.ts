// `errorMessage` (ajv-errors' keyword, under CompileOptions.errorMessages): messages of one's own
// for the errors raised in its schema object. It judges nothing: when the schema object's run
// fails, the errors it is about to report are restated (KeywordDefinition.restate), as ajv-errors
// does, in ajv-errors' order:
// - by keyword (`{required: "..."}`): the errors of that keyword of this schema object itself;
// - by keyword and property (`{required: {name: "..."}}`, also `dependencies`, `dependentRequired`):
//   those whose `missingProperty` (`property` for the other two) is that name;
// - by member (`{properties: {name: "..."}}`, `{items: ["..."]}`): the errors at or below that
//   member of the object (array), whichever schema raised them;
// - the rest (`errorMessage: "..."`, or `_`): every other error of the schema object and below.
// Each message becomes one error of keyword `errorMessage`, the errors it replaces in
// `params.errors`; errors no message takes are reported as they were, first. An error another
// `errorMessage` made is not taken again. ajv-errors' templates (`${/pointer}`) read the value,
// which is never held in streaming: refused, as a message printed with its template unfilled
// would be a wrong message.

import {escapePointerToken, parsePointer} from '../json/pointer.js';
import {ARRAY, OBJECT, type KeywordContext, type KeywordDefinition, type Run} from '../schema/node.js';
import type {OutputUnit} from '../types.js';
import {isObject} from './rules/expect.js';

interface Messages {
  /** `(keywordLocation suffix, message)` for the keyword form, in the order written. */
  readonly byKeyword: readonly (readonly [path: string, message: string])[];
  /** The keyword-and-property form: the keyword's path, the params field naming the property, and the messages by property. */
  readonly byProperty: readonly (readonly [path: string, param: string, messages: ReadonlyMap<string, string>])[];
  /** Messages by property name (`properties`); applies to objects. */
  readonly properties: ReadonlyMap<string, string> | undefined;
  /** Messages by item index (`items`); applies to arrays. */
  readonly items: ReadonlyMap<string, string> | undefined;
  /** The string form, or `_`: every error no other message took. */
  readonly rest: string | undefined;
}

/** The params field that names the property, for the keywords that take messages by property (as ajv-errors). */
const PROPERTY_PARAMS: ReadonlyMap<string, string> = new Map([
  ['required', 'missingProperty'],
  ['dependencies', 'property'],
  ['dependentRequired', 'property'],
]);

const TEMPLATE = /\$\{[^}]+\}/;

function message(value: unknown, context: KeywordContext, relativePath: string): string {
  if (typeof value !== 'string') throw context.fail('must be a string, or an object of strings', relativePath);
  if (TEMPLATE.test(value)) throw context.fail('templates (${...}) are not supported: a message cannot quote the value, which streaming never holds whole', relativePath);
  return value;
}

function messageMap(value: unknown, context: KeywordContext, relativePath: string): Map<string, string> {
  if (!isObject(value)) throw context.fail('must be an object of strings', relativePath);
  return new Map(Object.entries(value).map(([name, text]) => [name, message(text, context, `${relativePath}/${escapePointerToken(name)}`)]));
}

function compileMessages(value: unknown, context: KeywordContext): Messages {
  if (typeof value === 'string') return {byKeyword: [], byProperty: [], properties: undefined, items: undefined, rest: message(value, context, '')};
  if (!isObject(value)) throw context.fail('must be a string or an object');
  const byKeyword: [string, string][] = [];
  const byProperty: [string, string, Map<string, string>][] = [];
  let properties: Map<string, string> | undefined;
  let items: Map<string, string> | undefined;
  for (const [name, entry] of Object.entries(value)) {
    const at = '/' + escapePointerToken(name);
    if (name === 'properties') properties = messageMap(entry, context, at);
    else if (name === 'items') {
      if (!Array.isArray(entry)) throw context.fail('must be an array of strings', at);
      items = new Map(entry.map((text, index) => [String(index), message(text, context, `${at}/${index}`)]));
    } else if (name === '_') continue;
    else if (PROPERTY_PARAMS.has(name) && isObject(entry)) byProperty.push([at, PROPERTY_PARAMS.get(name)!, messageMap(entry, context, at)]);
    else byKeyword.push([at, message(entry, context, at)]);
  }
  const rest = '_' in value ? message(value._, context, '/_') : undefined;
  return {byKeyword, byProperty, properties, items, rest};
}

/** An error `errorMessage` may take: a schema's, not an input error or a limit, and not one it made already. */
function restatable(unit: OutputUnit): boolean {
  return unit.kind === 'validation' && unit.keyword !== 'errorMessage';
}

/** The member of the value at `instance` that `unit` is at or below, unescaped; undefined if none. */
function memberOf(unit: OutputUnit, instance: string): string | undefined {
  const location = unit.instanceLocation;
  if (location.length <= instance.length || !location.startsWith(instance) || location[instance.length] !== '/') return undefined;
  const end = location.indexOf('/', instance.length + 1);
  return parsePointer(location.slice(instance.length, end === -1 ? undefined : end))![0];
}

/** The errors not taken yet that `wanted` selects, marked taken, in the order they came. */
function take(errors: readonly OutputUnit[], taken: boolean[], wanted: (unit: OutputUnit) => boolean): OutputUnit[] {
  const selected: OutputUnit[] = [];
  errors.forEach((unit, index) => {
    if (taken[index] || !restatable(unit) || !wanted(unit)) return;
    taken[index] = true;
    selected.push(unit);
  });
  return selected;
}

/** For each message of `messages` that takes errors, in their order: its key, its text, and the errors whose key (`keyOf`) is its. */
function groups(errors: readonly OutputUnit[], taken: boolean[], messages: ReadonlyMap<string, string>, keyOf: (unit: OutputUnit) => string | undefined): [key: string, text: string, replaced: OutputUnit[]][] {
  const found: [string, string, OutputUnit[]][] = [];
  for (const [key, text] of messages) {
    const replaced = take(errors, taken, (unit) => keyOf(unit) === key);
    if (replaced.length > 0) found.push([key, text, replaced]);
  }
  return found;
}

export const errorMessage: KeywordDefinition<Messages> = {
  name: 'errorMessage',
  compile: compileMessages,
  restate(run: Run, keyword, errors) {
    const {byKeyword, byProperty, properties, items, rest} = keyword.value;
    const base = run.location();
    const instance = run.instanceLocation();
    const taken = errors.map(() => false);
    const made: OutputUnit[] = [];
    for (const [path, text] of byKeyword) {
      const replaced = take(errors, taken, (unit) => unit.keywordLocation === base + path);
      if (replaced.length > 0) made.push(run.errorUnit(keyword, text, {errors: replaced}));
    }
    for (const [path, param, messages] of byProperty) {
      const propertyOf = (unit: OutputUnit) => (unit.keywordLocation === base + path ? String(unit.params?.[param]) : undefined);
      for (const [, text, replaced] of groups(errors, taken, messages, propertyOf)) made.push(run.errorUnit(keyword, text, {errors: replaced}));
    }
    const members = run.kind === OBJECT ? properties : run.kind === ARRAY ? items : undefined;
    if (members !== undefined) {
      for (const [member, text, replaced] of groups(errors, taken, members, (unit) => memberOf(unit, instance))) made.push(run.errorUnit(keyword, text, {errors: replaced}, member));
    }
    if (rest !== undefined) {
      const replaced = take(errors, taken, () => true);
      if (replaced.length > 0) made.push(run.errorUnit(keyword, rest, {errors: replaced}));
    }
    return [...errors.filter((_unit, index) => !taken[index]), ...made];
  },
};
