// Type-level test, compiled by `tsc -p tsconfig.types-test.json` (test/express.test.ts runs it).
// Nothing here runs: each line either type-checks or is marked @ts-expect-error.
//
// Every door types its results from an `as const` schema, or from a validator compiled from one:
// the value when valid, with `schemas` for external references and `useDefaults` for defaults.

import {pipeline} from 'node:stream/promises';
import {Writable} from 'node:stream';

import express from 'express';
import {from} from 'rxjs';

import {validateBody} from '../../adapters/express.js';
import * as koaAdapter from '../../adapters/koa.js';
import {validateNdjson, validateValues} from '../../adapters/rxjs.js';
import {jsonValidator, ndjsonValidator} from '../../adapters/stream.js';
import {textStreamValidator, validateTextStream} from '../../adapters/text-stream.js';
import {validateRequest} from '../../adapters/web.js';
import {compile} from '../../src/index.js';
import type {Result, ValueResult} from '../../src/types.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<T extends true>(): T | void {}

const answerSchema = {
  type: 'object',
  properties: {answer: {type: 'string'}, confidence: {type: 'number', default: 0.5}},
  required: ['answer'],
  additionalProperties: false,
} as const;
type Answer = {answer: string; confidence?: number};
type FilledAnswer = {answer: string; confidence: number};

const answers = compile(answerSchema);

async function* deltas(): AsyncGenerator<string> {
  yield '{"answer": "42"}';
}

export async function textStreams(): Promise<void> {
  // The value is there when asked to parse.
  const parsed = await validateTextStream(deltas(), answerSchema, {parse: true});
  if (parsed.valid) expectType<Equal<typeof parsed.value, Answer>>();
  const complete: boolean = parsed.complete;
  // Without parse, a valid verdict has no value to promise.
  const checked = await validateTextStream(deltas(), answerSchema);
  if (checked.valid) {
    // @ts-expect-error possibly undefined
    void checked.value.answer;
  }
  // A compiled validator types the same.
  const fromValidator = await validateTextStream(deltas(), answers, {parse: true});
  if (fromValidator.valid) expectType<Equal<typeof fromValidator.value, Answer>>();
  // useDefaults fills the default in.
  const filled = await validateTextStream(deltas(), answerSchema, {parse: true, useDefaults: true});
  if (filled.valid) expectType<Equal<typeof filled.value, FilledAnswer>>();
  // The incremental form.
  const incremental = textStreamValidator(answerSchema, {parse: true});
  incremental.write('{"answer": "42"}');
  const ended = incremental.end();
  expectType<Equal<typeof ended, ValueResult<Answer>>>();
  // A schema the types cannot read.
  const loaded: object = JSON.parse('{}');
  const untyped = await validateTextStream(deltas(), loaded, {parse: true});
  if (untyped.valid) expectType<Equal<typeof untyped.value, unknown>>();
  // @ts-expect-error no such option
  await validateTextStream(deltas(), answerSchema, {pars: true});
  void complete;
}

export function observables(): void {
  from(['{"answer": "42"}\n']).pipe(validateNdjson(answerSchema, {parse: true})).subscribe((record) => {
    const line: number = record.line;
    if (record.valid) expectType<Equal<typeof record.value, Answer>>();
    else expectType<Equal<typeof record.value, unknown>>();
    void line;
  });
  from(['{"answer": "42"}\n']).pipe(validateNdjson(answers)).subscribe((record) => {
    if (record.valid) expectType<Equal<typeof record.value, Answer | undefined>>();
  });
  from([{answer: '42'}]).pipe(validateValues(answerSchema, {useDefaults: true})).subscribe((record) => {
    const index: number = record.index;
    if (record.valid) expectType<Equal<typeof record.value, FilledAnswer>>();
    void index;
  });
}

export async function nodeStreams(): Promise<void> {
  const records = ndjsonValidator(answerSchema, {parse: true});
  records.on('data', (record) => {
    if (record.valid) expectType<Equal<typeof record.value, Answer>>();
  });
  await pipeline(deltas(), records, new Writable({objectMode: true, write: (_record, _encoding, done) => done()}));

  const document = jsonValidator(answers, {parse: true});
  document.end('{"answer": "42"}');
  const result = await document.result;
  expectType<Equal<typeof result, ValueResult<Answer>>>();
  document.on('result', (verdict) => expectType<Equal<typeof verdict, ValueResult<Answer>>>());
  const unparsed = await jsonValidator(answerSchema).result;
  expectType<Equal<typeof unparsed, Result<Answer>>>();
}

// ---- HTTP doors: external references and defaults ----

const addressSchema = {type: 'object', properties: {city: {type: 'string'}}, required: ['city'], additionalProperties: false} as const;
const customerSchema = {
  type: 'object',
  properties: {name: {type: 'string'}, address: {$ref: 'https://example.com/address.json'}, tier: {enum: ['free', 'paid'], default: 'free'}},
  required: ['name', 'address'],
  additionalProperties: false,
} as const;
const schemas = {'https://example.com/address.json': addressSchema};

const app = express();
app.post('/customers', validateBody(customerSchema, {schemas}), (req, res) => {
  expectType<Equal<typeof req.body, {name: string; address: {city: string}; tier?: 'free' | 'paid'}>>();
  const city: string = req.body.address.city;
  // @ts-expect-error no default filled without useDefaults
  void req.body.tier.length;
  res.json({city});
});
app.post('/filled', validateBody(customerSchema, {schemas, useDefaults: true}), (req, res) => {
  const tier: 'free' | 'paid' = req.body.tier;
  res.json({tier});
});
// Without the document, the body is unknown: never `never`, on which anything would compile.
app.post('/unresolved', validateBody(customerSchema), (req, res) => {
  expectType<Equal<typeof req.body, unknown>>();
  // @ts-expect-error unknown until narrowed
  void req.body.name;
  res.end();
});
// A validator compiled from the schema types the body too.
app.post('/compiled', validateBody(compile(customerSchema, {schemas})), (req, res) => {
  const city: string = req.body.address.city;
  res.json({city});
});

const koaMiddleware = koaAdapter.validateBody(customerSchema, {schemas, useDefaults: 'empty'});
type KoaBody = Parameters<typeof koaMiddleware>[0]['request']['body'];
expectType<Equal<KoaBody, {name: string; address: {city: string}; tier: 'free' | 'paid'}>>();

export async function web(request: Request): Promise<void> {
  const customer = await validateRequest(request, customerSchema, {schemas});
  expectType<Equal<typeof customer, {name: string; address: {city: string}; tier?: 'free' | 'paid'}>>();
  const unresolved = await validateRequest(request, customerSchema);
  expectType<Equal<typeof unresolved, unknown>>();
}
