// What test/request-memory.test.ts runs in child processes started with --expose-gc: invalid
// bodies with a unique key each, through a validator alone or a real server, and the heap that
// is left once they are answered and garbage is collected.

import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import express from 'express';
import Fastify from 'fastify';
import * as expressAdapter from '../../adapters/express.js';
import streamSchema from '../../adapters/fastify.js';
import {copyName} from '../../src/engine/nameCache.js';
import {compile} from '../../src/index.js';
import type {Result, Validator} from '../../src/types.js';

/** Names only `name`: any other property, such as each body's unique key, makes a body invalid. */
export const closedSchema = {type: 'object', properties: {name: {type: 'string'}, pad: {type: 'string'}}, additionalProperties: false};

/** A key no other body has, longer than V8's shortest slice (13 characters), padded to `length`. */
const uniqueKey = (i: number, length: number): string => `unique-key-${i}-${Math.random().toString(36).slice(2)}-`.padEnd(length, 'k');

/** An invalid body of about `bytes` bytes whose first member has a key no other body has. */
export function invalidBody(i: number, bytes = 60_000, keyLength = 0): string {
  return `{"${uniqueKey(i, keyLength)}": 1, "pad": "${'x'.repeat(bytes)}"}`;
}

/**
 * Heap in use after a full GC, in MB. A successful regexp match first: V8 keeps the subject of the
 * last one for RegExp.lastMatch, process-wide, and the tokenizer's last subject is a body.
 */
export function heapAfterGc(): number {
  /y/.test('y');
  const gc = (globalThis as {gc?: () => void}).gc;
  if (gc === undefined) throw new Error('run with --expose-gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

/** `text` in chunks of `size`, as strings or as bytes. */
function chunksOf(text: string, size: number, bytes: boolean): (string | Uint8Array)[] {
  const whole = bytes ? Buffer.from(text) : text;
  const chunks: (string | Uint8Array)[] = [];
  for (let at = 0; at < whole.length; at += size) chunks.push(whole.slice(at, at + size));
  return chunks;
}

function throughSession(validator: Validator, chunks: readonly (string | Uint8Array)[]): Result {
  const session = validator.session();
  for (const chunk of chunks) session.write(chunk);
  return session.end();
}

/** Each way a body reaches a validator. */
export const calls: Readonly<Record<string, (validator: Validator, body: string) => Result>> = {
  'validateText, a string': (validator, body) => validator.validateText(body),
  'validateText, bytes': (validator, body) => validator.validateText(Buffer.from(body)),
  parseText: (validator, body) => validator.parseText(body),
  'validate, a parsed value': (validator, body) => validator.validate(JSON.parse(body)),
  'a session, string chunks': (validator, body) => throughSession(validator, chunksOf(body, 16_384, false)),
  'a session, byte chunks': (validator, body) => throughSession(validator, chunksOf(body, 16_384, true)),
};

/** MB the heap grew by over `count` invalid bodies through `call`, after `warmUp` of them. */
export function growthOverBodies(callName: string, count: number, warmUp: number): number {
  const call = calls[callName]!;
  const validator = compile(closedSchema);
  const send = (from: number, to: number): void => {
    for (let i = from; i < to; i++) if (call(validator, invalidBody(i)).valid) throw new Error(`body ${i} passed`);
  };
  send(0, warmUp);
  const before = heapAfterGc();
  send(warmUp, warmUp + count);
  return heapAfterGc() - before;
}

/** MB the heap grew by over `count` invalid bodies with a unique key of 60,000 characters each (a kept name of that size costs 120 KB). */
export function growthOverLongKeys(count: number): number {
  const validator = compile(closedSchema);
  validator.validateText(invalidBody(0, 10));
  const before = heapAfterGc();
  for (let i = 1; i <= count; i++) if (validator.validateText(invalidBody(i, 10, 60_000)).valid) throw new Error(`body ${i} passed`);
  return heapAfterGc() - before;
}

/** Twenty object nodes, each taking any property name. */
const manyNodesSchema = {
  type: 'object',
  properties: Object.fromEntries(Array.from({length: 20}, (_, node) => [`p${node}`, {type: 'object', additionalProperties: {type: 'number'}}])),
};

/**
 * MB the heap grew by over `count` valid documents that give each of 20 object nodes a unique
 * name of 256 characters (the longest the caches keep), through validateText (the checker's
 * members) and a session (the evaluator's key plans).
 */
export function growthOverManyNames(count: number): number {
  const validator = compile(manyNodesSchema);
  const documentOf = (i: number): string => JSON.stringify(Object.fromEntries(Array.from({length: 20}, (_, node) => [`p${node}`, {[uniqueKey(i * 20 + node, 256)]: 1}])));
  const judge = (i: number): void => {
    const text = documentOf(i);
    const session = validator.session();
    session.write(text);
    if (!validator.validateText(text).valid || !session.end().valid) throw new Error(`document ${i} failed`);
  };
  judge(0);
  const before = heapAfterGc();
  for (let i = 1; i <= count; i++) judge(i);
  return heapAfterGc() - before;
}

/** MB still held by copyName's copies of 40-character slices of `count` texts of 1 MB, dropped. */
export function retainedByCopies(count: number): number {
  const before = heapAfterGc();
  const copies = copiesOfSlices(count);
  const retained = heapAfterGc() - before;
  if (copies.length !== count) throw new Error('copies lost');
  return retained;
}

function copiesOfSlices(count: number): string[] {
  const copies: string[] = [];
  for (let i = 0; i < count; i++) {
    const text = `${i}-${Math.random()}`.padEnd(1_000_000, i % 2 === 0 ? 'x' : '\u0416');
    copies.push(copyName(text.slice(3, 43)));
  }
  return copies;
}

/** MB still held once one invalid body of 10 MB has been judged through `call` and dropped. */
export function retainedAfterOneBody(callName: string): number {
  const call = calls[callName]!;
  const validator = compile(closedSchema);
  call(validator, invalidBody(0, 100));
  const before = heapAfterGc();
  judgeOnce(call, validator);
  return heapAfterGc() - before;
}

/** Apart, so that no register of the caller's frame still holds the body. */
function judgeOnce(call: (validator: Validator, body: string) => Result, validator: Validator): void {
  if (call(validator, invalidBody(1, 10_000_000)).valid) throw new Error('the body passed');
}

/** A server on 127.0.0.1 with one validated route, `POST /closed`, and `GET /heap` (heapAfterGc). */
export async function serve(door: 'express' | 'fastify'): Promise<number> {
  if (door === 'express') {
    const app = express();
    app.post('/closed', expressAdapter.validateBody(closedSchema), (_req, res) => res.status(201).send('stored'));
    app.use(expressAdapter.problemHandler());
    app.get('/heap', (_req, res) => res.json(heapAfterGc()));
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }
  const app = Fastify();
  // Refused, as at Express: Fastify's own removeAdditional, the plugin's default, would take the key out.
  await app.register(streamSchema, {removeAdditional: false});
  app.post('/closed', {schema: {body: closedSchema}}, async (_request, reply) => reply.code(201).send('stored'));
  app.get('/heap', async () => heapAfterGc());
  await app.listen({port: 0, host: '127.0.0.1'});
  return (app.server.address() as AddressInfo).port;
}
