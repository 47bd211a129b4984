// One compiled validator per schema for the front doors that take a schema at each call
// (validateRequest, validateTextStream): compiling resolves references and builds every keyword,
// which must not happen once per request. Nothing here needs a Node API.

import {compile} from '../src/index.js';
import type {CompileOptions, Validator} from '../src/types.js';

/** Options that give one schema different validators; each kept apart. */
const MAX_VARIANTS = 8;

const compiled = new WeakMap<object, Map<string, Validator>>();

/** `schemas` maps are told apart by identity: their content may be large. */
const schemaMapIds = new WeakMap<object, number>();
let nextSchemaMapId = 1;

/**
 * `schema` itself when it is a validator made by `compile`; otherwise the validator compiled from
 * it with `options`, made on the first call for that schema object and those options and kept as
 * long as the schema object lives. A schema object is read when first compiled: changing it later
 * changes nothing.
 *
 * @throws TypeError when a compiled validator comes with compile options, which it cannot take.
 * @throws SchemaError for a schema that does not compile.
 */
export function validatorFor(schema: unknown, options: CompileOptions = {}): Validator {
  if (isValidator(schema)) {
    const given = Object.keys(options).filter((name) => options[name as keyof CompileOptions] !== undefined);
    if (given.length > 0) throw new TypeError(`a compiled validator takes no compile options (got ${given.join(', ')}): give them to compile()`);
    return schema;
  }
  // Boolean schemas are not objects and compile at once.
  if (typeof schema !== 'object' || schema === null) return compile(schema, options);
  let variants = compiled.get(schema);
  if (variants === undefined) compiled.set(schema, (variants = new Map()));
  const key = variantKey(options);
  let validator = variants.get(key);
  if (validator === undefined) {
    validator = compile(schema, options);
    if (variants.size >= MAX_VARIANTS) variants.delete(variants.keys().next().value!);
    variants.set(key, validator);
  }
  return validator;
}

/** A validator made by `compile`, told from a JSON Schema, which holds no functions. */
export function isValidator(candidate: unknown): candidate is Validator {
  if (typeof candidate !== 'object' || candidate === null) return false;
  const {session, validateText, parseText, validate} = candidate as Partial<Record<keyof Validator, unknown>>;
  return typeof session === 'function' && typeof validateText === 'function' && typeof parseText === 'function' && typeof validate === 'function';
}

function variantKey(options: CompileOptions): string {
  const {draft, allErrors, baseUri, formats, strict, limits, schemas} = options;
  return JSON.stringify([draft, allErrors, baseUri, formats, strict, limits, schemas === undefined ? 0 : schemaMapId(schemas)]);
}

function schemaMapId(schemas: object): number {
  let id = schemaMapIds.get(schemas);
  if (id === undefined) schemaMapIds.set(schemas, (id = nextSchemaMapId++));
  return id;
}
