// stream-json integration: a file read by stream-json's own parser, its tokens validated as they
// pass. `npm run example:stream-json [document.json]` (default: examples/order.json, whose
// second item has quantity 0).

import {createReadStream, readFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import chain from 'stream-chain';
import {parser} from 'stream-json';
import {tokenConsumer} from '../adapters/stream-json.js';
import {compile, type Result} from '../src/index.js';

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const file = process.argv[2] ?? here('order.json');
const validator = compile(JSON.parse(readFileSync(here('order.schema.json'), 'utf8')));

const pipeline = chain([createReadStream(file), parser(), tokenConsumer(validator)]);
pipeline.on('data', (result: Result) => {
  if (result.valid) console.log(`${file}: valid`);
  // stream-json's tokens carry no positions: errors say where by instance location.
  for (const unit of result.errors) console.log(`${file}: ${unit.error} (instance "${unit.instanceLocation}")`);
  process.exitCode = result.valid ? 0 : 1;
});
pipeline.on('error', (error: Error) => {
  console.error(`${file}: ${error.message}`);
  process.exitCode = 2;
});
