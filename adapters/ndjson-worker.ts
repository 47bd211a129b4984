// A worker thread of ParallelNdjsonReader (adapters/ndjson-workers.ts): compiles the recipe it is
// started with, then answers each batch with its records, in the order the batches came.

import { parentPort, workerData } from 'node:worker_threads';
import { describeThrown } from './ndjson-lines.js';
import { BatchValidator, compileRecipe, type BatchMessage, type WorkerFailure, type WorkerRecipe } from './ndjson-workers.js';

const recipe = workerData as WorkerRecipe;
const port = parentPort!;
// Messages that arrive while the recipe compiles wait in order behind it.
const validating = compileRecipe(recipe).then((validator) => new BatchValidator(validator, recipe));

port.on('message', (message: BatchMessage) => {
  validating
    .then((batches) => batches.validate(message))
    .then(
      (result) => {
        // What a record threw may not be sent as it is (a function, a class instance): it is described.
        if (result.threw !== undefined) result.threw.error = describeThrown(result.threw.error);
        port.postMessage(result, [result.buffer]);
      },
      (error: unknown) => port.postMessage(failureOf(message.sequence, error)),
    );
});

/** What the reading thread is told of the worker's own throw. */
function failureOf(sequence: number, error: unknown): WorkerFailure {
  return { sequence, error: error instanceof Error ? error.message : String(error) };
}
