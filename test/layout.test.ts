// The source tree's layout (docs/architecture.md, "Parts"): every import of src/ — type imports
// included — points from a part to itself or to a part below it, and no files import each other in
// a circle. src/index.ts only re-exports.

import assert from 'node:assert/strict';
import {readFileSync, readdirSync} from 'node:fs';
import {dirname, join, relative, resolve} from 'node:path';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';

const src = fileURLToPath(new URL('../src/', import.meta.url));

/** The parts, lowest first; a file at the top of src/ is its own part. */
const parts = ['types.ts', 'output', 'json', 'formats', 'schema', 'keywords', 'compile', 'engine', 'session', 'index.ts'];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, {withFileTypes: true}).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative module a file imports: `import`, `import type`, `export … from` and `import('…')` types. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)(['"])(\.{1,2}\/[^'"]+)\1/gm)) {
    found.push(resolve(dirname(file), match[2]!.replace(/\.js$/, '.ts')));
  }
  return found;
}

const partOf = (file: string): string => relative(src, file).split('/')[0]!;
const files = sourceFiles(src);
const graph = new Map(files.map((file) => [file, importsOf(file)]));

test('every file of src/ lies in a known part', () => {
  const unknown = files.filter((file) => !parts.includes(partOf(file))).map((file) => relative(src, file));
  assert.deepEqual(unknown, []);
});

test('imports point from a part to itself or to a part below it', () => {
  const upward: string[] = [];
  for (const [file, imports] of graph) {
    for (const target of imports) {
      if (parts.indexOf(partOf(target)) > parts.indexOf(partOf(file))) upward.push(`${relative(src, file)} → ${relative(src, target)}`);
    }
  }
  assert.deepEqual(upward, []);
});

test('no files import each other in a circle (type imports included)', () => {
  const circles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    path.push(file);
    for (const target of graph.get(file) ?? []) {
      if (state.get(target) === 'open') circles.push(path.slice(path.indexOf(target)).concat(target).map((each) => relative(src, each)).join(' → '));
      else if (!state.has(target)) visit(target);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  assert.deepEqual(circles, []);
});

test('src/index.ts only re-exports', () => {
  const statements = readFileSync(join(src, 'index.ts'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('//'));
  assert.deepEqual(
    statements.filter((line) => !/^export (type )?(\*|\{[^}]*\}) from '[^']+';$/.test(line)),
    [],
  );
});

/** Longest a file of src/ or adapters/ may be, in lines. */
const MAX_LINES = 900;

test(`no file of src/ or adapters/ is over ${MAX_LINES} lines`, () => {
  const adapters = fileURLToPath(new URL('../adapters/', import.meta.url));
  const root = fileURLToPath(new URL('..', import.meta.url));
  const long = [...files, ...sourceFiles(adapters)]
    .map((file) => ({file: relative(root, file), lines: readFileSync(file, 'utf8').split('\n').length}))
    .filter(({lines}) => lines > MAX_LINES);
  assert.deepEqual(long, []);
});
