// stream-json integration (`stream-schema/stream-json`): validate the tokens of a stream-json
// pipeline that already exists, without tokenizing the text a second time.
//
//   chain([fs.createReadStream('doc.json'), parser(), tokenConsumer(schema)])
//     .on('data', (result) => ...);   // one Result: early when certainly invalid, else at the end
//
// stream-json and stream-chain are optional peer dependencies: only this entry loads them.

import {flushable, none} from 'stream-chain/defs.js';
import {tokenValidator, type StreamJsonToken} from '../src/index.js';
import type {CompileOptions, Result, SchemaOrValidator} from '../src/types.js';
import {validatorFor} from './validator-cache.js';
import {optionsArgument} from '../src/session/options.js';

export type {StreamJsonToken} from '../src/index.js';

/**
 * A stage for a stream-chain pipeline after stream-json's `parser()`: give it every token. It
 * emits the document's one Result as soon as the document is certainly invalid (except with
 * `allErrors`, which reads on for every error), else when the stream ends; tokens after an early
 * Result are dropped. Works with packed values, streamed values or both. `schema` is a JSON
 * Schema, compiled once with `options`, or a validator made by `compile` (then no options).
 */
export function tokenConsumer(schema: SchemaOrValidator, options?: CompileOptions): (token: StreamJsonToken | typeof none) => Result | typeof none {
  const validator = validatorFor(schema, optionsArgument(options, 'tokenConsumer'));
  const document = tokenValidator(validator);
  let concluded = false;
  return flushable((token: StreamJsonToken | typeof none): Result | typeof none => {
    if (concluded) return none;
    if (token === none) {
      concluded = true;
      return document.end();
    }
    if (document.push(token) || validator.allErrors) return none;
    concluded = true;
    return document.end();
  });
}
