// A worker thread of ParallelNdjsonReader (adapters/ndjson-workers.ts): compiles the recipe it is
// started with, then answers each batch with its records, in the order the batches came.

import { parentPort, workerData } from 'node:worker_threads';
import { BatchValidator, compileRecipe, type BatchMessage, type WorkerRecipe } from './ndjson-workers.js';

const recipe = workerData as WorkerRecipe;
const port = parentPort!;
// Messages that arrive while the recipe compiles wait in order behind it.
const validating = compileRecipe(recipe).then((validator) => new BatchValidator(validator, recipe));

port.on('message', (message: BatchMessage) => {
  validating
    .then((batches) => batches.validate(message))
    .then(
      (result) => port.postMessage(result, [result.buffer]),
      (error: unknown) => port.postMessage({ sequence: message.sequence, error: describe(error) }),
    );
});

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
