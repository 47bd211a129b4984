// The smallest Express and Koa apps around one validated POST route, with problemHandler() as
// the error handler, as the README mounts them: what the adapter tests send requests to.

import Router from '@koa/router';
import express from 'express';
import Koa from 'koa';
import * as expressAdapter from '../../adapters/express.js';
import type {BodyOptions} from '../../adapters/http-body.js';
import * as koaAdapter from '../../adapters/koa.js';

/** What the route's handler answers: given the validated body and a request header reader. */
export type Handler = (body: unknown, header: (name: string) => string) => {status: number; body: string};

export function expressRoute(path: string, schema: boolean | object, options: BodyOptions, handle: Handler): express.Express {
  const app = express();
  app.post(path, expressAdapter.validateBody(schema, options), (req, res) => {
    const {status, body} = handle(req.body, (name) => String(req.headers[name] ?? ''));
    res.status(status).send(body);
  });
  app.use(expressAdapter.problemHandler());
  return app;
}

export function koaRoute(path: string, schema: boolean | object, options: BodyOptions, handle: Handler): Koa {
  const app = new Koa();
  app.use(koaAdapter.problemHandler());
  const router = new Router();
  router.post(path, koaAdapter.validateBody(schema, options), (ctx) => {
    const {status, body} = handle(ctx.request.body, (name) => ctx.get(name));
    ctx.status = status;
    ctx.body = body;
  });
  app.use(router.routes());
  return app;
}
