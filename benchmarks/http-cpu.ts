// Server CPU per valid 1 KB request on each framework, ours against the usual way on the same
// framework and schema, each server in its own child process on 127.0.0.1:
//
//   Express   validateBody                  express.json() + ajv
//   Koa       validateBody                  raw-body + JSON.parse + ajv (no Koa body parser is a
//                                           dependency here; @koa/bodyparser does the same through co-body)
//   Fastify   the plugin, schema.body       Fastify's own parser and validation, same schema
//
//   npm run build && node --import tsx benchmarks/http-cpu.ts
//   HTTP_ROUNDS=6 HTTP_FRAMEWORKS=express,koa HTTP_SECONDS=3 HTTP_WARM_SECONDS=2
//   HTTP_CPU_PROF=ours|theirs|both   profile those servers' measured load, into $TMPDIR/http-cpu/<kind>.<pid>.cpuprofile
//   HTTP_CPU_PROF_INTERVAL=50        the profiles' sampling interval in µs (V8's default, 1000, sees a request ~10 times a second)
//   HTTP_BASELINE=/path/to/an/older/dist   a third server per round runs that build of ours, under the same load
//
// Each round starts a fresh pair of servers: the cost of a request has differed from one server
// process to the next (issue 24), and a single process per run hid that in its one mode. The pair
// gets one load, request by request (support.ts's cpuPerRequest), first to warm up, then measured;
// the ratio printed is the competitor's CPU per request over ours, in the same round.

import type {AddressInfo} from 'node:net';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {cpuPerRequest, median, orderSchema, reportCpu, smallBody, startServer, stopServer} from './support.js';

type Framework = 'express' | 'koa' | 'fastify';
/** `baseline`: ours from HTTP_BASELINE's build, to measure a change against the build before it. */
type Side = 'ours' | 'baseline' | 'theirs';
type Kind = `${Framework}:${Side}`;

const ROUNDS = Number(process.env['HTTP_ROUNDS'] ?? 4);
const SECONDS = Number(process.env['HTTP_SECONDS'] ?? 3);
const WARM_SECONDS = Number(process.env['HTTP_WARM_SECONDS'] ?? 2);
const CONCURRENCY = Number(process.env['HTTP_CONCURRENCY'] ?? 16);
const FRAMEWORKS = (process.env['HTTP_FRAMEWORKS'] ?? 'express,koa,fastify').split(',') as Framework[];
const PROFILED = process.env['HTTP_CPU_PROF'];
const BASELINE = process.env['HTTP_BASELINE'];
const SIDES: readonly Side[] = BASELINE === undefined ? ['ours', 'theirs'] : ['ours', 'baseline', 'theirs'];

/** One of our adapters, from dist/ or, for the baseline, from HTTP_BASELINE. */
async function adapter<Module>(side: Side, name: string): Promise<Module> {
  const dist = side === 'baseline' ? pathToFileURL(`${BASELINE!}/`) : new URL('../dist/', import.meta.url);
  return (await import(new URL(`adapters/${name}.js`, dist).href)) as Module;
}

const competitor: Record<Framework, string> = {
  express: 'express.json() + ajv',
  koa: 'raw-body + JSON.parse + ajv',
  fastify: "Fastify's own validation",
};

// ---------------------------------------------------------------------------------------------
// Servers (child processes): POST /orders answers 201 {ok: true} to a valid order.

async function expressServer(side: Side): Promise<import('node:http').Server> {
  const {default: express} = await import('express');
  const app = express();
  if (side !== 'theirs') {
    const {validateBody} = await adapter<typeof import('../dist/adapters/express.js')>(side, 'express');
    app.post('/orders', validateBody(orderSchema), (_req, res) => void res.status(201).json({ok: true}));
  } else {
    const {Ajv} = await import('ajv');
    const validateOrder = new Ajv().compile(orderSchema);
    app.post('/orders', express.json(), (req, res) => {
      if (!validateOrder(req.body)) return void res.status(422).json({errors: validateOrder.errors});
      res.status(201).json({ok: true});
    });
  }
  return listen((port, host, ready) => app.listen(port, host, ready));
}

async function koaServer(side: Side): Promise<import('node:http').Server> {
  const {default: Koa} = await import('koa');
  const app = new Koa();
  type Context = import('koa').Context;
  app.use(async (ctx: Context, next: () => Promise<unknown>) => {
    if (ctx.method !== 'POST' || ctx.path !== '/orders') return void (ctx.status = 404);
    await next();
  });
  if (side !== 'theirs') {
    const {validateBody} = await adapter<typeof import('../dist/adapters/koa.js')>(side, 'koa');
    app.use(validateBody(orderSchema) as unknown as import('koa').Middleware);
  } else {
    const [{Ajv}, {default: getRawBody}] = await Promise.all([import('ajv'), import('raw-body')]);
    const validateOrder = new Ajv().compile(orderSchema);
    app.use(async (ctx: Context, next: () => Promise<unknown>) => {
      const text = await getRawBody(ctx.req, {length: ctx.get('content-length'), limit: '100kb', encoding: 'utf8'});
      const body: unknown = JSON.parse(text);
      if (!validateOrder(body)) {
        ctx.status = 422;
        ctx.body = {errors: validateOrder.errors};
        return;
      }
      (ctx.request as {body?: unknown}).body = body;
      await next();
    });
  }
  app.use((ctx: Context) => {
    ctx.status = 201;
    ctx.body = {ok: true};
  });
  return listen((port, host, ready) => app.listen(port, host, ready));
}

async function fastifyServer(side: Side): Promise<import('node:http').Server> {
  const {default: Fastify} = await import('fastify');
  const app = Fastify();
  if (side !== 'theirs') {
    const {streamSchema} = await adapter<typeof import('../dist/adapters/fastify.js')>(side, 'fastify');
    await app.register(streamSchema);
  }
  app.post('/orders', {schema: {body: orderSchema}}, async (_request, reply) => reply.code(201).send({ok: true}));
  await app.listen({port: 0, host: '127.0.0.1'});
  return app.server;
}

function listen(start: (port: number, host: string, ready: () => void) => import('node:http').Server): Promise<import('node:http').Server> {
  return new Promise((resolve) => {
    const server = start(0, '127.0.0.1', () => resolve(server));
  });
}

const servers: Record<Framework, (side: Side) => Promise<import('node:http').Server>> = {
  express: expressServer,
  koa: koaServer,
  fastify: fastifyServer,
};

async function runServer(kind: Kind): Promise<void> {
  const [framework, side] = kind.split(':') as [Framework, Side];
  const server = await servers[framework](side);
  reportCpu(server);
  const profile = PROFILED === side || PROFILED === 'both' || (PROFILED === 'ours' && side === 'baseline') ? await profiler(kind) : undefined;
  process.on('disconnect', () => void (profile?.stop() ?? Promise.resolve()).finally(() => process.exit(0)));
  process.send?.({port: (server.address() as AddressInfo).port});
}

/** A CPU profile of this server from the parent's `'profile'` message (after the warm-up) until `stop`. */
async function profiler(kind: Kind): Promise<{stop(): Promise<void>}> {
  const [{Session}, {mkdir, writeFile}, {tmpdir}, {join}] = await Promise.all([
    import('node:inspector/promises'),
    import('node:fs/promises'),
    import('node:os'),
    import('node:path'),
  ]);
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  const interval = process.env['HTTP_CPU_PROF_INTERVAL'];
  if (interval !== undefined) await session.post('Profiler.setSamplingInterval', {interval: Number(interval)});
  process.on('message', (message) => void (message === 'profile' ? session.post('Profiler.start') : undefined));
  return {
    async stop() {
      const {profile} = await session.post('Profiler.stop');
      const directory = join(tmpdir(), 'http-cpu');
      await mkdir(directory, {recursive: true});
      await writeFile(join(directory, `${kind.replace(':', '-')}.${process.pid}.cpuprofile`), JSON.stringify(profile));
    },
  };
}

// ---------------------------------------------------------------------------------------------

type CpuPerRequest = Partial<Record<Side, number>>;

/** One round: fresh servers, one per side, warmed up and measured under one load; their CPU µs per request. */
async function round(framework: Framework, body: Buffer): Promise<CpuPerRequest> {
  const script = fileURLToPath(import.meta.url);
  const started = await Promise.all(SIDES.map((side) => startServer(script, `${framework}:${side}`)));
  try {
    await cpuPerRequest(started, body, WARM_SECONDS, CONCURRENCY);
    for (const {child} of started) child.send('profile');
    const cpus = await cpuPerRequest(started, body, SECONDS, CONCURRENCY);
    return Object.fromEntries(SIDES.map((side, index) => [side, cpus[index]!]));
  } finally {
    await Promise.all(started.map(({child}) => stopServer(child)));
  }
}

/** The competitor's CPU per request over `side`'s. */
const ratio = (result: CpuPerRequest, side: Side): number => result.theirs! / result[side]!;

async function main(): Promise<void> {
  const body = smallBody();
  console.log(
    `HTTP CPU per request: ${body.length}-byte valid bodies, ${CONCURRENCY} keep-alive clients sending to ${SIDES.join(', ')} in turn; ` +
      `${ROUNDS} rounds per framework, each on fresh server processes (${WARM_SECONDS} s warm-up, ${SECONDS} s measured).` +
      (BASELINE === undefined ? '' : ` baseline: ${BASELINE}`),
  );
  const results = Object.fromEntries(FRAMEWORKS.map((framework) => [framework, [] as CpuPerRequest[]])) as Record<Framework, CpuPerRequest[]>;
  const ours = SIDES.filter((side) => side !== 'theirs');
  for (let index = 0; index < ROUNDS; index++) {
    for (const framework of FRAMEWORKS) {
      const result = await round(framework, body);
      results[framework].push(result);
      const each = SIDES.map((side) => `${side} ${result[side]!.toFixed(0)} µs`).join(', ');
      console.log(`round ${index + 1} ${framework}: ${each}; ${ours.map((side) => `${side} ${ratio(result, side).toFixed(2)}x`).join(', ')}`);
    }
  }
  console.table(
    FRAMEWORKS.flatMap((framework) =>
      ours.map((side) => {
        const ratios = results[framework].map((result) => ratio(result, side));
        return {
          framework,
          build: side === 'ours' ? 'this one' : 'baseline',
          against: competitor[framework],
          'ours µs/request': results[framework].map((result) => Math.round(result[side]!)).join(' '),
          'theirs µs/request': results[framework].map((result) => Math.round(result.theirs!)).join(' '),
          'ratio per round': ratios.map((value) => value.toFixed(2)).join(' '),
          'lowest ratio': Number(Math.min(...ratios).toFixed(2)),
          'median ratio': Number(median(ratios).toFixed(2)),
        };
      }),
    ),
  );
  console.log("ratio: the competitor's server CPU per request over ours, same round (target >= 1.0x in every round)");
}

if (process.argv[2] === 'server') {
  await runServer(process.argv[3] as Kind);
} else {
  await main();
}
