// The web front doors on other runtimes, against dist/ (`npm run build` first):
//
//   bun scripts/web-runtimes.mjs
//   deno run -A scripts/web-runtimes.mjs
//   node scripts/web-runtimes.mjs hono      (needs hono and @hono/node-server installed)
//
// Each serves a fetch handler on 127.0.0.1 with the runtime's own server (Bun.serve, Deno.serve,
// Hono on @hono/node-server with its default error handler) and checks the verdicts, gzip, an early
// 422 on a 50 MB streamed upload and on a raw socket, the same client's next requests, and the text
// stream. It prints a line per check and exits 1 if one failed. Not part of `npm test`: the
// runtimes are not dependencies of the project.

import {validateRequest, problemResponse, validationStream} from '../dist/adapters/web.js';
import {validateTextStream} from '../dist/adapters/text-stream.js';
import net from 'node:net';

const runtime = typeof Bun !== 'undefined' ? 'bun' : typeof Deno !== 'undefined' ? 'deno' : process.argv[2] === 'hono' ? 'hono' : 'node';
const itemSchema = {type: 'object', properties: {name: {type: 'string'}, forbidden: false}, required: ['name']};
async function handler(request) {
  const path = new URL(request.url).pathname;
  try {
    const limit = path === '/uploads' ? '100mb' : '64kb';
    return Response.json({received: await validateRequest(request, itemSchema, {limit})}, {status: 201});
  } catch (error) {
    return problemResponse(error);
  }
}

async function start() {
  if (runtime === 'bun') { const s = Bun.serve({port: 0, hostname: '127.0.0.1', fetch: handler}); return {port: s.port, close: () => s.stop(true)}; }
  if (runtime === 'deno') { const s = Deno.serve({port: 0, hostname: '127.0.0.1', onListen() {}}, handler); return {port: s.addr.port, close: () => s.shutdown()}; }
  if (runtime === 'hono') {
    const {Hono} = await import('hono');
    const {serve} = await import('@hono/node-server');
    const app = new Hono();
    // No onError: Hono's default error handler answers the thrown HttpError through getResponse().
    app.post('/items', async (c) => c.json({received: await validateRequest(c.req.raw, itemSchema, {limit: '64kb'})}, 201));
    app.post('/uploads', async (c) => c.json({received: await validateRequest(c.req.raw, itemSchema, {limit: '100mb'})}, 201));
    return await new Promise((resolve) => { const s = serve({fetch: app.fetch, port: 0, hostname: '127.0.0.1'}, (info) => resolve({port: info.port, close: () => { s.closeAllConnections?.(); s.close(); }})); });
  }
  throw new Error('run with bun, deno, or node smoke.mjs hono');
}

const {port, close} = await start();
const origin = `http://127.0.0.1:${port}`;
const post = async (path, body, headers = {'content-type': 'application/json'}) => {
  const r = await fetch(origin + path, {method: 'POST', body, headers, duplex: 'half'});
  return {status: r.status, connection: r.headers.get('connection'), type: r.headers.get('content-type'), body: await r.text()};
};
const report = [];
const check = (name, ok, detail = '') => report.push(`${ok ? 'ok  ' : 'FAIL'} ${name} ${detail}`);

let r = await post('/items', '{"name": "ada"}'); check('valid 201', r.status === 201, r.body);
r = await post('/items', '{"name": 5}'); check('invalid 422 problem+json', r.status === 422 && /problem\+json/.test(r.type), r.body.slice(0, 90));
r = await post('/items', '{"name" 5}'); check('malformed 400', r.status === 400);
r = await post('/items', '{}', {'content-type': 'text/plain'}); check('415', r.status === 415, r.body.slice(60, 140));
const gz = new Uint8Array(await new Response(new Blob(['{"name": "gz"}']).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer());
r = await post('/items', gz, {'content-type': 'application/json', 'content-encoding': 'gzip'}); check('gzip 201', r.status === 201, r.body);
r = await post('/items', '{}', {'content-type': 'application/json', 'content-encoding': 'br'}); check('br', r.status === 415 || r.status === 400, `${r.status} ${r.body.slice(60, 140)}`);

// A 50 MB streamed upload whose first key is forbidden: how much did the client's stream give before the answer?
let given = 0;
const big = new ReadableStream({pull(c) { if (given === 0) { c.enqueue(new TextEncoder().encode('{"forbidden": "')); given += 15; return; } if (given > 50e6) return c.close(); const chunk = new Uint8Array(64 * 1024).fill(120); c.enqueue(chunk); given += chunk.length; }});
const started = Date.now();
r = await post('/uploads', big);
check('early 422 on a 50 MB stream', r.status === 422 && given < 10e6, `status ${r.status}, client stream gave ${given} bytes, ${Date.now() - started} ms, connection: ${r.connection}`);
for (const [text, status] of [['{"name": "after"}', 201], ['{"name": 1}', 422], ['{"name": "again"}', 201]]) {
  r = await post('/items', text); check(`follow-up ${status}`, r.status === status, `${r.status}`);
}

// Raw socket: 20 MB with Content-Length, first key forbidden.
const raw = await new Promise((resolve) => {
  const socket = net.connect(port, '127.0.0.1');
  let response = '', sent = 0, closed = false;
  socket.on('data', (d) => { response += d; });
  socket.on('error', () => {});
  socket.on('close', () => { closed = true; resolve({response, sent, closed}); });
  socket.on('connect', async () => {
    socket.write('POST /uploads HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 20000000\r\n\r\n{"forbidden": "');
    const chunk = Buffer.alloc(64 * 1024, 'x');
    while (sent < 19_000_000 && response === '' && !socket.destroyed) {
      if (!socket.write(chunk)) await new Promise((res) => { socket.once('drain', res); setTimeout(res, 200); });
      sent += chunk.length;
    }
    setTimeout(() => { if (!closed) { resolve({response, sent, closed: false}); socket.destroy(); } }, 3000);
  });
});
check('raw socket early 422', /^HTTP\/1\.1 422/.test(raw.response), `sent ${raw.sent} before answer; server closed: ${raw.closed}; head: ${JSON.stringify(raw.response.split('\r\n').filter((l) => /^connection/i.test(l)))}`);

// validationStream and the text stream.
const piped = await new Response(new Blob(['{"name": "x", "forbidden": 1}']).stream().pipeThrough(validationStream(itemSchema))).text().then(() => 'passed', (e) => e.type);
check('validationStream refuses', piped === 'entity.validation.failed', piped);
async function* deltas() { for (const d of ['{"name": ', '"x", "for', 'bidden": 1', '}']) yield d; }
const t = await validateTextStream(deltas(), itemSchema);
check('validateTextStream', !t.valid && !t.complete, JSON.stringify(t.errors[0]?.keyword));

console.log(`${runtime}:\n` + report.join('\n'));
await close();
const failed = report.some((line) => line.startsWith('FAIL'));
if (runtime === 'deno') Deno.exit(failed ? 1 : 0);
process.exit(failed ? 1 : 0);
