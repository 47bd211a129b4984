// stream-json integration (`stream-schema/stream-json`): validate the tokens of a stream-json
// pipeline that already exists, without tokenizing the text a second time.
//
//   chain([fs.createReadStream('doc.json'), parser(), tokenConsumer(compile(schema))])
//     .on('data', (result) => ...);   // one Result when the stream ends
//
// stream-json and stream-chain are optional peer dependencies: only this entry loads them.

import {flushable, none} from 'stream-chain/defs.js';
import {tokenValidator, type StreamJsonToken} from '../src/index.js';
import type {Result, Validator} from '../src/types.js';

export type {StreamJsonToken} from '../src/index.js';

/**
 * A stage for a stream-chain pipeline after stream-json's `parser()`: give it every token; when
 * the stream ends it emits the document's Result. Works with packed values, streamed values or both.
 */
export function tokenConsumer(validator: Validator): (token: StreamJsonToken | typeof none) => Result | typeof none {
  const document = tokenValidator(validator);
  return flushable((token: StreamJsonToken | typeof none): Result | typeof none => {
    if (token === none) return document.end();
    document.push(token);
    return none;
  });
}
