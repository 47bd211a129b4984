// Numbers the handler could not see as they were judged. The schema judges a number exactly on
// its text, the handler gets JSON.parse's double: 1e-400 passes exclusiveMinimum: 0 and arrives
// as 0, 1e400 arrives as Infinity. `limits.inexactNumbers: 'reject'` refuses those (and only
// those) as limit.number.inexact in every mode; validateBody does by default, with a 400
// entity.number.inexact, on Express 5 and Koa 3.

import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';

import Router from '@koa/router';
import express from 'express';
import Koa from 'koa';
import supertest from 'supertest';

import * as expressAdapter from '../adapters/express.js';
import type {BodyOptions, ProblemDocument} from '../adapters/http-body.js';
import * as koaAdapter from '../adapters/koa.js';
import {compile} from '../src/index.js';
import type {OutputUnit, Result, Validator} from '../src/types.js';
import {byteChunks, feed} from './support/chunks.js';
import {KiB, MiB, listen, rawUpload, slowUpload, type Harness} from './support/http.js';

const SUITE_TIMEOUT = {timeout: 60_000};

/** JSON.parse reads each as ±Infinity or as 0, though its text is not zero. */
const REFUSED = ['1e400', '-1e400', '1e-400'];
/** Zero texts read as zero: nothing is lost. */
const KEPT = [
  {text: '-0', value: -0},
  {text: '0e10', value: 0},
];

/** `number` in a nested member, at the end of line 2. */
const nested = (number: string): string => `{"n": 1,\n "order": {"items": [{"price": ${number}}]}}`;

const schema = {type: 'object', properties: {n: {type: 'number'}, order: {type: 'object'}}} as const;

/** Where the number's error must be: its last character. */
function lastCharacterOf(number: string, text: string): Pick<OutputUnit, 'offset' | 'line' | 'column'> {
  const end = text.indexOf(number) + number.length - 1;
  const lineStart = text.lastIndexOf('\n', end) + 1;
  return {offset: Buffer.byteLength(text.slice(0, end)), line: text.slice(0, end).split('\n').length, column: end - lineStart + 1};
}

function inputError(result: Result): Pick<OutputUnit, 'kind' | 'offset' | 'line' | 'column'> & {code: unknown} {
  assert.equal(result.valid, false);
  assert.equal(result.errors.length, 1, JSON.stringify(result.errors));
  const [unit] = result.errors;
  return {kind: unit!.kind, code: unit!.params?.code, offset: unit!.offset, line: unit!.line, column: unit!.column};
}

describe("limits.inexactNumbers: 'reject'", () => {
  const rejecting = compile(schema, {limits: {inexactNumbers: 'reject'}});
  const exact = compile(schema);
  const modes: Array<[string, (validator: Validator, text: string) => Result]> = [
    ['validateText', (validator, text) => validator.validateText(text)],
    ['parseText', (validator, text) => validator.parseText(text)],
    ['a session fed 1-byte chunks', (validator, text) => feed(validator, byteChunks(Buffer.from(text)))],
  ];

  for (const [mode, judge] of modes) {
    it(`${mode}: ${REFUSED.join(', ')} in a nested member are limit.number.inexact at their last character`, () => {
      for (const number of REFUSED) {
        const text = nested(number);
        assert.deepEqual(inputError(judge(rejecting, text)), {kind: 'limit', code: 'limit.number.inexact', ...lastCharacterOf(number, text)}, number);
        assert.equal(judge(exact, text).valid, true, `${number} is judged on its text by default`);
      }
    });

    it(`${mode}: zero texts (${KEPT.map(({text}) => text).join(', ')}) and rounding within the range pass`, () => {
      for (const number of [...KEPT.map(({text}) => text), '9007199254740993', '5e-324']) assert.equal(judge(rejecting, nested(number)).valid, true, number);
    });
  }

  it('the verdict of the issue: 1e-400 passes exclusiveMinimum: 0 on its text, is refused as the 0 parseText would hand on, and as inexact before that', () => {
    const positive = {exclusiveMinimum: 0};
    assert.equal(compile(positive).validateText('1e-400').valid, true);
    assert.equal(compile(positive).parseText('1e-400').errors[0]?.keyword, 'exclusiveMinimum');
    assert.equal(compile(positive, {limits: {inexactNumbers: 'reject'}}).parseText('1e-400').errors[0]?.params?.code, 'limit.number.inexact');
  });
});

// ---------------------------------------------------------------------------------------------
// validateBody: each route says what the handler received for `n` (`String`, and `-0` for -0).

function described(body: unknown): {n: string} {
  const n = (body as {n: number}).n;
  return {n: Object.is(n, -0) ? '-0' : String(n)};
}

const ROUTES: Array<{path: string; options: BodyOptions}> = [
  {path: '/default', options: {}},
  {path: '/allowed', options: {inexactNumbers: 'allow'}},
  // The validator's own option, when validateBody's is not given.
  {path: '/allowed-by-limits', options: {limits: {inexactNumbers: 'allow'}}},
];

function expressApp(): express.Express {
  const app = express();
  for (const route of ROUTES) app.post(route.path, expressAdapter.validateBody(schema, route.options), (req, res) => res.json(described(req.body)));
  app.use(expressAdapter.problemHandler());
  return app;
}

function koaApp(): Koa {
  const app = new Koa();
  const router = new Router();
  for (const route of ROUTES) {
    router.post(route.path, koaAdapter.validateBody(schema, route.options), (ctx) => {
      ctx.body = described(ctx.request.body);
    });
  }
  app.use(koaAdapter.problemHandler()).use(router.routes());
  return app;
}

interface Answer {
  status: number;
  body: unknown;
}

for (const server of [
  {name: 'Express 5', app: expressApp},
  {name: 'Koa 3', app: koaApp},
]) {
  describe(`validateBody's inexactNumbers, ${server.name}`, SUITE_TIMEOUT, () => {
    let harness: Harness;
    before(async () => {
      harness = await listen(server.app());
    });
    after(() => {
      harness.server.closeAllConnections();
      harness.server.close();
    });

    // With Content-Length the body is whole in its first chunk (parseText); chunked it goes through a session.
    const framings: Array<{name: string; send: (path: string, text: string) => Promise<Answer>}> = [
      {
        name: 'with Content-Length',
        send: async (path, text) => {
          const response = await supertest(harness.server).post(path).set('content-type', 'application/json').send(text);
          return {status: response.status, body: JSON.parse(response.text)};
        },
      },
      {
        name: 'chunked, 3 bytes at a time',
        send: async (path, text) => {
          const response = await slowUpload(harness.port, path, Buffer.from(text), 3, 1);
          return {status: Number(response.slice(9, 12)), body: JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4))};
        },
      },
    ];

    for (const framing of framings) {
      it(`${framing.name}: ${REFUSED.join(', ')} are a 400 entity.number.inexact that says where, at the top and nested`, async () => {
        for (const number of REFUSED) {
          for (const text of [`{"n": ${number}}`, nested(number)]) {
            const {status, body} = await framing.send('/default', text);
            const problem = body as ProblemDocument;
            assert.equal(status, 400, text);
            assert.equal(problem.code, 'entity.number.inexact');
            const {line, column} = lastCharacterOf(number, text);
            assert.match(problem.detail ?? '', new RegExp(`at line ${line}, column ${column}$`));
            assert.equal(problem.errors?.[0]?.keyword, 'limit');
          }
        }
      });

      it(`${framing.name}: -0 and 0e10 reach the handler as -0 and 0`, async () => {
        for (const {text, value} of KEPT) {
          assert.deepEqual(await framing.send('/default', `{"n": ${text}}`), {status: 200, body: described({n: value})});
        }
      });

      it(`${framing.name}: 'allow' hands on what JSON.parse reads`, async () => {
        for (const path of ['/allowed', '/allowed-by-limits']) {
          for (const number of REFUSED) {
            assert.deepEqual(await framing.send(path, `{"n": ${number}}`), {status: 200, body: described(JSON.parse(`{"n": ${number}}`))}, `${path} ${number}`);
          }
        }
      });
    }

    it('refused at the number, before the rest of an 8 MiB body is read, and the connection closed', async () => {
      const outcome = await rawUpload(harness.port, '/default', {total: 8 * MiB, prefix: '{"n": 1e400, "order": {"note": "', suffix: '"}}', contentLength: false});
      assert.equal(outcome.status, 400);
      assert.match(outcome.head, /\r\nconnection: close\r\n/i);
      assert.ok(outcome.closedByServer);
      const read = harness.sockets.at(-1)!.bytesRead;
      assert.ok(read < 256 * KiB, `the server read ${read} bytes`);
    });
  });
}

describe('inexactNumbers option', () => {
  it("refuses what is not 'allow' or 'reject'", () => {
    assert.throws(() => expressAdapter.validateBody(schema, {inexactNumbers: 'ignore' as 'allow'}), TypeError);
    assert.throws(() => koaAdapter.validateBody(schema, {limits: {inexactNumbers: 'ignore' as 'allow'}}), TypeError);
  });
});
