// Parser agreement over HTTP: every case of JSONTestSuite posted to validateBody({}) on a real
// Express app and a real Koa app on 127.0.0.1, as a whole body (Content-Length), as a chunked body
// in a few chunk frames, and in 1-byte chunk frames. The answer is JSON.parse's verdict on the
// bytes (2xx with its value, or 400 entity.parse.failed), save the listed exceptions
// (test/fixtures/jsontestsuite/cases.ts); never a 5xx, a reset or no answer.

import assert from 'node:assert/strict';
import {once} from 'node:events';
import {connect} from 'node:net';
import {after, before, describe, it} from 'node:test';
import {isDeepStrictEqual} from 'node:util';


import {prefixExceptions, referenceOfBytes, suiteCases, type Expectation, type SuiteCase} from './fixtures/jsontestsuite/cases.js';
import {expressRoute, koaRoute} from './support/apps.js';
import {random} from './support/chunks.js';
import {listen, sleep, type Harness} from './support/http.js';

/**
 * `strict: false`: the parser alone judges, as JSON.parse does (body-parser's `strict`, on by
 * default, refuses scalar documents as a rule of its own). The limit is above the suite's largest
 * case (250 KB), so that the parser, not the body size, refuses it. `inexactNumbers: 'allow'`:
 * the default refuses a number JSON.parse reads as ±Infinity or as 0 for a non-zero text (the
 * handler would not get the value that was judged): a rule of its own, checked below.
 */
const bodyOptions = {strict: false, limit: '1mb', inexactNumbers: 'allow'} as const;

type Framework = 'Express' | 'Koa';
type Framing = 'whole' | 'chunked' | '1-byte';
const framings: readonly Framing[] = ['whole', 'chunked', '1-byte'];

/** The value each request's handler was given, by request id. */
const received = new Map<string, unknown>();

/** The route records the value it was given, by request id, and answers 200. */
function record(body: unknown, header: (name: string) => string) {
  received.set(header('x-request-id'), body);
  return {status: 200, body: 'ok'};
}
const expressApp = () => expressRoute('/json', {}, bodyOptions, record);
const koaApp = () => koaRoute('/json', {}, bodyOptions, record);

// ---------------------------------------------------------------------------------------------
// A raw client: the framing is ours to choose

interface Answer {
  status: number;
  body: string;
  /** The connection failed (reset, refused) before a whole answer came. */
  failure?: string;
}

function chunkFrame(piece: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]);
}

/** The body's bytes as the writes of one request, head included. */
function requestWrites(id: string, bytes: Uint8Array, framing: Framing, seed: number): Buffer[] {
  const head = (framingHeader: string): Buffer =>
    Buffer.from(`POST /json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\nX-Request-Id: ${id}\r\n${framingHeader}\r\n\r\n`);
  if (framing === 'whole') return [Buffer.concat([head(`Content-Length: ${bytes.length}`), bytes])];
  const last = Buffer.from('0\r\n\r\n');
  // Every byte its own chunk frame: the server reads each as a chunk of its own. One write, to keep
  // 1908 requests fast.
  if (framing === '1-byte') return [head('Transfer-Encoding: chunked'), Buffer.concat([...Array.from(bytes, (byte) => chunkFrame(Uint8Array.of(byte))), last])];
  const next = random(seed);
  const cuts = [Math.floor(next() * (bytes.length + 1)), Math.floor(next() * (bytes.length + 1))].sort((a, b) => a - b);
  const pieces = [bytes.subarray(0, cuts[0]), bytes.subarray(cuts[0], cuts[1]), bytes.subarray(cuts[1])].filter((piece) => piece.length > 0);
  return [head('Transfer-Encoding: chunked'), ...pieces.map(chunkFrame), last];
}

async function post(port: number, writes: readonly Buffer[]): Promise<Answer> {
  const socket = connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  const chunks: Buffer[] = [];
  let failure: string | undefined;
  socket.on('data', (data: Buffer) => chunks.push(data));
  // A server that answers early and closes may reset the rest of our upload: that is fine once the
  // answer has come, and a failure if it has not.
  socket.on('error', (error: NodeJS.ErrnoException) => {
    if (chunks.length === 0) failure = error.code ?? error.message;
  });
  const closed = once(socket, 'close');
  await Promise.race([once(socket, 'connect'), closed]);
  for (const data of writes) socket.write(data);
  await Promise.race([closed, sleep(5000)]);
  socket.destroy();
  const response = Buffer.concat(chunks).toString('utf8');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);
  const answer: Answer = {status, body: response.slice(response.indexOf('\r\n\r\n') + 4)};
  if (failure !== undefined) answer.failure = failure;
  return answer;
}

/** Runs `work` on every item, `parallel` at a time. */
async function eachLimited<T>(items: readonly T[], parallel: number, work: (item: T) => Promise<void>): Promise<void> {
  let nextIndex = 0;
  const worker = async (): Promise<void> => {
    while (nextIndex < items.length) await work(items[nextIndex++]!);
  };
  await Promise.all(Array.from({length: parallel}, worker));
}

// ---------------------------------------------------------------------------------------------
// What each case must get

/** The answer JSON.parse's verdict calls for, with the listed exceptions. */
function expectedAnswer(suiteCase: SuiteCase): {status: number; code?: string} {
  const expected = referenceOfBytes(suiteCase.bytes);
  if (expected.valid) return {status: 200};
  if (prefixExceptions.has(suiteCase.name) && suiteCase.expectation === 'n') return {status: 413, code: 'entity.too.large'};
  return {status: 400, code: 'entity.parse.failed'};
}

/** What a case's prefix asks, before exceptions: y_ accepted, n_ refused as malformed, i_ either. */
function prefixAllows(suiteCase: SuiteCase, answer: Answer): boolean {
  if (suiteCase.expectation === 'i') return answer.status === 200 || answer.status === 400;
  return answer.status === (suiteCase.expectation === 'y' ? 200 : 400);
}

/** The problem document's `code`, and the keyword of its first error (`syntax` for malformed JSON). */
function problemCode(body: string): unknown {
  try {
    const problem = JSON.parse(body) as {code?: unknown; errors?: {keyword?: unknown}[]};
    return problem.code === 'entity.parse.failed' && problem.errors?.[0]?.keyword !== 'syntax' ? 'entity.parse.failed without a syntax error' : problem.code;
  } catch {
    return undefined;
  }
}

type Tally = Record<Expectation, {accepted: number; refused: number}>;
const table = new Map<string, Tally>();

function tally(framework: Framework, framing: Framing): Tally {
  const key = `${framework} ${framing}`;
  let counts = table.get(key);
  if (counts === undefined) {
    counts = {y: {accepted: 0, refused: 0}, n: {accepted: 0, refused: 0}, i: {accepted: 0, refused: 0}};
    table.set(key, counts);
  }
  return counts;
}

/** Posts every case with one framing; the disagreements, described. */
async function postEveryCase(framework: Framework, harness: Harness, framing: Framing): Promise<string[]> {
  const problems: string[] = [];
  const counts = tally(framework, framing);
  await eachLimited(suiteCases, 8, async (suiteCase) => {
    const id = `${framework}-${framing}-${suiteCase.name}`;
    const answer = await post(harness.port, requestWrites(id, suiteCase.bytes, framing, suiteCase.bytes.length + 1));
    counts[suiteCase.expectation][answer.status === 200 ? 'accepted' : 'refused']++;
    const expected = expectedAnswer(suiteCase);
    const said = `${answer.status} ${String(problemCode(answer.body) ?? '')}${answer.failure === undefined ? '' : ` (${answer.failure})`}`;
    if (answer.status === 0 || answer.status >= 500 || answer.failure !== undefined) {
      problems.push(`${suiteCase.name}: ${said}: no answer (a hang or an exception in the server), a reset or a 5xx`);
      return;
    }
    if (answer.status !== expected.status || (expected.code !== undefined && problemCode(answer.body) !== expected.code)) {
      problems.push(`${suiteCase.name}: ${said}, JSON.parse says ${expected.status} ${expected.code ?? ''}`);
      return;
    }
    if (!prefixAllows(suiteCase, answer) && !prefixExceptions.has(suiteCase.name)) problems.push(`${suiteCase.name}: ${said}, against its prefix`);
    if (answer.status === 200 && !isDeepStrictEqual(received.get(id), referenceOfBytes(suiteCase.bytes).value)) {
      problems.push(`${suiteCase.name}: the handler got ${JSON.stringify(received.get(id))}, not JSON.parse's value`);
    }
  });
  return problems;
}

for (const [framework, makeApp] of [
  ['Express', expressApp],
  ['Koa', koaApp],
] as const) {
  describe(`JSONTestSuite through ${framework}'s validateBody: JSON.parse's verdict, never a 5xx`, {timeout: 120_000}, () => {
    let harness: Harness;
    before(async () => {
      harness = await listen(makeApp());
    });
    after(() => harness.server.close());

    for (const framing of framings) {
      it(`every case, ${framing === 'whole' ? 'as a whole body' : framing === 'chunked' ? 'as a chunked body in a few frames' : 'in 1-byte chunk frames'}`, async () => {
        const problems = await postEveryCase(framework, harness, framing);
        assert.deepEqual(problems, []);
      });
    }

    it('with the default inexactNumbers, a number outside the double range is 400 entity.number.inexact', async () => {
      const outOfRange = suiteCases.filter(({name}) => /^i_number_(double_huge_neg_exp|huge_exp|neg_int_huge_exp|pos_double_huge_exp|real_neg_overflow|real_pos_overflow|real_underflow)\.json$/.test(name));
      assert.equal(outOfRange.length, 7);
      const strictApp = framework === 'Express' ? expressRoute('/json', {}, {strict: false}, record) : koaRoute('/json', {}, {strict: false}, record);
      const strictHarness = await listen(strictApp);
      try {
        for (const suiteCase of outOfRange) {
          const answer = await post(strictHarness.port, requestWrites(suiteCase.name, Buffer.from(suiteCase.bytes), 'whole', 0));
          assert.equal(answer.status, 400, suiteCase.name);
          assert.equal(problemCode(answer.body), 'entity.number.inexact', suiteCase.name);
        }
      } finally {
        strictHarness.server.close();
      }
    });

    it('the server still answers after the whole suite', async () => {
      const answer = await post(harness.port, requestWrites('last', Buffer.from('{"ok":true}'), 'whole', 0));
      assert.equal(answer.status, 200);
    });
  });
}

after(() => {
  const cell = (framework: Framework, framing: Framing, expectation: Expectation): string => {
    const counts = table.get(`${framework} ${framing}`)?.[expectation];
    return counts === undefined ? '-' : `${counts.accepted}/${counts.refused}`;
  };
  const lines = ['JSONTestSuite over HTTP, accepted/refused (strict: false, inexactNumbers: allow):', `${''.padEnd(8)}${framings.map((f) => `Express ${f}`.padEnd(18)).join('')}${framings.map((f) => `Koa ${f}`.padEnd(14)).join('')}`];
  for (const expectation of ['y', 'n', 'i'] as const) {
    const total = suiteCases.filter((suiteCase) => suiteCase.expectation === expectation).length;
    lines.push(`${`${expectation} (${total})`.padEnd(8)}${framings.map((f) => cell('Express', f, expectation).padEnd(18)).join('')}${framings.map((f) => cell('Koa', f, expectation).padEnd(14)).join('')}`);
  }
  lines.push(`listed: ${[...prefixExceptions.keys()].join(', ')}`);
  console.log(lines.join('\n'));
});
