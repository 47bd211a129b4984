// A small support-ticket API on Koa 3 and @koa/router whose request bodies are validated while
// they stream in.
//
//   node --import tsx examples/koa-server.ts      (PORT=8080 to pick the port)
//
// `validateBody(schema)` takes the place of a body parser on each route that has a body;
// `problemHandler()` answers every 4xx/5xx as application/problem+json.

import Router from '@koa/router';
import Koa from 'koa';

import {problemHandler, validate, validateBody} from '../adapters/koa.js';

const ticketSchema = {
  type: 'object',
  properties: {
    subject: {type: 'string', minLength: 3, maxLength: 120},
    body: {type: 'string', minLength: 1, maxLength: 20_000},
    priority: {enum: ['low', 'normal', 'high', 'urgent']},
    requester: {
      type: 'object',
      properties: {email: {type: 'string', format: 'email'}, name: {type: 'string'}},
      required: ['email'],
      additionalProperties: false,
    },
    tags: {type: 'array', items: {type: 'string', pattern: '^[a-z0-9-]{1,32}$'}, uniqueItems: true, maxItems: 10},
  },
  required: ['subject', 'body', 'requester'],
  additionalProperties: false,
} as const;

const commentSchema = {
  type: 'object',
  properties: {
    author: {type: 'string', format: 'email'},
    text: {type: 'string', minLength: 1, maxLength: 10_000},
    internal: {type: 'boolean'},
  },
  required: ['author', 'text'],
  additionalProperties: false,
} as const;

const ticketParams = {type: 'object', properties: {id: {type: 'string', pattern: '^[0-9]+$'}}, required: ['id']} as const;

interface Ticket {
  id: number;
  subject: string;
  body: string;
  priority: 'low' | 'normal' | 'high' | 'urgent';
  requester: {email: string; name?: string};
  tags: string[];
  comments: Array<{author: string; text: string; internal: boolean}>;
}

/** The newest tickets, in memory: at most MAX_TICKETS, so the demo does not grow under load (benchmarks/load.ts). */
const tickets = new Map<number, Ticket>();
const MAX_TICKETS = 1000;
let nextTicket = 1;

const router = new Router({prefix: '/api'});

router.post('/tickets', validateBody(ticketSchema, {limit: '64kb', formats: 'assert'}), (ctx) => {
  const {subject, body, priority = 'normal', requester, tags = []} = ctx.request.body;
  const ticket: Ticket = {id: nextTicket++, subject, body, priority, requester, tags: [...tags], comments: []};
  tickets.set(ticket.id, ticket);
  if (tickets.size > MAX_TICKETS) tickets.delete(tickets.keys().next().value!);
  ctx.status = 201;
  ctx.set('Location', `/api/tickets/${ticket.id}`);
  ctx.body = ticket;
});

router.get('/tickets/:id', validate({params: ticketParams}), (ctx) => {
  ctx.body = findTicket(ctx.params.id!, ctx);
});

router.post(
  '/tickets/:id/comments',
  validate({params: ticketParams}),
  validateBody(commentSchema, {limit: '32kb', formats: 'assert'}),
  (ctx) => {
    const ticket = findTicket(ctx.params.id!, ctx);
    const {author, text, internal = false} = ctx.request.body;
    ticket.comments.push({author, text, internal});
    ctx.status = 201;
    ctx.body = ticket;
  },
);

function findTicket(id: string, ctx: Koa.Context): Ticket {
  const ticket = tickets.get(Number(id));
  if (ticket === undefined) ctx.throw(404, `no ticket ${id}`);
  return ticket;
}

const app = new Koa();
app.use(problemHandler({maxErrors: 10}));
app.use(router.routes()).use(router.allowedMethods());

const port = Number(process.env['PORT'] ?? 3001);
// Loopback only: an example is for trying on this machine, not for the network.
const server = app.listen(port, '127.0.0.1', () => {
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : port}`;
  const json = "-H 'content-type: application/json'";
  console.log(
    [
      `Ticket API listening on ${base}`,
      '',
      'Try it:',
      `  curl -s ${json} -d '{"subject":"Printer on fire","body":"Third floor.","priority":"urgent","requester":{"email":"it@example.com"}}' ${base}/api/tickets`,
      `  curl -s ${base}/api/tickets/1`,
      `  curl -s ${json} -d '{"author":"ops@example.com","text":"Extinguished."}' ${base}/api/tickets/1/comments`,
      `  curl -s ${json} -d '{"subject":"x","body":"","requester":{}}' ${base}/api/tickets          # 422`,
    ].join('\n'),
  );
});
process.once('SIGINT', () => server.close());
process.once('SIGTERM', () => server.close());
