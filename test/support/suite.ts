// Reading the official JSON-Schema-Test-Suite from ../shared (or $JSON_SCHEMA_TEST_SUITE).
// The suite is data we read, never copy. A missing suite is a failure, not a skip.

import {existsSync, readFileSync, readdirSync, statSync} from 'node:fs';
import {join, relative} from 'node:path';
import {fileURLToPath} from 'node:url';
import type {CompileOptions, Draft} from '../../src/types.js';

export const suiteRoot =
  process.env.JSON_SCHEMA_TEST_SUITE ?? fileURLToPath(new URL('../../../shared/json-schema-test-suite', import.meta.url));

export function requireSuite(): string {
  if (!existsSync(join(suiteRoot, 'tests'))) {
    throw new Error(`JSON-Schema-Test-Suite not found at ${suiteRoot} (set JSON_SCHEMA_TEST_SUITE)`);
  }
  return suiteRoot;
}

/** `<draft>/<file>` or `<draft>/<file>/<case>/<test>` → why it cannot pass. Only ever shrinks. */
export const suiteSkips: ReadonlyMap<string, string> = new Map<string, string>([
  [
    'draft4/optional/zeroTerminatedFloats.json/some languages do not distinguish between different types of numeric value/a float is not an integer even without fractional part',
    'JavaScript numbers cannot tell 1.0 from 1, so value mode cannot follow draft 4 here; both modes agree that 1.0 is an integer, as later drafts say',
  ],
  ['draft2019-09/optional/dependencies-compatibility.json', '`dependencies` ends at draft 7 (spec §9); the optional compatibility form is not offered in later drafts'],
  ['draft2020-12/optional/dependencies-compatibility.json', '`dependencies` ends at draft 7 (spec §9); the optional compatibility form is not offered in later drafts'],
  ['draft7/optional/content.json', 'contentEncoding/contentMediaType are annotations, as 2019-09 and later say; draft 7 allowed but did not require asserting them'],
]);

/**
 * The format options a file runs with: the required files as the spec's default (formats
 * annotate), the optional ones with formats asserted, and an asserted format we do not know let
 * through, as optional/format/unknown.json expects (compile would refuse the schema otherwise).
 */
export function suiteFormats(optional: boolean): Pick<CompileOptions, 'formats' | 'unknownFormats'> {
  return optional ? {formats: 'assert', unknownFormats: 'ignore'} : {formats: 'annotate'};
}

export const drafts: readonly Draft[] = ['draft4', 'draft6', 'draft7', 'draft2019-09', 'draft2020-12'];

export interface SuiteTest {
  description: string;
  data: unknown;
  valid: boolean;
}

export interface SuiteCase {
  description: string;
  schema: unknown;
  tests: SuiteTest[];
}

export interface SuiteFile {
  /** e.g. `required.json`, `optional/bignum.json`, `optional/format/email.json`. */
  name: string;
  cases: SuiteCase[];
}

function listJson(directory: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(directory).sort()) {
    const path = join(directory, entry);
    if (statSync(path).isDirectory()) files.push(...listJson(path));
    else if (entry.endsWith('.json')) files.push(path);
  }
  return files;
}

/** Every test file of a draft; `optional` selects the optional/ tree instead of the required one. */
export function suiteFiles(draft: Draft, optional: boolean): SuiteFile[] {
  const directory = join(requireSuite(), 'tests', draft);
  return listJson(directory)
    .map((path) => relative(directory, path))
    .filter((name) => name.startsWith('optional/') === optional)
    .map((name) => ({name, cases: JSON.parse(readFileSync(join(directory, name), 'utf8')) as SuiteCase[]}));
}

/** The suite's remotes/ as `schemas` for compile, served at http://localhost:1234/. */
export function remotes(): Record<string, unknown> {
  const directory = join(requireSuite(), 'remotes');
  const schemas: Record<string, unknown> = {};
  for (const path of listJson(directory)) {
    schemas['http://localhost:1234/' + relative(directory, path)] = JSON.parse(readFileSync(path, 'utf8'));
  }
  return schemas;
}
