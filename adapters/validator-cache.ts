// Every front door takes a schema or a compiled validator through `validatorFor`: one place
// decides which it was given, so no door can read a validator as a schema of no keywords. It
// keeps one compiled validator per schema object, for the doors that take a schema at each call
// (validateRequest, validateTextStream): compiling resolves references and builds every keyword,
// which must not happen once per request. Nothing here needs a Node API.

import {ArgumentError, compile, isValidator} from '../src/index.js';
import type {CompileOptions, Validator} from '../src/types.js';

/** Options that give one schema different validators; each kept apart. */
const MAX_VARIANTS = 8;

const compiled = new WeakMap<object, Map<string, Validator>>();

/** `schemas` maps are told apart by identity: their content may be large. So are `customFormats`, whose RegExps and functions JSON cannot tell apart. */
const schemaMapIds = new WeakMap<object, number>();
let nextSchemaMapId = 1;

/**
 * Every option of `compile`, so that a door can tell its own options from compile's. Listed as a
 * record over `keyof CompileOptions`: an option added to CompileOptions and not here fails the build.
 */
const COMPILE_OPTION_NAMES = Object.keys({
  draft: true,
  schemas: true,
  baseUri: true,
  allErrors: true,
  strict: true,
  formats: true,
  customFormats: true,
  unknownFormats: true,
  keywords: true,
  errorMessages: true,
  nullable: true,
  refSiblings: true,
  limits: true,
  annotations: true,
  refuseExponentialPatterns: true,
  coerceTypes: true,
  useDefaults: true,
  removeAdditional: true,
} satisfies Record<keyof CompileOptions, true>) as ReadonlyArray<keyof CompileOptions>;

/**
 * The one way into every front door: `schema` itself when it is a validator made by `compile`;
 * otherwise the validator compiled from it with the compile options among `options`, made on the
 * first call for that schema object and those options and kept as long as the schema object
 * lives. Do not change a schema object once it is compiled: `const` and `enum` literals are read
 * as documents reach them (building a node for every member at compile made a 6 MB `const` take seconds).
 * `options` may hold the door's own options beside compile's; only compile's are read.
 *
 * @throws TypeError when a compiled validator comes with compile options, which it cannot take,
 *   and when `schema` is neither a JSON Schema nor a validator (see `compile`).
 * @throws SchemaError for a schema that does not compile.
 */
export function validatorFor(schema: unknown, options: CompileOptions = {}): Validator {
  const compileOptions = compileOptionsOf(options);
  if (isValidator(schema)) {
    const given = Object.keys(compileOptions);
    if (given.length > 0) throw new ArgumentError(`a compiled validator takes no compile options (got ${given.join(', ')}): give them to compile()`);
    return schema;
  }
  // Boolean schemas are not objects and compile at once, as does what compile() refuses.
  if (typeof schema !== 'object' || schema === null) return compile(schema, compileOptions);
  let variants = compiled.get(schema);
  if (variants === undefined) compiled.set(schema, (variants = new Map()));
  const key = variantKey(compileOptions);
  let validator = variants.get(key);
  if (validator === undefined) {
    validator = compile(schema, compileOptions);
    if (variants.size >= MAX_VARIANTS) variants.delete(variants.keys().next().value!);
    variants.set(key, validator);
  }
  return validator;
}

/** The compile options among a door's options, those that are set. */
export function compileOptionsOf(options: CompileOptions): CompileOptions {
  const picked: Record<string, unknown> = {};
  for (const name of COMPILE_OPTION_NAMES) if (options[name] !== undefined) picked[name] = options[name];
  return picked as CompileOptions;
}

/** The options told apart by identity (see schemaMapIds). */
const IDENTIFIED_OPTIONS: ReadonlySet<keyof CompileOptions> = new Set(['schemas', 'customFormats', 'keywords']);

function variantKey(options: CompileOptions): string {
  return JSON.stringify(COMPILE_OPTION_NAMES.map((name) => (IDENTIFIED_OPTIONS.has(name) && options[name] !== undefined ? schemaMapId(options[name] as object) : options[name])));
}

function schemaMapId(schemas: object): number {
  let id = schemaMapIds.get(schemas);
  if (id === undefined) schemaMapIds.set(schemas, (id = nextSchemaMapId++));
  return id;
}
