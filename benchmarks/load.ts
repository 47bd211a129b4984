// Proof under load: the Express, Koa and Fastify examples, each in a child process, driven by
// undici over keep-alive connections with a mix of bodies whose right answers are known in
// advance. Every status is checked against the body sent; the server reports its memory over IPC.
//
//   node --import tsx benchmarks/load.ts [--duration 60] [--connections 100] [--warmup 10] [--servers express,koa,fastify]
//   npm run bench -- load                (the defaults: 60 s at 100 connections, after 10 s of warm-up)
//
// The mix, per connection, in shuffled decks of 20 requests (statuses for Express and Koa; Fastify
// answers with its own codes, FASTIFY_REFUSALS):
//   70% valid ~1 KB bodies (201);
//   10% malformed (400): cut off inside a nested member, a repeated key in a nested object, a
//       missing comma, and a valid body followed by a 0xFF byte sent chunked (each valid for the
//       schema up to its first malformed byte, so that byte decides the answer);
//   10% schema-invalid (422), each sent right after a malformed body on the same connection: the
//       security issue's reproduction, where a malformed body left state that let the next
//       invalid body through;
//   10% large (1 MiB) bodies refused early: 413 from Content-Length, or 422 at the first key of a
//       chunked upload. The server closes those connections on purpose (Connection: close).
//
// It fails (exit code 1) on any wrong verdict, any 5xx, any connection closed or request failed
// other than after a Connection: close answer, or a heap (after a forced GC) that grew between the
// end of the warm-up and the end of the run by more than HEAP_GROWTH_LIMIT. Bounded: every request
// has a timeout, and the run stops at its duration.

import {fork, type ChildProcess} from 'node:child_process';
import {once} from 'node:events';
import {cpus, totalmem} from 'node:os';
import {performance} from 'node:perf_hooks';
import {fileURLToPath} from 'node:url';
import {Readable} from 'node:stream';
import {parseArgs} from 'node:util';
import {Client} from 'undici';
import {random as seeded} from '../test/support/chunks.js';

type ServerName = 'express' | 'koa' | 'fastify';
type Kind = 'valid' | 'invalid' | 'malformed' | 'large';

interface Body {
  kind: Kind;
  /** What the body is, in the summary. */
  label: string;
  /** A Buffer is sent with Content-Length; pieces are sent chunked (Transfer-Encoding: chunked), one chunk each. */
  bytes: Buffer | readonly Buffer[];
  status: number;
  /** The problem document's `code` for a refusal (adapters/http-body.ts). */
  code?: string;
}

interface Target {
  script: string;
  path: string;
  bodies: Record<Kind, Body[]>;
}

const REQUEST_TIMEOUT_MS = 10_000;
const MEMORY_SAMPLE_MS = 5000;
/** Every so many samples during the run is taken after a forced GC: the heap's trend, not its garbage. */
const GC_EVERY_SAMPLES = 4;
/** Post-GC heap growth from the end of the warm-up to the end of the run that counts as a leak. */
const HEAP_GROWTH_LIMIT = 4 * 1024 * 1024;
const LARGE_BODY = 1024 * 1024;
const CHUNK = 64 * 1024;

// ---------------------------------------------------------------------------------------------
// The bodies, and the answers they must get

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));
const padTo = (bytes: number, make: (padding: string) => unknown): Buffer => {
  const base = json(make('')).length;
  return json(make('x'.repeat(Math.max(0, bytes - base))));
};
/** `body`'s JSON text with `find` replaced: a body broken at one place (`find` must occur). */
function broken(body: unknown, find: string, replacement: string): Buffer {
  const text = JSON.stringify(body);
  if (!text.includes(find)) throw new Error(`no ${find} in ${text}`);
  return Buffer.from(text.replace(find, replacement));
}
const chunked = (...pieces: (string | Buffer)[]): Buffer[] => pieces.map((piece) => (typeof piece === 'string' ? Buffer.from(piece) : piece));

/** A chunked upload of LARGE_BODY bytes whose first key the schema forbids. */
function largeForbiddenKey(): Buffer[] {
  const prefix = '{"admin":"';
  const pieces = [Buffer.from(prefix + 'x'.repeat(CHUNK - prefix.length))];
  for (let sent = CHUNK; sent < LARGE_BODY - CHUNK; sent += CHUNK) pieces.push(Buffer.alloc(CHUNK, 'x'));
  pieces.push(Buffer.from('"}'));
  return pieces;
}

/** A body of LARGE_BODY bytes with Content-Length: over the route's limit before a byte is read. */
function largeAnnounced(start: string): Buffer {
  const body = Buffer.alloc(LARGE_BODY, ' ');
  body.write(start);
  return body;
}

interface Answer {
  status: number;
  code: string;
}

/** What a front door answers a schema violation, malformed JSON and a body over its limit. */
interface Refusals {
  invalid: Answer;
  malformed: Answer;
  tooLarge: Answer;
}

/** Express and Koa: body-parser's statuses and `type`s, and 422 for a violation (adapters/http-body.ts). */
const BODY_PARSER_REFUSALS: Refusals = {
  invalid: {status: 422, code: 'entity.validation.failed'},
  malformed: {status: 400, code: 'entity.parse.failed'},
  tooLarge: {status: 413, code: 'entity.too.large'},
};

/** Fastify: its own codes for the same conditions (README, "Fastify"). */
const FASTIFY_REFUSALS: Refusals = {
  invalid: {status: 400, code: 'FST_ERR_VALIDATION'},
  malformed: {status: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY'},
  tooLarge: {status: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE'},
};

/** Orders for the shop API; the Express example's take a shipping address, the Fastify example's do not. */
function orderBodies({invalid: violation, malformed: parse, tooLarge}: Refusals, withShipping: boolean): Record<Kind, Body[]> {
  const shipping = withShipping ? {shipping: {name: 'Ada Lovelace', street: '12 Loop Road', city: 'Leeds', postalCode: 'LS1 4AP', country: 'GB'}} : {};
  // About 1 KB either way.
  const itemCount = withShipping ? 24 : 28;
  const order = (variant: number) => ({
    customerId: `cus_${100000 + variant}`,
    items: Array.from({length: itemCount}, (_, index) => ({sku: `TEA-${String(1000 + ((variant + index) % 9000)).padStart(4, '0')}`, quantity: 1 + ((variant + index) % 99)})),
    ...shipping,
    coupon: `SPRING${variant % 100}`,
  });
  const valid = Array.from({length: 8}, (_, variant): Body => ({kind: 'valid', label: 'a 1 KB order', bytes: json(order(variant)), status: 201}));
  const invalid: Body[] = [
    {kind: 'invalid', label: 'customerId "admin" (pattern)', bytes: json({...order(1), customerId: 'admin'}), ...violation},
    {kind: 'invalid', label: 'an extra member "role"', bytes: json({...order(2), role: 'admin'}), ...violation},
    {kind: 'invalid', label: 'no items (required)', bytes: json({customerId: 'cus_abc123', ...shipping}), ...violation},
    {kind: 'invalid', label: 'quantity 0 in the last item (minimum)', bytes: json({...order(4), items: [...order(4).items, {sku: 'TEA-0001', quantity: 0}]}), ...violation},
  ];
  const malformed: Body[] = [
    {kind: 'malformed', label: 'cut off inside an item', bytes: Buffer.from('{"customerId":"cus_abc123","items":[{"sku":"TEA-0001",'), ...parse},
    {kind: 'malformed', label: 'cut off inside an item, after a key', bytes: Buffer.from('{"customerId":"cus_abc123","items":[{"sku":"TEA-0001","quantity":'), ...parse},
    {kind: 'malformed', label: 'a repeated key in an item', bytes: broken(order(5), '[{"sku":', '[{"sku":"ABC-0000","sku":'), ...parse},
    {kind: 'malformed', label: 'no comma between two items', bytes: broken(order(7), '},{', '}{'), ...parse},
    {kind: 'malformed', label: 'a valid order, then 0xFF, chunked', bytes: chunked(json(order(6)), Buffer.from([0xff])), ...parse},
  ];
  const large: Body[] = [
    {kind: 'large', label: '1 MiB announced (limit 64 KiB)', bytes: largeAnnounced('{"customerId":"'), ...tooLarge},
    {kind: 'large', label: '1 MiB chunked, first key forbidden', bytes: largeForbiddenKey(), ...violation},
  ];
  return {valid, invalid, malformed, large};
}

function ticketBodies({invalid: violation, malformed: parse, tooLarge}: Refusals): Record<Kind, Body[]> {
  const ticket = (variant: number, text: string) => ({
    subject: `Printer ${variant} on the third floor is on fire`,
    body: text,
    priority: (['low', 'normal', 'high', 'urgent'] as const)[variant % 4],
    requester: {email: `it${variant}@example.com`, name: 'Ada Lovelace'},
    tags: ['printer', 'fire', `floor-${variant % 10}`],
  });
  const valid = Array.from({length: 8}, (_, variant): Body => ({kind: 'valid', label: 'a 1 KB ticket', bytes: padTo(1024, (padding) => ticket(variant, 'Smoke. ' + padding)), status: 201}));
  const invalid: Body[] = [
    {kind: 'invalid', label: 'priority "admin" (enum)', bytes: json({...ticket(1, 'Smoke.'), priority: 'admin'}), ...violation},
    {kind: 'invalid', label: 'an extra member "role"', bytes: json({...ticket(2, 'Smoke.'), role: 'admin'}), ...violation},
    {kind: 'invalid', label: 'requester email not an email (format)', bytes: json({...ticket(3, 'Smoke.'), requester: {email: 'nobody'}}), ...violation},
    {kind: 'invalid', label: 'a repeated tag (uniqueItems)', bytes: json({...ticket(4, 'Smoke.'), tags: ['fire', 'fire']}), ...violation},
  ];
  const malformed: Body[] = [
    {kind: 'malformed', label: 'cut off inside requester', bytes: Buffer.from('{"priority":"low","requester":{"email":"it@example.com",'), ...parse},
    {kind: 'malformed', label: 'cut off inside tags', bytes: Buffer.from('{"subject":"abc","tags":["fire",'), ...parse},
    {kind: 'malformed', label: 'a repeated key in requester', bytes: broken(ticket(5, 'Smoke.'), '"name":"Ada Lovelace"', '"name":"Ada","name":"Eve"'), ...parse},
    {kind: 'malformed', label: 'no comma between two tags', bytes: broken(ticket(7, 'Smoke.'), '","fire', '" "fire'), ...parse},
    {kind: 'malformed', label: 'a valid ticket, then 0xFF, chunked', bytes: chunked(json(ticket(6, 'Smoke.')), Buffer.from([0xff])), ...parse},
  ];
  const large: Body[] = [
    {kind: 'large', label: '1 MiB announced (limit 64 KiB)', bytes: largeAnnounced('{"subject":"'), ...tooLarge},
    {kind: 'large', label: '1 MiB chunked, first key forbidden', bytes: largeForbiddenKey(), ...violation},
  ];
  return {valid, invalid, malformed, large};
}

const examples = (name: string): string => fileURLToPath(new URL(`../examples/${name}`, import.meta.url));

const TARGETS: Record<ServerName, () => Target> = {
  express: () => ({script: examples('express-server.ts'), path: '/api/orders', bodies: orderBodies(BODY_PARSER_REFUSALS, true)}),
  koa: () => ({script: examples('koa-server.ts'), path: '/api/tickets', bodies: ticketBodies(BODY_PARSER_REFUSALS)}),
  fastify: () => ({script: examples('fastify-server.ts'), path: '/api/orders', bodies: orderBodies(FASTIFY_REFUSALS, false)}),
};

// ---------------------------------------------------------------------------------------------
// The server: the example itself, in a child that answers memory requests

interface Memory {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
}

type MemoryRequest = {memory: 'sample' | 'after-gc'};

function memory(): Memory {
  const {rss, heapUsed, heapTotal, external} = process.memoryUsage();
  return {rss, heapUsed, heapTotal, external};
}

async function runServer(name: ServerName): Promise<void> {
  process.on('message', (message: MemoryRequest) => {
    if (message.memory === 'after-gc') {
      // Twice: the first collection's finalizers may free more.
      globalThis.gc!();
      globalThis.gc!();
    }
    process.send!(memory());
  });
  process.on('disconnect', () => process.exit(0));
  // The example reads PORT and prints where it listens; the parent reads the port from that line.
  process.env['PORT'] = '0';
  await import(TARGETS[name]().script);
}

interface Server {
  child: ChildProcess;
  port: number;
}

/** Starts `load.ts server <name>` with --expose-gc and waits for the example's "listening on" line. */
async function startServer(name: ServerName): Promise<Server> {
  const child = fork(fileURLToPath(import.meta.url), ['server', name], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const timer = setTimeout(() => child.kill(), 30_000);
  let printed = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (data: Buffer) => {
      printed += data.toString();
      const match = /listening on http:\/\/[^:\s]+:(\d+)/.exec(printed);
      if (match !== null) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the ${name} server exited (code ${code}) before listening`)));
  });
  clearTimeout(timer);
  // The rest of its output (the curl examples) is read and dropped.
  child.stdout!.resume();
  return {child, port};
}

/** One memory request at a time, so each reply answers its own request. */
let memoryRequests: Promise<unknown> = Promise.resolve();

function measureMemory(server: Server, request: MemoryRequest['memory']): Promise<Memory> {
  const measured = memoryRequests.then(async () => {
    const reply = once(server.child, 'message') as Promise<[Memory]>;
    server.child.send({memory: request} satisfies MemoryRequest);
    return (await reply)[0];
  });
  memoryRequests = measured;
  return measured;
}

async function stopServer(server: Server): Promise<void> {
  const exited = once(server.child, 'exit');
  server.child.disconnect();
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

// ---------------------------------------------------------------------------------------------
// The client: one undici Client per connection, each sending its next request on the answer

/** One deck: 14 valid, 2 malformed each followed by an invalid, 2 large; shuffled, the pairs kept together. */
function* requests(bodies: Record<Kind, Body[]>, seed: number): Generator<Body> {
  const random = seeded(seed);
  const counters: Record<Kind, number> = {valid: seed, invalid: seed, malformed: seed, large: seed};
  const next = (kind: Kind): Body => bodies[kind][counters[kind]++ % bodies[kind].length]!;
  const cards: Array<'valid' | 'pair' | 'large'> = [...Array<'valid'>(14).fill('valid'), 'pair', 'pair', 'large', 'large'];
  for (;;) {
    for (let index = cards.length - 1; index > 0; index--) {
      const other = Math.floor(random() * (index + 1));
      [cards[index], cards[other]] = [cards[other]!, cards[index]!];
    }
    for (const card of cards) {
      if (card === 'pair') {
        yield next('malformed');
        yield next('invalid');
      } else {
        yield next(card);
      }
    }
  }
}

interface Tally {
  requests: number;
  /** Milliseconds from sending to the end of the answer, by kind of body. */
  latencies: Record<Kind, number[]>;
  /** kind → status → count. */
  statuses: Record<Kind, Map<number, number>>;
  wrongVerdicts: Map<string, number>;
  serverErrors: number;
  /** Requests that got no answer (reset, timeout...), by error code. */
  failures: Map<string, number>;
  /** Connections closed after an answer that said Connection: close. */
  closedOnPurpose: number;
  /** Connections closed any other way while in use, by error code. */
  closedUnexpectedly: Map<string, number>;
}

function newTally(): Tally {
  return {
    requests: 0,
    latencies: {valid: [], invalid: [], malformed: [], large: []},
    statuses: {valid: new Map(), invalid: new Map(), malformed: new Map(), large: new Map()},
    wrongVerdicts: new Map(),
    serverErrors: 0,
    failures: new Map(),
    closedOnPurpose: 0,
    closedUnexpectedly: new Map(),
  };
}

const increment = <K>(map: Map<K, number>, key: K): void => void map.set(key, (map.get(key) ?? 0) + 1);

function errorCode(error: unknown): string {
  const {code, name} = error as {code?: unknown; name?: unknown};
  return typeof code === 'string' ? code : typeof name === 'string' ? name : String(error);
}

/** One keep-alive connection and its sequence of requests. */
class Connection {
  readonly #client: Client;
  readonly #requests: Generator<Body>;
  readonly #path: string;
  #tally: Tally = newTally();
  /** The last answer said Connection: close: the next disconnect is the server's on purpose. */
  #closeAnnounced = false;
  #closing = false;

  constructor(port: number, path: string, requests: Generator<Body>) {
    this.#path = path;
    this.#requests = requests;
    this.#client = new Client(`http://127.0.0.1:${port}`, {pipelining: 1, headersTimeout: REQUEST_TIMEOUT_MS, bodyTimeout: REQUEST_TIMEOUT_MS});
    this.#client.on('disconnect', (_origin, _targets, error) => {
      if (this.#closing) return;
      if (this.#closeAnnounced) this.#tally.closedOnPurpose++;
      else increment(this.#tally.closedUnexpectedly, errorCode(error));
      this.#closeAnnounced = false;
    });
  }

  /** Sends requests until `deadline`, into `tally`. */
  async run(deadline: number, tally: Tally): Promise<void> {
    this.#tally = tally;
    while (performance.now() < deadline) await this.#send(this.#requests.next().value as Body);
  }

  async #send(body: Body): Promise<void> {
    const tally = this.#tally;
    const started = performance.now();
    const headers: Record<string, string> = {'content-type': 'application/json'};
    try {
      const response = await this.#client.request({
        method: 'POST',
        path: this.#path,
        headers,
        body: Buffer.isBuffer(body.bytes) ? body.bytes : Readable.from(body.bytes, {objectMode: false}),
      });
      const text = await response.body.text();
      tally.requests++;
      tally.latencies[body.kind].push(performance.now() - started);
      increment(tally.statuses[body.kind], response.statusCode);
      if (response.statusCode >= 500) tally.serverErrors++;
      this.#closeAnnounced = response.headers['connection'] === 'close';
      const wrong = verdictError(body, response.statusCode, text);
      if (wrong !== undefined) increment(tally.wrongVerdicts, wrong);
    } catch (error) {
      tally.requests++;
      increment(tally.failures, `${body.label}: ${errorCode(error)}`);
    }
  }

  async close(): Promise<void> {
    this.#closing = true;
    await this.#client.close();
  }
}

/** Why the answer is wrong for the body sent, or undefined. */
function verdictError(body: Body, status: number, text: string): string | undefined {
  if (status !== body.status) return `${body.kind} (${body.label}): ${status}, expected ${body.status}`;
  if (body.code === undefined) return undefined;
  let code: unknown;
  try {
    code = (JSON.parse(text) as {code?: unknown}).code;
  } catch {
    return `${body.kind} (${body.label}): the ${status} answer is not JSON`;
  }
  return code === body.code ? undefined : `${body.kind} (${body.label}): code ${String(code)}, expected ${body.code}`;
}

async function drive(connections: readonly Connection[], seconds: number): Promise<{tally: Tally; seconds: number}> {
  const tally = newTally();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(connections.map((connection) => connection.run(deadline, tally)));
  return {tally, seconds: (performance.now() - started) / 1000};
}

// ---------------------------------------------------------------------------------------------
// One server's run, and the report

interface Report {
  server: ServerName;
  seconds: number;
  tally: Tally;
  /** `during`: samples as they come; `collectedDuring`: those taken after a forced GC (a pause of a few ms). */
  memory: {idle: Memory; afterWarmUp: Memory; during: Memory[]; collectedDuring: Memory[]; endOfLoad: Memory; afterRun: Memory};
}

async function loadServer(name: ServerName, options: Options): Promise<Report> {
  const target = TARGETS[name]();
  const server = await startServer(name);
  const connections = Array.from({length: options.connections}, (_, index) => new Connection(server.port, target.path, requests(target.bodies, index + 1)));
  try {
    const idle = await measureMemory(server, 'after-gc');
    const warmUp = await drive(connections, options.warmup);
    checkWarmUp(name, warmUp.tally);
    const afterWarmUp = await measureMemory(server, 'after-gc');
    const during: Memory[] = [];
    const collectedDuring: Memory[] = [];
    let samples = 0;
    const sampler = setInterval(() => {
      const collect = ++samples % GC_EVERY_SAMPLES === 0;
      void measureMemory(server, collect ? 'after-gc' : 'sample').then((sample) => (collect ? collectedDuring : during).push(sample));
    }, MEMORY_SAMPLE_MS);
    const run = await drive(connections, options.duration);
    clearInterval(sampler);
    const endOfLoad = await measureMemory(server, 'sample');
    const afterRun = await measureMemory(server, 'after-gc');
    return {server: name, seconds: run.seconds, tally: run.tally, memory: {idle, afterWarmUp, during, collectedDuring, endOfLoad, afterRun}};
  } finally {
    await Promise.all(connections.map((connection) => connection.close()));
    await stopServer(server);
  }
}

/** The warm-up is judged too: a wrong verdict there is as wrong. */
function checkWarmUp(name: ServerName, tally: Tally): void {
  const problems = failures(tally, undefined);
  if (problems.length > 0) console.error(`${name}, warm-up:\n  ${problems.join('\n  ')}`);
  warmUpProblems += problems.length;
}

let warmUpProblems = 0;

const MiB = 1024 * 1024;
const mb = (bytes: number): string => (bytes / MiB).toFixed(1);

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

/** What must hold, as failure messages (none: it held). */
function failures(tally: Tally, memory: Report['memory'] | undefined): string[] {
  const problems: string[] = [];
  for (const [wrong, count] of tally.wrongVerdicts) problems.push(`wrong verdict x${count}: ${wrong}`);
  if (tally.serverErrors > 0) problems.push(`${tally.serverErrors} answers were 5xx`);
  for (const [failure, count] of tally.failures) problems.push(`no answer x${count}: ${failure}`);
  for (const [code, count] of tally.closedUnexpectedly) problems.push(`connection closed without Connection: close x${count}: ${code}`);
  if (memory !== undefined) {
    const growth = memory.afterRun.heapUsed - memory.afterWarmUp.heapUsed;
    if (growth > HEAP_GROWTH_LIMIT) problems.push(`heap after GC grew by ${mb(growth)} MB during the run (limit ${mb(HEAP_GROWTH_LIMIT)} MB)`);
  }
  return problems;
}

function statusCounts(statuses: Map<number, number>): string {
  return [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}: ${count}`).join(', ');
}

function print(report: Report, options: Options): string[] {
  const {tally, memory, seconds} = report;
  const sorted = Object.values(tally.latencies).flat().sort((a, b) => a - b);
  const unexpected = [...tally.closedUnexpectedly.values()].reduce((sum, count) => sum + count, 0);
  const failed = [...tally.failures.values()].reduce((sum, count) => sum + count, 0);
  const growth = memory.afterRun.heapUsed - memory.afterWarmUp.heapUsed;
  const peak = (key: keyof Memory): number => Math.max(...memory.during.map((sample) => sample[key]), memory.endOfLoad[key]);
  console.log(`\n${report.server}: ${options.connections} connections, ${seconds.toFixed(1)} s after ${options.warmup} s of warm-up`);
  console.table({
    'requests/s': Math.round(tally.requests / seconds),
    requests: tally.requests,
    'p50 ms': Number(percentile(sorted, 0.5).toFixed(2)),
    'p99 ms': Number(percentile(sorted, 0.99).toFixed(2)),
    'max ms': Number((sorted.at(-1) ?? 0).toFixed(1)),
  });
  console.table(
    Object.fromEntries(
      (Object.keys(tally.statuses) as Kind[]).map((kind) => {
        const latencies = [...tally.latencies[kind]].sort((a, b) => a - b);
        return [kind, {statuses: statusCounts(tally.statuses[kind]), 'p50 ms': Number(percentile(latencies, 0.5).toFixed(2)), 'p99 ms': Number(percentile(latencies, 0.99).toFixed(2))}];
      }),
    ),
  );
  console.log(
    `closed on purpose (Connection: close answers): ${tally.closedOnPurpose}; closed otherwise: ${unexpected}; requests without an answer: ${failed}; ` +
      `wrong verdicts: ${[...tally.wrongVerdicts.values()].reduce((sum, count) => sum + count, 0)}; 5xx: ${tally.serverErrors}`,
  );
  console.table({
    'idle, after GC': row(memory.idle),
    'after warm-up, after GC': row(memory.afterWarmUp),
    [`during, peak of ${memory.during.length + 1} samples`]: {'RSS MB': mb(peak('rss')), 'heap used MB': mb(peak('heapUsed')), 'heap total MB': mb(peak('heapTotal')), 'external MB': mb(peak('external'))},
    'end of load': row(memory.endOfLoad),
    'after the run, after GC': row(memory.afterRun),
  });
  const collected = [memory.afterWarmUp, ...memory.collectedDuring, memory.afterRun];
  const trend = (key: keyof Memory): string => collected.map((sample) => mb(sample[key])).join(' → ');
  console.log(`after GC, every ${(MEMORY_SAMPLE_MS * GC_EVERY_SAMPLES) / 1000} s from the end of the warm-up: heap used ${trend('heapUsed')} MB; RSS ${trend('rss')} MB`);
  console.log(`heap after GC, end of warm-up to end of run: ${growth >= 0 ? '+' : ''}${mb(growth)} MB (${(growth / Math.max(1, tally.requests)).toFixed(1)} bytes per request)`);
  return failures(tally, memory).map((problem) => `${report.server}: ${problem}`);
}

function row(sample: Memory): Record<string, string> {
  return {'RSS MB': mb(sample.rss), 'heap used MB': mb(sample.heapUsed), 'heap total MB': mb(sample.heapTotal), 'external MB': mb(sample.external)};
}

interface Options {
  duration: number;
  connections: number;
  warmup: number;
  servers: ServerName[];
}

function readOptions(): Options {
  const {values} = parseArgs({
    options: {
      duration: {type: 'string', default: '60'},
      connections: {type: 'string', default: '100'},
      warmup: {type: 'string', default: '10'},
      servers: {type: 'string', default: 'express,koa,fastify'},
    },
  });
  const positive = (name: string, text: string): number => {
    const number = Number(text);
    if (!(number > 0)) throw new RangeError(`--${name} must be a positive number, got ${text}`);
    return number;
  };
  const servers = values.servers.split(',').map((server) => server.trim());
  for (const server of servers) if (!(server in TARGETS)) throw new RangeError(`--servers: no server named ${server} (have: ${Object.keys(TARGETS).join(', ')})`);
  return {
    duration: positive('duration', values.duration),
    connections: Math.floor(positive('connections', values.connections)),
    warmup: positive('warmup', values.warmup),
    servers: servers as ServerName[],
  };
}

async function main(): Promise<void> {
  const options = readOptions();
  console.log(
    `Load: ${options.servers.join(', ')}; ${options.connections} keep-alive connections (undici), ${options.duration} s each after ${options.warmup} s of warm-up; ` +
      `node ${process.version}, ${cpus().length} cores, ${mb(totalmem())} MB of memory. Mix: 70% valid ~1 KB, 10% malformed, 10% invalid (each after a malformed body), 10% 1 MiB refused early.`,
  );
  const problems: string[] = [];
  for (const name of options.servers) problems.push(...print(await loadServer(name, options), options));
  if (warmUpProblems > 0) problems.push(`${warmUpProblems} problems during the warm-up (above)`);
  if (problems.length === 0) {
    console.log('\nHeld: no wrong verdict, no 5xx, no connection closed but on purpose, heap flat after warm-up.');
    return;
  }
  console.error(`\nDid not hold:\n  ${problems.join('\n  ')}`);
  process.exitCode = 1;
}

if (process.argv[2] === 'server') {
  await runServer(process.argv[3] as ServerName);
} else {
  await main();
}
