#!/usr/bin/env node
// Runs every test/**/*.test.ts under node:test with tsx: Node 20's --test does not glob .ts
// files, and a list in package.json forgets the files nobody added to it.
// `node scripts/test.mjs [filter…]` runs only the files whose path contains a filter.
import {spawnSync} from 'node:child_process';
import {readdirSync} from 'node:fs';
import {join, relative} from 'node:path';
import {fileURLToPath} from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function testFiles(directory) {
  const found = [];
  for (const entry of readdirSync(directory, {withFileTypes: true})) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) found.push(...testFiles(path));
    else if (entry.name.endsWith('.test.ts')) found.push(relative(root, path));
  }
  return found.sort();
}

const filters = process.argv.slice(2);
const files = testFiles(join(root, 'test')).filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)));
if (files.length === 0) {
  console.error(`no test file matches ${filters.join(', ')}`);
  process.exit(1);
}
const {status, signal} = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], {cwd: root, stdio: 'inherit'});
process.exit(status ?? (signal ? 1 : 0));
