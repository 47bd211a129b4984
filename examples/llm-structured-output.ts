// Structured output from an LLM API, validated while it streams: the model's JSON arrives as text
// deltas over server-sent events, and the request is aborted at the first certain error instead of
// paying for the rest of a document that can no longer be valid.
//
//   node --import tsx examples/llm-structured-output.ts
//
// The API is simulated (a Response whose body emits SSE frames a few milliseconds apart), so the
// example runs offline; with a real one, `completion` is a `fetch` with `signal`.

import {pathToFileURL} from 'node:url';

import {validateTextStream} from '../adapters/text-stream.js';

/** What the model was asked for. */
export const productSchema = {
  type: 'object',
  properties: {
    name: {type: 'string', minLength: 1},
    price: {type: 'number', minimum: 0},
    currency: {enum: ['EUR', 'USD']},
    tags: {type: 'array', items: {type: 'string'}, maxItems: 5},
  },
  required: ['name', 'price', 'currency'],
  additionalProperties: false,
} as const;

/** What the model writes: it starts well, then adds a member the schema forbids, and rambles on. */
export const modelOutput = JSON.stringify({
  name: 'Trail shoe “Ridge” 🥾',
  price: 89.9,
  currency: 'EUR',
  tags: ['running', 'trail'],
  review: 'An extensive review nobody asked for. '.repeat(40),
});

/**
 * The simulated API: `text` as SSE frames of a few characters each, `{"delta": "..."}` then
 * `[DONE]`, one every `intervalMs`. It stops when `signal` aborts, as a server stops generating
 * (and billing) when the client goes away; `sent` counts what it did generate.
 */
export function completion(text: string, signal: AbortSignal, intervalMs = 1): {response: Response; sent: () => number} {
  let offset = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      return new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          if (offset >= text.length) {
            controller.enqueue(encoder.encode('data: [DONE]\n\n'));
            controller.close();
            return resolve();
          }
          // Deltas of 1 to 6 code units: a delta may end inside an escape or a surrogate pair.
          const delta = text.slice(offset, offset + 1 + (offset % 6));
          offset += delta.length;
          controller.enqueue(encoder.encode(`data: ${JSON.stringify({delta})}\n\n`));
          resolve();
        }, intervalMs);
      });
    },
    cancel() {
      clearTimeout(timer);
    },
  });
  signal.addEventListener('abort', () => clearTimeout(timer), {once: true});
  return {response: new Response(body, {headers: {'content-type': 'text/event-stream'}}), sent: () => offset};
}

/**
 * The text deltas of an SSE body (the HTML standard's event-stream format, `data:` lines only).
 * Leaving the loop early (`return()`) cancels the body: the connection is released.
 */
export async function* textDeltas(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const utf8 = new TextDecoder();
  let buffered = '';
  try {
    for (;;) {
      const {done, value} = await reader.read();
      if (done) return;
      buffered += utf8.decode(value, {stream: true});
      let end: number;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const data = buffered.slice(0, end).split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).join('\n');
        buffered = buffered.slice(end + 2);
        if (data === '[DONE]') return;
        if (data !== '') yield (JSON.parse(data) as {delta: string}).delta;
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

export interface Outcome {
  valid: boolean;
  /** The document was read to its end. */
  complete: boolean;
  /** Characters the simulated API generated before it stopped. */
  generated: number;
  /** Characters of the whole output the model would have written. */
  wanted: number;
  errors: string[];
}

/** Requests a completion, validates it while it streams, and aborts the request at the first certain error. */
export async function run(output = modelOutput): Promise<Outcome> {
  const controller = new AbortController();
  const {response, sent} = completion(output, controller.signal);
  const result = await validateTextStream(textDeltas(response.body!), productSchema, {parse: true});
  if (!result.complete) controller.abort();
  // Give a generator that was not stopped the time to go on, so `generated` shows that it was.
  await new Promise((resolve) => setTimeout(resolve, 20));
  return {
    valid: result.valid,
    complete: result.complete,
    generated: sent(),
    wanted: output.length,
    errors: result.errors.map((unit) => `${unit.instanceLocation || '/'}: ${unit.error} (line ${unit.line}, column ${unit.column})`),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const outcome = await run();
  if (outcome.valid) console.log('the model answered a valid product');
  for (const error of outcome.errors) console.log(`invalid at ${error}`);
  const verb = outcome.complete ? 'read to its end' : 'aborted';
  console.log(`request ${verb} after ${outcome.generated} of ${outcome.wanted} characters`);
}
