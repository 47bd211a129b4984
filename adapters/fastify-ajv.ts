// Fastify's own validation, read as stream-schema's compile options, so that the Fastify plugin
// judges and changes a body as Fastify's validation would (adapters/fastify.ts).
//
// Fastify validates with ajv through @fastify/ajv-compiler: `new Ajv({...defaults,
// ...ajv.customOptions})`, then each of `ajv.plugins`, then ajv-formats unless a plugin was it
// (lib/validator-compiler.js). Its defaults (lib/default-ajv-options.js) are `coerceTypes:
// 'array'`, `useDefaults: true`, `removeAdditional: true`, `allErrors: false`, and ajv's own:
// formats asserted, strict schemas (an unknown keyword or format fails the route at ready()), and
// OpenAPI's `nullable`, which ajv always knows.
//
// Whatever of that has no counterpart here is refused when the routes compile: ignoring it would
// let through bodies that Fastify's validation refuses.

import {ArgumentError, SchemaError} from '../src/index.js';
import {formatsFor} from '../src/formats/index.js';
import type {CustomFormat, Draft, SchemaWarning} from '../src/types.js';
import type {ValidatorOptions} from './http-errors.js';

/** The `ajv` server option as Fastify hands it to a validator builder (fastify.js fills both in). */
export interface FastifyAjvOptions {
  customOptions?: Record<string, unknown>;
  plugins?: unknown[];
  onCreate?: unknown;
  mode?: unknown;
}

/** ajv-formats' `dist/formats` module, as loaded from Fastify's dependencies. */
export interface AjvFormatsModule {
  fullFormats: Record<string, unknown>;
}

/**
 * Fastify's defaults as the plugin's. ajv reads a schema without `$schema` as draft-07, but applies
 * the siblings of `$ref` and knows `$defs`: draft-07 with `refSiblings: 'apply'` is that reading
 * (`$defs` is a schema holder in every draft).
 */
const FASTIFY_DEFAULTS: Readonly<ValidatorOptions> = {
  coerceTypes: 'array',
  useDefaults: true,
  removeAdditional: true,
  allErrors: false,
  formats: 'assert',
  strictSchema: true,
  nullable: true,
  draft: 'draft7',
  refSiblings: 'apply',
};

/** ajv options that are compile options of the same name and meaning. */
const SAME_MEANING = ['coerceTypes', 'useDefaults', 'removeAdditional', 'allErrors'] as const;

/**
 * ajv options that change neither a JSON body's verdict nor its value: how ajv builds its code,
 * reports or logs, or which schemas it refuses to compile (`strictTypes`, `strictRequired`, …: the
 * plugin takes those schemas and judges them by their keywords). `ownProperties`: a parsed JSON
 * body has no inherited properties. `next`, `unevaluated`, `dynamicRef`: keywords 2020-12 has.
 */
const NO_EFFECT_ON_BODIES: ReadonlySet<string> = new Set([
  'uriResolver', 'addUsedSchema', 'code', 'messages', 'verbose', 'logger', 'loopRequired', 'loopEnum',
  'inlineRefs', 'passContext', 'ownProperties', 'strictTypes', 'strictTuples', 'strictRequired',
  'strictNumbers', 'allowUnionTypes', 'allowMatchingProperties', 'validateSchema', 'meta',
  'defaultMeta', 'loadSchema', '$comment', 'next', 'unevaluated', 'dynamicRef',
  // ajv 8 no longer takes it (its "NOT SUPPORTED" list): the keyword is always on.
  'nullable',
]);

/**
 * Keywords Fastify's ajv judges (ajv-formats' comparisons, and `nullable` where the plugin's
 * `nullable: false` turns it off) that the compile options do not know. Strict schemas
 * refuse them; a schema read without strictness would ignore them where Fastify judges by them,
 * so it is refused too.
 */
const AJV_ONLY_KEYWORDS: ReadonlySet<string> = new Set([
  'nullable',
  'formatMinimum', 'formatMaximum', 'formatExclusiveMinimum', 'formatExclusiveMaximum',
]);

/**
 * `given` (the plugin's options) on top of the compile options that judge a body as Fastify's
 * validation does, given the `ajv` server option: Fastify's defaults, what `ajv.customOptions`
 * says, and the formats Fastify's ajv has.
 *
 * @throws TypeError for an `ajv` option with no counterpart here.
 */
export function withFastifyOptions<Options extends ValidatorOptions>(given: Options, ajv: FastifyAjvOptions | undefined, ajvFormats: () => AjvFormatsModule): Options {
  const fastify = fastifyCompileOptions(ajv);
  const draft = given.draft ?? fastify.draft!;
  // The constructor's `formats` first, then ajv-formats, which replaces those of its names, then the plugin's.
  const formats = {...fromAjvFormats(ajv?.customOptions?.['formats'], 'ajv.customOptions.formats'), ...withDraftFormats(fromAjvFormats(ajvFormats().fullFormats, 'ajv-formats'), draft)};
  return {...fastify, ...given, customFormats: {...formats, ...given.customFormats}};
}

/** Fastify's defaults and what `ajv.customOptions` says, formats aside. */
function fastifyCompileOptions(ajv: FastifyAjvOptions | undefined): ValidatorOptions {
  const custom = ajv?.customOptions ?? {};
  refuseUnmapped(ajv, custom);
  const options: ValidatorOptions = {...FASTIFY_DEFAULTS};
  for (const name of SAME_MEANING) if (custom[name] !== undefined) (options as Record<string, unknown>)[name] = custom[name];
  // ajv: `strictSchema` defaults to `strict`, which defaults to true; 'log' warns where true throws.
  const strict = custom['strictSchema'] ?? custom['strict'];
  if (strict !== undefined) options.strictSchema = strict === 'log' ? 'warn' : Boolean(strict);
  // ajv ignores an unknown format, as an unknown keyword, unless strict (ajv's `unknownFormat`).
  if (options.strictSchema !== true) options.unknownFormats = 'ignore';
  if (custom['validateFormats'] === false) options.formats = 'annotate';
  if ((ajv?.plugins ?? []).some(isAjvErrors)) options.errorMessages = true;
  return options;
}

/**
 * ajv-errors, given without options: its `errorMessage` keyword is compile's with `errorMessages:
 * true`. With options (`keepErrors`, `singleError`) it is refused: those have no counterpart.
 */
function isAjvErrors(plugin: unknown): boolean {
  return typeof plugin === 'function' && plugin.name === 'ajvErrors';
}

function refuseUnmapped(ajv: FastifyAjvOptions | undefined, custom: Record<string, unknown>): void {
  if (ajv?.mode !== undefined && ajv.mode !== 'JSON') throw new ArgumentError(`ajv.mode ${String(ajv.mode)}: stream-schema validates JSON Schema, not JTD`);
  if (ajv?.onCreate !== undefined) throw new ArgumentError("ajv.onCreate: what it does to Fastify's ajv cannot be done to the bodies stream-schema validates; remove it, or give its formats to the plugin's customFormats");
  for (const plugin of ajv?.plugins ?? []) {
    // The plugin Fastify adds itself when none is given (the same test as @fastify/ajv-compiler's).
    if (typeof plugin === 'function' && plugin.name === 'formatsPlugin') continue;
    if (isAjvErrors(plugin)) continue;
    const name = typeof plugin === 'function' ? plugin.name : Array.isArray(plugin) && typeof plugin[0] === 'function' ? `${plugin[0].name} with options` : typeof plugin;
    throw new ArgumentError(`ajv.plugins (${name || 'anonymous'}): an ajv plugin's keywords or formats cannot be added to the bodies stream-schema validates; remove it, give its formats to the plugin's customFormats, or leave such routes to Fastify's validation (register the plugin in a scope without them)`);
  }
  for (const name of Object.keys(custom)) {
    if (SAME_MEANING.includes(name as never) || NO_EFFECT_ON_BODIES.has(name)) continue;
    if (['strict', 'strictSchema', 'validateFormats', 'formats'].includes(name)) continue;
    if (name === 'unicodeRegExp' && custom[name] !== false) continue;
    if (name === 'discriminator' && custom[name] !== true) continue;
    if (name === '$data' && custom[name] !== true) continue;
    throw new ArgumentError(`ajv.customOptions.${name}: stream-schema, which validates the bodies, has no such option, and ignoring it could let through a body that Fastify's validation refuses; remove it, or leave such routes to Fastify's validation (register the plugin in a scope without them)`);
  }
}

/** ajv format definitions (`ajv.addFormat`'s: `true`, a RegExp or its source, a function, or an object with `validate` and, for numbers, `type: 'number'`) as customFormats. */
function fromAjvFormats(definitions: unknown, source: string): Record<string, CustomFormat> {
  const formats: Record<string, CustomFormat> = {};
  if (definitions === undefined) return formats;
  if (typeof definitions !== 'object' || definitions === null) throw new ArgumentError(`${source} must be an object of ajv format definitions`);
  for (const [name, definition] of Object.entries(definitions)) formats[name] = fromAjvFormat(name, definition, source);
  return formats;
}

function fromAjvFormat(name: string, definition: unknown, source: string): CustomFormat {
  // `true`: a name ajv knows and does not check (ajv-formats' `password`, `binary`).
  if (definition === true) return () => true;
  if (typeof definition === 'string') return new RegExp(definition);
  if (definition instanceof RegExp || typeof definition === 'function') return definition as CustomFormat;
  if (typeof definition === 'object' && definition !== null) {
    const {type, validate, async} = definition as {type?: unknown; validate?: unknown; async?: unknown};
    if (async !== true && (type === undefined || type === 'string') && (validate instanceof RegExp || typeof validate === 'function')) return validate as CustomFormat;
    if (async !== true && type === 'number' && typeof validate === 'function') return {type: 'number', validate: validate as (value: number) => boolean};
  }
  throw new ArgumentError(`${source}: format "${name}" is neither a RegExp, a function, nor a string or number format definition that stream-schema can check`);
}

/**
 * ajv-formats' string formats, each joined to the draft's format of that name where the draft has
 * one: a string must then pass both. ajv-formats' checks are laxer than the RFCs in places
 * (`example.` as a hostname, `urn:uuid:` before a UUID) and stricter in others (an email's quoted
 * local part), and a body that either refuses is refused.
 */
function withDraftFormats(formats: Record<string, CustomFormat>, draft: Draft): Record<string, CustomFormat> {
  const joined: Record<string, CustomFormat> = {};
  for (const [name, format] of Object.entries(formats)) joined[name] = isStringFormat(format) ? withDraftFormat(name, format, draft) : format;
  return joined;
}

function isStringFormat(format: CustomFormat): format is RegExp | ((value: string) => boolean) {
  return format instanceof RegExp || typeof format === 'function';
}

/** `format`, and the draft's format of that name where the draft has one. */
function withDraftFormat(name: string, format: RegExp | ((value: string) => boolean), draft: Draft): (value: string) => boolean {
  const own = typeof format === 'function' ? format : (value: string) => format.test(value);
  const drafts = formatsFor(draft).get(name);
  return drafts === undefined ? own : (value) => own(value) === true && drafts(value);
}

/**
 * A schema compiled without strictness keeps quiet about the keywords it ignores; those Fastify's
 * ajv judges are refused (see AJV_ONLY_KEYWORDS).
 *
 * @throws TypeError naming the first.
 */
export function refuseAjvOnlyKeywords(warnings: readonly SchemaWarning[]): void {
  const ignored = warnings.find((warning) => AJV_ONLY_KEYWORDS.has(warning.keyword));
  if (ignored !== undefined) throw ajvOnlyKeyword(ignored.keyword, ignored.schemaLocation);
}

/** What compiling a body schema threw, told as a keyword Fastify's ajv knows where it is one. */
export function explainedSchemaError(thrown: unknown): unknown {
  if (!(thrown instanceof SchemaError) || thrown.code !== 'schema.keyword.unknown') return thrown;
  const keyword = thrown.schemaLocation.slice(thrown.schemaLocation.lastIndexOf('/') + 1);
  return AJV_ONLY_KEYWORDS.has(keyword) ? ajvOnlyKeyword(keyword, thrown.schemaLocation) : thrown;
}

function ajvOnlyKeyword(keyword: string, schemaLocation: string): TypeError {
  const instead = keyword === 'nullable' ? '; list "null" in its type instead, or leave the option nullable on' : '';
  return new ArgumentError(`keyword "${keyword}" at ${schemaLocation || '/'}: Fastify's ajv judges by it, stream-schema does not know it, and a body it would refuse must not pass${instead}`);
}
