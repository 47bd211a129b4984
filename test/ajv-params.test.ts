// Error params as ajv gives them, so that handlers written against ajv's `params` keep working:
// both validators judge the official suite's invalid documents (allErrors false on both), and
// where both report the same keyword at the same instance location, ajv's params must be ours
// (ours may carry more keys). The agreement per keyword is printed; the listed keywords must
// agree on every document.

import assert from 'node:assert/strict';
import {test} from 'node:test';

import Ajv from 'ajv';
import Ajv2019 from 'ajv/dist/2019.js';
import Ajv2020 from 'ajv/dist/2020.js';
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';

import {parsePointer, resolvePointer} from '../src/json/pointer.js';
import {compile} from '../src/index.js';
import type {Draft, OutputUnit} from '../src/types.js';
import {remotes, suiteFiles} from './support/suite.js';

type AjvError = {keyword: string; instancePath: string; schemaPath: string; params: Record<string, unknown>; schema: unknown};
type AjvValidate = ((data: unknown) => boolean) & {errors?: AjvError[] | null};
type AjvLike = {compile(schema: unknown): AjvValidate; addSchema(schema: unknown, key: string): unknown};

/** The keywords whose params must be ajv's on every document where both report them. */
const required = new Set([
  'type', 'enum', 'const', 'required', 'additionalProperties',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties',
  'pattern', 'format', 'dependentRequired', 'dependencies', 'not',
]);

function makeAjv(draft: Draft): AjvLike {
  const options = {strict: false, allErrors: false, validateFormats: true, logger: false, verbose: true} as const;
  const ajv =
    draft === 'draft2020-12'
      ? new Ajv2020.default(options)
      : draft === 'draft2019-09'
        ? new Ajv2019.default(options)
        : draft === 'draft4'
          ? new AjvDraft04.default(options)
          : new Ajv.default(options);
  addFormats.default(ajv as never);
  for (const [uri, schema] of Object.entries(remotes())) {
    try {
      ajv.addSchema(schema as object, uri);
    } catch {
      // A remote in another draft's dialect: a case that needs it is skipped (its compile throws).
    }
  }
  return ajv as unknown as AjvLike;
}

interface Tally {
  agreed: number;
  compared: number;
  disagreements: string[];
}

test('params agree with ajv on the suite\'s invalid documents', () => {
  const tallies = new Map<string, Tally>();
  const schemas = remotes();
  for (const draft of ['draft4', 'draft6', 'draft7', 'draft2019-09', 'draft2020-12'] as const) {
    const ajv = makeAjv(draft);
    const files = [...suiteFiles(draft, false), ...suiteFiles(draft, true).filter((file) => file.name.startsWith('optional/format/'))];
    for (const file of files) {
      for (const schemaCase of file.cases) {
        let ajvValidate: AjvValidate;
        let ours: ReturnType<typeof compile>;
        try {
          ajvValidate = ajv.compile(schemaCase.schema);
          ours = compile(schemaCase.schema, {draft, schemas, formats: 'assert'});
        } catch {
          continue;
        }
        for (const suiteTest of schemaCase.tests) {
          if (suiteTest.valid || ajvAccepts(ajvValidate, suiteTest.data)) continue;
          const ourErrors = ours.validate(suiteTest.data).errors;
          const pair = firstSharedError(ajvValidate.errors ?? [], ourErrors, schemaCase.schema);
          if (pair === undefined) continue;
          const [theirs, mine] = pair;
          const tally = tallies.get(theirs.keyword) ?? {agreed: 0, compared: 0, disagreements: []};
          tallies.set(theirs.keyword, tally);
          tally.compared++;
          // ajv's params is always an object, and so is ours: a handler reads it without a guard.
          if (mine.params !== undefined && paramsAgree(theirs.params, mine.params)) tally.agreed++;
          else tally.disagreements.push(`${draft}/${file.name} "${schemaCase.description}" / "${suiteTest.description}": ajv ${JSON.stringify(theirs.params)}, ours ${JSON.stringify(mine.params)}`);
        }
      }
    }
  }
  let agreed = 0;
  let compared = 0;
  const lines: string[] = [];
  for (const [keyword, tally] of [...tallies].sort(([a], [b]) => a.localeCompare(b))) {
    agreed += tally.agreed;
    compared += tally.compared;
    lines.push(`  ${keyword.padEnd(22)} ${tally.agreed}/${tally.compared}${required.has(keyword) ? '' : '  (not required)'}`);
    for (const example of tally.disagreements.slice(0, Number(process.env.PARAMS_EXAMPLES ?? 2))) lines.push(`      ${example}`);
  }
  console.log(`params agree with ajv on ${agreed} of ${compared} errors (${((100 * agreed) / compared).toFixed(1)}%):\n${lines.join('\n')}`);
  for (const [keyword, tally] of tallies) {
    if (!required.has(keyword)) continue;
    assert.deepEqual(tally.disagreements, [], `${keyword}: params differ from ajv's`);
  }
});

/** ajv's verdict; a document ajv cannot judge (it recurses without end on some) counts as accepted. */
function ajvAccepts(validate: AjvValidate, data: unknown): boolean {
  try {
    return validate(data);
  } catch {
    return true;
  }
}

/**
 * The first of ajv's errors that we report too: the same keyword at the same instance location,
 * from the same place in the schema, so that errors of one keyword from two subschemas are not
 * compared. ajv's `schemaPath` is a pointer within the schema its `$ref`s led to, so it ends our
 * `keywordLocation`, which may still name another subschema (`/oneOf/1/required` of the root and of
 * a `$defs` entry): the keyword's value (ajv's verbose `schema`) must be the one at our
 * `absoluteKeywordLocation`, where that is in the root schema.
 */
function firstSharedError(theirs: readonly AjvError[], ours: readonly OutputUnit[], root: unknown): [AjvError, OutputUnit] | undefined {
  for (const error of theirs) {
    const path = error.schemaPath.slice(1);
    const candidates = ours.filter((unit) => unit.keyword === error.keyword && sameInstance(error, unit) && unit.keywordLocation.endsWith(path));
    const chosen = candidates.filter((unit) => {
      const value = keywordValue(root, unit);
      return value === undefined || isDeepStrictEqual(value, error.schema);
    });
    if (chosen.length === 1) return [error, chosen[0]!];
  }
  return undefined;
}

/**
 * Keywords that refuse a member of an object or array: ajv reports the error at the container,
 * we at the member itself (its key or index is the last token of our `instanceLocation`).
 */
const memberKeywords = new Set(['additionalProperties', 'unevaluatedProperties', 'propertyNames', 'additionalItems', 'items', 'unevaluatedItems']);

function sameInstance(error: AjvError, unit: OutputUnit): boolean {
  if (unit.instanceLocation === error.instancePath) return true;
  return memberKeywords.has(error.keyword) && unit.instanceLocation.slice(0, unit.instanceLocation.lastIndexOf('/')) === error.instancePath;
}

/** The value of a unit's keyword, when it sits in a resource of the case's schema (not a remote). */
function keywordValue(root: unknown, unit: OutputUnit): unknown {
  const [base, fragment] = (unit.absoluteKeywordLocation ?? '').split('#');
  const resource = resourcesOf(root).get(base ?? '');
  const tokens = fragment === undefined ? undefined : parsePointer(fragment);
  return resource === undefined || tokens === undefined ? undefined : resolvePointer(resource, tokens);
}

/** The schema resources within a case's schema, by absolute URI (the root's placeholder without an `$id`). */
function resourcesOf(root: unknown): Map<string, unknown> {
  const resources = new Map<string, unknown>();
  const visit = (schema: unknown, base: string): void => {
    if (typeof schema !== 'object' || schema === null) return;
    const id = (schema as {$id?: unknown}).$id;
    if (typeof id === 'string' && !id.startsWith('#')) {
      base = new URL(id, base).href.split('#')[0]!;
      resources.set(base, schema);
    }
    for (const member of Object.values(schema)) visit(member, base);
  };
  resources.set(ROOT_URI, root);
  visit(root, ROOT_URI);
  return resources;
}

/** compile's base URI for a schema without an `$id`. */
const ROOT_URI = 'stream-schema:///root.json';

/** ajv's params, each equal to ours (ours may say more). */
function paramsAgree(theirs: Record<string, unknown>, ours: Record<string, unknown>): boolean {
  return Object.entries(theirs).every(([name, value]) => isDeepStrictEqual(value, ours[name]));
}

function isDeepStrictEqual(a: unknown, b: unknown): boolean {
  try {
    assert.deepStrictEqual(a, b);
    return true;
  } catch {
    return false;
  }
}
