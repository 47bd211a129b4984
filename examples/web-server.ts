// A fetch-style handler, `(request: Request) => Response`, served by Node's own http server: the
// shape of a Hono app, a Next.js route handler, or Bun's and Deno's `serve`, here with nothing but
// Node 20. The route validates its body with stream-schema/web.
//
//   node --import tsx examples/web-server.ts          (PORT=8080 to pick the port)
//   curl -i 127.0.0.1:3000/orders -H 'content-type: application/json' -d '{"customer": "ada", "items": []}'
//
// `serve` is what a framework's Node adapter does, with one difference that matters for early
// refusals: when the handler answers before the upload's end (validateRequest cancelled the
// body), the connection still holds the unread rest, so the answer closes it, after a lingering
// close that lets the client read the answer (see lingeringClose in adapters/http-body.ts).

import {once} from 'node:events';
import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http';
import {pathToFileURL} from 'node:url';

import {lingeringClose} from '../adapters/http-body.js';
import {problemResponse, validateRequest} from '../adapters/web.js';

export type FetchHandler = (request: Request) => Response | Promise<Response>;

/** An http.Server that answers each request with `handler`'s Response; not yet listening. */
export function serve(handler: FetchHandler): Server {
  return createServer((req, res) => {
    void answer(handler, req, res);
  });
}

async function answer(handler: FetchHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let response: Response;
  try {
    response = await handler(toRequest(req));
  } catch (error) {
    response = problemResponse(error);
  }
  await send(req, res, response);
}

/** RFC 9110 §9.3.1, §9.3.2: a GET or HEAD request's content has no meaning; fetch refuses one. */
const WITHOUT_BODY = new Set(['GET', 'HEAD']);

export function toRequest(req: IncomingMessage): Request {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const headers = new Headers();
  for (let index = 0; index < req.rawHeaders.length; index += 2) headers.append(req.rawHeaders[index]!, req.rawHeaders[index + 1]!);
  const method = req.method ?? 'GET';
  if (WITHOUT_BODY.has(method)) return new Request(url, {method, headers});
  // Node 20's RequestInit type lacks `duplex`, which a stream body requires.
  const init: RequestInit & {duplex: 'half'} = {method, headers, body: bodyOf(req), duplex: 'half'};
  return new Request(url, init);
}

/**
 * The request body as a web stream, pulled as the handler reads it. Unlike `Readable.toWeb`,
 * cancelling it only stops reading: destroying the request would take the socket, and with it
 * the answer, away.
 */
function bodyOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  let open = true;
  const stop = (): void => {
    open = false;
    req.pause();
    req.removeAllListeners('data');
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      // A read of nothing marks the body as taken: without it Node would read and discard the
      // unread rest of a refused body after the answer, all 50 MB of it, to keep the connection.
      req.read(0);
      req.pause();
      req.on('data', (chunk: Buffer) => {
        controller.enqueue(chunk);
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      req.on('end', () => {
        if (open) controller.close();
        open = false;
      });
      req.on('close', () => {
        if (open && !req.complete) controller.error(new Error('the client closed the connection before the body ended'));
        open = false;
      });
    },
    pull() {
      req.resume();
    },
    cancel: stop,
  });
}

async function send(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  // The answer comes before the body's end: the unread rest would be taken for the next request.
  if (!req.complete) {
    req.pause();
    res.shouldKeepAlive = false;
    res.setHeader('Connection', 'close');
    lingeringClose(req.socket);
  }
  res.statusCode = response.status;
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie') res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('Set-Cookie', cookies);
  if (response.body === null) return void res.end();
  for await (const chunk of response.body) {
    if (!res.write(chunk)) await once(res, 'drain');
  }
  res.end();
}

// ---------------------------------------------------------------------------------------------
// The demo route

/** What POST /orders takes. */
export const orderSchema = {
  type: 'object',
  properties: {
    customer: {type: 'string', minLength: 1},
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: {sku: {type: 'string'}, quantity: {type: 'integer', minimum: 1}},
        required: ['sku', 'quantity'],
      },
    },
  },
  required: ['customer', 'items'],
} as const;

/** POST /orders takes an order; anything else is a 404. */
export async function shop(request: Request): Promise<Response> {
  if (request.method !== 'POST' || new URL(request.url).pathname !== '/orders') return new Response(null, {status: 404});
  try {
    const order = await validateRequest(request, orderSchema, {limit: '1mb'});
    return Response.json({received: order.items.length, customer: order.customer}, {status: 201});
  } catch (error) {
    return problemResponse(error);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const port = Number(process.env.PORT ?? 3000);
  // Loopback only: an example is for trying on this machine, not for the network.
  serve(shop).listen(port, '127.0.0.1', () => console.log(`POST http://127.0.0.1:${port}/orders`));
}
