// HTTP benchmark: stream-schema's Express middleware against `express.json()` + ajv on the same
// schema, each server in its own child process on 127.0.0.1.
//
//   npm run build && node --import tsx benchmarks/http.ts   (BENCH_SECONDS=3 BENCH_CONCURRENCY=16 by default)
//
// Our server runs the built package (dist/), as a user's would: through tsx, our code would pay
// for the TypeScript loader's transforms while express and ajv run as shipped.
//
// 1. Requests per second for ~1 KB valid bodies over keep-alive connections, in rounds that
//    alternate between the servers; and the servers' CPU time per request while one load goes to
//    both at once, request by request (a rate per CPU-second, which the machine's shifts of speed
//    between rounds cannot skew: the client shares the two cores, so the rounds' rates swing).
// 2. Time until the answer for a 10 MB body whose first key is forbidden: body-parser reads and
//    parses all of it before ajv can say no; we answer at the key. After both servers have
//    refused 1,000 smaller uploads, in blocks of runs that alternate (support.ts's timeRefusals);
//    judged on the best run of each, the medians printed beside (docs/decisions.md).
// Bounded: a fixed number of rounds of fixed length, a timeout on every request.

import {Agent} from 'node:http';
import type {AddressInfo} from 'node:net';
import {fileURLToPath} from 'node:url';
import {cpuPerRequest, median, orderSchema, post, refusalRatios, reportCpu, smallBody, startServer, stopServer, timeRefusals} from './support.js';

type Kind = 'stream-schema' | 'express.json+ajv';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 3);
const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? 16);
const ROUNDS = 4;
const REFUSAL_RUNS = 21;
const LARGE_BODY = 10 * 1024 * 1024;

const uploadSchema = {type: 'object', properties: {forbidden: false, data: {type: 'string'}}} as const;

// ---------------------------------------------------------------------------------------------
// Servers (child processes)

async function runServer(kind: Kind): Promise<void> {
  const {default: express} = await import('express');
  const app = express();
  if (kind === 'stream-schema') {
    const {validateBody, problemHandler} = await import('../dist/adapters/express.js');
    app.post('/orders', validateBody(orderSchema, {limit: '20mb'}), (_req, res) => void res.status(201).json({ok: true}));
    app.post('/upload', validateBody(uploadSchema, {limit: '20mb'}), (_req, res) => void res.status(201).json({ok: true}));
    app.use(problemHandler());
  } else {
    const {Ajv} = await import('ajv');
    const ajv = new Ajv({allErrors: false});
    const validateOrder = ajv.compile(orderSchema);
    const validateUpload = ajv.compile(uploadSchema);
    const json = express.json({limit: '20mb'});
    app.post('/orders', json, (req, res) => {
      if (!validateOrder(req.body)) return void res.status(422).json({errors: validateOrder.errors});
      res.status(201).json({ok: true});
    });
    app.post('/upload', json, (req, res) => {
      if (!validateUpload(req.body)) return void res.status(422).json({errors: validateUpload.errors});
      res.status(201).json({ok: true});
    });
    // Answers at once (no draining), so the comparison is of the body handling alone.
    app.use((error: {status?: number; type?: string}, _req: unknown, res: {status(code: number): {json(body: unknown): void}}, _next: unknown) => {
      res.status(error.status ?? 500).json({type: error.type});
    });
  }
  const server = app.listen(0, '127.0.0.1', () => {
    reportCpu(server);
    process.send?.({port: (server.address() as AddressInfo).port});
  });
  process.on('disconnect', () => process.exit(0));
}

// ---------------------------------------------------------------------------------------------
// Clients

/** Requests per second with CONCURRENCY keep-alive clients, each sending the next request on the answer. */
async function throughput(port: number, body: Buffer, seconds: number): Promise<number> {
  const agent = new Agent({keepAlive: true, maxSockets: CONCURRENCY});
  let completed = 0;
  let failed = 0;
  const deadline = performance.now() + seconds * 1000;
  const client = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const status = await post(agent, port, '/orders', body);
      if (status === 201) completed++;
      else failed++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({length: CONCURRENCY}, client));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  if (failed > 0) throw new Error(`${failed} requests were not answered 201`);
  return completed / elapsed;
}

async function main(): Promise<void> {
  const body = smallBody();
  const kinds: Kind[] = ['stream-schema', 'express.json+ajv'];
  const rates: Record<Kind, number[]> = {'stream-schema': [], 'express.json+ajv': []};
  const refusals: Record<Kind, number[]> = {'stream-schema': [], 'express.json+ajv': []};
  const cpuRatios: number[] = [];
  const cpus: Record<Kind, number[]> = {'stream-schema': [], 'express.json+ajv': []};
  console.log(
    `HTTP benchmark: ${body.length}-byte valid bodies, ${CONCURRENCY} keep-alive clients, ${ROUNDS} rounds of ${SECONDS} s per server; ` +
      `${LARGE_BODY / 2 ** 20} MB invalid body x ${REFUSAL_RUNS}. Rounds alternate between the servers, so that a change in the machine's load hits both.`,
  );
  const servers = await Promise.all(kinds.map((kind) => startServer(fileURLToPath(import.meta.url), kind)));
  const ports = {'stream-schema': servers[0]!.port, 'express.json+ajv': servers[1]!.port};
  try {
    for (const kind of kinds) await throughput(ports[kind], body, SECONDS); // warm-up: the JIT settles
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of round % 2 === 0 ? kinds : [...kinds].reverse()) rates[kind].push(await throughput(ports[kind], body, SECONDS));
    }
    for (let round = 0; round < ROUNDS; round++) {
      const [ours, theirs] = await cpuPerRequest(servers, body, SECONDS, CONCURRENCY);
      cpus['stream-schema'].push(ours!);
      cpus['express.json+ajv'].push(theirs!);
      cpuRatios.push(theirs! / ours!);
    }
    Object.assign(refusals, await timeRefusals(ports, LARGE_BODY, {runs: REFUSAL_RUNS, expected: 'HTTP/1.1 422'}));
  } finally {
    await Promise.all(servers.map(({child}) => stopServer(child)));
  }
  const rate = (kind: Kind): number => Math.max(...rates[kind]);
  console.table(
    kinds.map((kind) => ({
      server: kind,
      'req/s (1 KB valid), best round': Math.round(rate(kind)),
      'reject 10 MB, best ms': Number(Math.min(...refusals[kind]).toFixed(2)),
      'reject 10 MB, median ms': Number(median(refusals[kind]).toFixed(2)),
      'every round, req/s': rates[kind].map(Math.round).join(' '),
      'CPU µs/request, same load': cpus[kind].map(Math.round).join(' '),
    })),
  );
  const rateRatio = rate('stream-schema') / rate('express.json+ajv');
  const refusal = refusalRatios(refusals['stream-schema'], refusals['express.json+ajv']);
  console.log(`request rate, stream-schema / express.json+ajv: ${rateRatio.toFixed(2)}x best rounds (target >= 0.9x)`);
  console.log(
    `requests per CPU-second, one load to both: ${median(cpuRatios).toFixed(2)}x median of ${cpuRatios.map((ratio) => ratio.toFixed(2)).join(' ')} (target >= 0.9x)`,
  );
  console.log(`10 MB invalid body, rejected ${refusal.best.toFixed(1)}x faster, best runs (target >= 50x); medians ${refusal.median.toFixed(1)}x`);
}

if (process.argv[2] === 'server') {
  await runServer(process.argv[3] as Kind);
} else {
  await main();
}
