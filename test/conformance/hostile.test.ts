// The hostile conformance suite: every case of cases.ts against every door of doors.ts. The rows
// run side by side; within a row the cases run one after another on servers opened once for the
// row. A row skips a case only with the reason in its `skip`, printed here; a skip without a
// reason, or naming no case, fails the table's own tests. See doors.ts for how a door joins.

import assert from 'node:assert/strict';
import {after, before, describe, it, type TestContext} from 'node:test';

import {SOCKET_BUFFER} from '../support/http.js';
import {CASES, type Case, type Expectation, type FreshCase, type InterleavedCase, type MountErrorCase, type NeverAcceptedCase, type SameVerdictCase, type VerdictsCase, type WireCase, type WireRefusal} from './cases.js';
import {DOORS} from './doors.js';
import {comparable, Source, whole, type BodySpec, type Door, type Mount, type Opened, type ServerFacet, type Verdict} from './harness.js';
import {Connection} from './wire.js';

/** A door that has not answered in this long never will: the case fails rather than hangs. */
const ANSWER_MS = 10_000;
const ROW_TIMEOUT = {timeout: 180_000};
const KiB = 1024;

async function within<T>(work: Promise<T>, what: string, ms = ANSWER_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

function shown(verdict: Verdict): string {
  const text = JSON.stringify({...comparable(verdict), consumed: verdict.consumed, leftBehind: verdict.leftBehind});
  return text.length <= 400 ? text : `${text.slice(0, 400)}…`;
}

function judge(opened: Opened, mount: Mount, body: BodySpec, source = new Source(body)): Promise<Verdict> {
  return within(opened.judge(mount, body, source), body.shown);
}

/** The verdicts on `bodies` through `mount`, together where the door judges faster so. */
async function judgeEach(opened: Opened, mount: Mount, bodies: readonly BodySpec[]): Promise<Verdict[]> {
  if (opened.judgeAll !== undefined) return within(opened.judgeAll(mount, bodies), `${bodies.length} bodies`, 60_000);
  const verdicts: Verdict[] = [];
  for (const body of bodies) verdicts.push(await judge(opened, mount, body));
  return verdicts;
}

function assertExpected(verdict: Verdict, expect: Expectation, label: string): void {
  const said = `${label}\n  the door said ${shown(verdict)}`;
  assert.equal(verdict.accepted, expect.accepted, `${expect.accepted ? 'refused' : 'accepted'}: ${said}`);
  if (!verdict.accepted && expect.refusal !== undefined) assert.equal(verdict.refusal, expect.refusal, `refused for another reason: ${said}`);
  if (verdict.accepted && 'value' in expect && 'value' in verdict) assert.deepEqual(verdict.value, expect.value, `another value: ${said}`);
  if ('notValue' in expect && 'value' in verdict) assert.notDeepEqual(verdict.value, expect.notValue, `the value it must never give: ${said}`);
  const bound = verdict.wire === true ? expect.readAtMost : expect.consumedAtMost;
  if (bound !== undefined) assert.ok(verdict.consumed >= 0 && verdict.consumed <= bound, `took ${verdict.consumed} bytes, more than ${bound}: ${said}`);
  if (expect.nothingLeftBehind === true && verdict.leftBehind !== undefined) assert.deepEqual(verdict.leftBehind, [], `left behind: ${said}`);
  if (expect.errorAt !== undefined && verdict.firstError !== undefined) {
    const {code, offset} = verdict.firstError;
    // A door that reads no bytes (tokens) leaves the offset out; every other door gives one.
    const told = 'offset' in verdict.firstError;
    const expected = {code: expect.errorAt.code ?? code, offset: told ? (expect.errorAt.offset ?? offset) : undefined};
    assert.deepEqual({code, offset}, expected, `the first error elsewhere: ${said}`);
  }
  if (expect.answerOmits !== undefined && verdict.answer !== undefined) {
    assert.ok(!verdict.answer.includes(expect.answerOmits), `the answer echoes the body (${verdict.answer.length} characters): ${said}`);
  }
}

// ---------------------------------------------------------------------------------------------
// One runner per kind of case

async function runVerdicts(opened: Opened, testCase: VerdictsCase): Promise<void> {
  if (opened.judgeAll !== undefined) {
    // Grouped by mount: a door that judges together starts once per mount.
    for (const mount of new Set(testCase.steps.map((step) => step.mount))) {
      const steps = testCase.steps.filter((step) => step.mount === mount);
      const verdicts = await judgeEach(opened, mount, steps.map((step) => step.body));
      steps.forEach((step, index) => assertExpected(verdicts[index]!, step.expect, step.body.shown));
    }
    return;
  }
  for (const step of testCase.steps) assertExpected(await judge(opened, step.mount, step.body), step.expect, step.body.shown);
}

async function runSameVerdict(opened: Opened, testCase: SameVerdictCase): Promise<void> {
  for (const group of testCase.groups) {
    const [first, ...others] = await judgeEach(opened, testCase.mount, group);
    others.forEach((verdict, index) => {
      assert.deepEqual(comparable(verdict), comparable(first!), `${group[index + 1]!.shown}\n  gave ${shown(verdict)}\n  ${group[0]!.shown} gave ${shown(first!)}`);
    });
  }
}

async function runNeverAccepted(opened: Opened, testCase: NeverAcceptedCase): Promise<void> {
  const verdicts = await judgeEach(opened, testCase.mount, testCase.bodies);
  const accepted = verdicts.map((verdict, index) => (verdict.accepted ? `${testCase.bodies[index]!.shown} → ${shown(verdict)}` : '')).filter((line) => line !== '');
  assert.deepEqual(accepted, [], 'accepted a body cut short');
}

async function runFresh(opened: Opened, testCase: FreshCase): Promise<void> {
  const expected: Verdict[] = [];
  for (const [index, body] of testCase.bodies.entries()) expected.push(...(await judgeEach(opened, testCase.fresh[index]!, [body])));
  const actual = await judgeEach(opened, testCase.shared, testCase.bodies);
  testCase.bodies.forEach((body, index) => {
    const before = testCase.bodies.slice(0, index).map((earlier) => earlier.shown);
    assert.deepEqual(comparable(actual[index]!), comparable(expected[index]!), `${body.shown} after ${JSON.stringify(before)}\n  gave ${shown(actual[index]!)}\n  alone ${shown(expected[index]!)}`);
  });
}

/**
 * Two sources handed out alternately: the first's chunk i after the second's chunk i - 1, the
 * second's chunk i after the first's chunk i. A source whose door has its verdict stops holding
 * the other back.
 */
function alternate(first: Source, second: Source): (done: Source) => void {
  const finished = new Set<Source>();
  const waitFor = (other: Source, chunks: number): Promise<void> =>
    new Promise((resolve) => other.watch(() => (finished.has(other) || other.ended || other.handed >= chunks ? (resolve(), true) : false)));
  first.gate = (index) => waitFor(second, index);
  second.gate = (index) => waitFor(first, index + 1);
  return (done) => {
    finished.add(done);
    done.changed();
  };
}

async function runInterleaved(opened: Opened, testCase: InterleavedCase): Promise<void> {
  for (const [index, [a, b]] of testCase.pairs.entries()) {
    const [freshA, freshB] = testCase.fresh[index]!;
    const alone = [await judge(opened, freshA, a), await judge(opened, freshB, b)];
    const sources = [new Source(a), new Source(b)] as const;
    const done = alternate(...sources);
    const together = await Promise.all(
      ([a, b] as const).map(async (body, which) => {
        const verdict = await judge(opened, testCase.shared, body, sources[which]);
        done(sources[which]);
        return verdict;
      }),
    );
    together.forEach((verdict, which) => {
      const body = which === 0 ? a : b;
      assert.deepEqual(comparable(verdict), comparable(alone[which]!), `${body.shown}, fed alternately with ${(which === 0 ? b : a).shown}\n  gave ${shown(verdict)}\n  alone ${shown(alone[which]!)}`);
    });
  }
}

/** A schema every door mounts, for the cases about what else is given with it. */
const GOOD_SCHEMA = {type: 'object'};

async function runMountError(door: Door, {values, as = 'schema', says}: MountErrorCase): Promise<void> {
  for (const {shown, value} of values) {
    const what = as === 'schema' ? shown : `a schema with ${shown} for options`;
    const thrown = await within(as === 'schema' ? door.mountError(value) : door.mountError(GOOD_SCHEMA, value), `mounting ${what}`);
    assert.ok(thrown instanceof TypeError, `mounting ${what}: ${thrown === undefined ? 'mounted without a word' : `threw ${String(thrown)}`}`);
    if (says !== undefined) assert.match(thrown.message, says, `mounting ${what}`);
    // Ours carries its code; Fastify's own wrapper of a route's schema error (FST_ERR_SCH_VALIDATION_BUILD, as `cause`) carries Fastify's.
    if (thrown.cause === undefined) assert.equal((thrown as {code?: unknown}).code, 'argument.invalid', `mounting ${what}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Connections

/** Bytes of the request head our client sends, at most. */
const HEAD = 512;

const FOLLOW_UPS: ReadonlyArray<{text: string; refusal?: 'validation' | 'syntax'}> = [
  {text: JSON.stringify({name: 'first after'})},
  {text: '{"name": 5}', refusal: 'validation'},
  {text: '{"name": ', refusal: 'syntax'},
  {text: JSON.stringify({forbidden: 1, name: 'x'}), refusal: 'validation'},
  {text: JSON.stringify({name: 'second after'})},
];

/** The bytes of a body that ends, for fetch's announced upload. */
function bytesOfBody(body: BodySpec): Uint8Array {
  const chunks: Uint8Array[] = [];
  for (const step of body.steps()) if (step instanceof Uint8Array) chunks.push(step);
  return Buffer.concat(chunks);
}

async function post(server: ServerFacet, mount: Mount, body: RequestInit['body'], headers: Record<string, string> = {}): Promise<{status: number; text: string}> {
  // Node 20's RequestInit type lacks `duplex`, which a stream body requires.
  const init: RequestInit & {duplex: 'half'} = {method: 'POST', headers: {'content-type': 'application/json', ...headers}, body, duplex: 'half'};
  const response = await fetch(`http://127.0.0.1:${server.port}${server.path(mount)}`, init);
  return {status: response.status, text: await response.text()};
}

async function assertNextAnswered(opened: Opened, next: Mount, label: string): Promise<void> {
  assertExpected(await judge(opened, next, whole('{"name":"next"}')), {accepted: true, value: {name: 'next'}}, `after ${label}, on a new connection`);
}

/** What one scenario of a wire case checks for one refusal. */
type Scenario = (opened: Opened, server: ServerFacet, refusal: WireRefusal, next: Mount, t: TestContext) => Promise<void>;

const wireEarly: Scenario = async (_opened, server, refusal, _next, t) => {
  const connection = await Connection.open(server.port);
  const answer = await within(connection.exchange(server.path(refusal.mount), refusal.body, new Source(refusal.body), {closeWait: 2000}), refusal.name);
  const read = server.bytesRead(answer.localPort);
  connection.close();
  const allowed = refusal.allowed ?? 0;
  t.diagnostic(`${refusal.name}: the client sent ${answer.sentBeforeAnswer} bytes before the answer; the server read ${read}`);
  assert.equal(answer.status, server.statusOf(refusal.refusal), `${refusal.name}: ${answer.text}`);
  assert.ok(answer.sentBeforeAnswer >= 0 && answer.sentBeforeAnswer <= allowed + 64 * KiB + SOCKET_BUFFER, `${refusal.name}: sent ${answer.sentBeforeAnswer} before the answer`);
  assert.ok(read >= 0 && read <= allowed + 2 * 64 * KiB + KiB + HEAD, `${refusal.name}: the server read ${read}`);
  assert.ok(answer.closed, `${refusal.name}: the server kept the connection open`);
};

const wireCloses: Scenario = async (opened, server, refusal, next) => {
  const connection = await Connection.open(server.port);
  const answer = await within(connection.exchange(server.path(refusal.mount), refusal.body, new Source(refusal.body), {closeWait: 2000}), refusal.name);
  connection.close();
  assert.equal(answer.status, server.statusOf(refusal.refusal), `${refusal.name}: ${answer.text}`);
  assert.ok(answer.closed, `${refusal.name}: answered ${answer.status}, then the server kept the connection open with the body unread`);
  if (refusal.notBefore !== undefined) {
    // setTimeout never fires early; the upper bound says the answer was not left to Node's own timeouts.
    assert.ok(answer.answeredAfter >= refusal.notBefore - 5 && answer.answeredAfter < refusal.notBefore + 5000, `${refusal.name}: answered after ${answer.answeredAfter} ms`);
  }
  await assertNextAnswered(opened, next, refusal.name);
};

/** An answer's status line; answers follow one another with nothing between (a body need not end in a line break). */
const ANSWER_LINE = /HTTP\/1\.1 (\d{3}) /g;

/** The requests' bytes, announced, back to back. */
function pipelinedBytes(server: ServerFacet, refusals: readonly WireRefusal[]): Uint8Array {
  return Buffer.concat(
    refusals.map(({mount, body}) => {
      const bytes = bytesOfBody(body);
      const head = `POST ${server.path(mount)} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${bytes.length}\r\n\r\n`;
      return Buffer.concat([Buffer.from(head), bytes]);
    }),
  );
}

async function wirePipelined(opened: Opened, server: ServerFacet, refusals: readonly WireRefusal[], next: Mount): Promise<void> {
  const handledBefore = server.handled;
  const connection = await Connection.open(server.port);
  let received = '';
  connection.socket.on('data', (data: Buffer) => (received += data.toString('latin1')));
  connection.socket.write(pipelinedBytes(server, refusals));
  for (let waited = 0; !connection.ended && waited < 3000; waited += 20) {
    if ([...received.matchAll(ANSWER_LINE)].length === refusals.length) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  connection.close();
  // A server may close after the first refusal, and answer no more; a handler that ran for any of them got a body it must not.
  const statuses = [...received.matchAll(ANSWER_LINE)].map((match) => Number(match[1]));
  assert.ok(statuses.length > 0, 'no answer');
  assert.deepEqual(statuses, refusals.slice(0, statuses.length).map((refusal) => server.statusOf(refusal.refusal)), received.slice(0, 400));
  // A request the server read but no longer answers (it closed) is still judged: give it the time to reach a handler it must not.
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.equal(server.handled, handledBefore, 'a handler ran for a body that is refused');
  for (const refusal of refusals) {
    const alone = await judge(opened, refusal.mount, whole(bytesOfBody(refusal.body), {shown: refusal.name}));
    assert.equal(alone.refusal, refusal.refusal, `${refusal.name}, sent alone after: ${shown(alone)}`);
  }
  await assertNextAnswered(opened, next, 'the pipelined requests');
}

const wireKeeps: Scenario = async (_opened, server, refusal, next) => {
  const connection = await Connection.open(server.port);
  try {
    const answer = await within(connection.exchange(server.path(refusal.mount), refusal.body, new Source(refusal.body), {closeWait: 300, sendAll: true}), refusal.name);
    assert.equal(answer.status, server.statusOf(refusal.refusal), `${refusal.name}: ${answer.text}`);
    assert.ok(!answer.closed, `${refusal.name}: the server closed a connection whose request it had read whole`);
    const nextBody = whole('{"name":"on the same connection"}');
    const second = await within(connection.exchange(server.path(next), nextBody, new Source(nextBody)), 'the next request');
    assert.equal(second.status, 200, `the next request on the same connection: ${second.text}`);
    assert.deepEqual((JSON.parse(second.text) as {received: unknown}).received, {name: 'on the same connection'});
  } finally {
    connection.close();
  }
};

const wireFollowUps: Scenario = async (_opened, server, refusal, next) => {
  const warm = await within(post(server, next, JSON.stringify({name: 'warm-up'})), 'warm-up');
  assert.equal(warm.status, 200, `warm-up: ${warm.text}`);
  const {body} = refusal;
  const upload: RequestInit['body'] = body.announced === true ? new Uint8Array(bytesOfBody(body)) : new Source(body).stream();
  const refused = await within(post(server, refusal.mount, upload, {...body.headers}), refusal.name);
  assert.equal(refused.status, server.statusOf(refusal.refusal), `${refusal.name}: ${refused.text}`);
  for (const followUp of FOLLOW_UPS) {
    const answer = await within(post(server, next, followUp.text), `after ${refusal.name}, ${followUp.text}`);
    const status = followUp.refusal === undefined ? 200 : server.statusOf(followUp.refusal);
    assert.equal(answer.status, status, `after ${refusal.name}, ${followUp.text} answered ${answer.status}: ${answer.text}`);
    if (status === 200) assert.deepEqual((JSON.parse(answer.text) as {received: unknown}).received, JSON.parse(followUp.text));
  }
};

const SCENARIOS: Readonly<Record<Exclude<WireCase['scenario'], 'pipelined'>, Scenario>> = {early: wireEarly, closes: wireCloses, keeps: wireKeeps, 'follow-ups': wireFollowUps};

async function runWire(opened: Opened, testCase: WireCase, refusals: readonly WireRefusal[], next: Mount, t: TestContext): Promise<void> {
  const server = opened.server;
  assert.ok(server !== undefined, 'the door has no server: skip the case with a reason');
  if (testCase.scenario === 'pipelined') return wirePipelined(opened, server, refusals, next);
  for (const refusal of refusals) await SCENARIOS[testCase.scenario](opened, server, refusal, next, t);
}

// ---------------------------------------------------------------------------------------------
// The plan of a row

interface Planned {
  name: string;
  mounts: Mount[];
  run(opened: Opened, t: TestContext): Promise<void>;
}

/** Each base mount in each style, the same object for the same pair, so that a row mounts it once. */
function styler(): (mount: Mount, style: number) => Mount {
  const styled = new Map<Mount, Map<number, Mount>>();
  return (mount, style) => {
    if (style === 0) return mount;
    let byStyle = styled.get(mount);
    if (byStyle === undefined) styled.set(mount, (byStyle = new Map()));
    let copy = byStyle.get(style);
    if (copy === undefined) byStyle.set(style, (copy = {...mount, style}));
    return copy;
  };
}

function planCase(door: Door, testCase: Case, styled: (mount: Mount, style: number) => Mount): Planned[] {
  switch (testCase.kind) {
    case 'verdicts':
      return [{name: testCase.name, mounts: testCase.steps.map((step) => step.mount), run: (opened) => runVerdicts(opened, testCase)}];
    case 'same verdict':
      return [{name: testCase.name, mounts: [testCase.mount], run: (opened) => runSameVerdict(opened, testCase)}];
    case 'never accepted':
      return [{name: testCase.name, mounts: [testCase.mount], run: (opened) => runNeverAccepted(opened, testCase)}];
    case 'mount error':
      return [{name: testCase.name, mounts: [], run: () => runMountError(door, testCase)}];
    case 'fresh':
      return [{name: testCase.name, mounts: [testCase.shared, ...testCase.fresh], run: (opened) => runFresh(opened, testCase)}];
    case 'interleaved':
      return [{name: testCase.name, mounts: [testCase.shared, ...testCase.fresh.flat()], run: (opened) => runInterleaved(opened, testCase)}];
    case 'wire': {
      const styles = testCase.styles === 'all' ? (door.styles ?? ['']).map((_, index) => index) : [0];
      return styles.map((style) => {
        const refusals = testCase.refusals.map((refusal) => ({...refusal, mount: styled(refusal.mount, style)}));
        const next = styled(testCase.next, style);
        const name = door.styles === undefined ? testCase.name : `${testCase.name} [${door.styles[style]}]`;
        return {name, mounts: [...refusals.map((refusal) => refusal.mount), next], run: (opened, t) => runWire(opened, testCase, refusals, next, t)};
      });
    }
  }
}

// ---------------------------------------------------------------------------------------------

describe('the table', () => {
  const names = new Set(CASES.map((testCase) => testCase.name));

  it('names every case once', () => {
    assert.equal(names.size, CASES.length);
  });

  it('gives every door a distinct name', () => {
    assert.equal(new Set(DOORS.map((door) => door.name)).size, DOORS.length);
  });

  it('every skip names a case and gives a reason', (t) => {
    for (const door of DOORS) {
      for (const [name, reason] of Object.entries(door.skip)) {
        assert.ok(names.has(name), `${door.name} skips "${name}", which is no case`);
        assert.ok(typeof reason === 'string' && reason.trim().length > 10, `${door.name} skips "${name}" without a reason`);
        t.diagnostic(`${door.name} skips "${name}": ${reason}`);
      }
    }
  });
});

/** `DOORS=Koa,CLI node scripts/test.mjs conformance` runs those rows alone. */
const chosen = process.env['DOORS']?.split(',').map((name) => name.trim().toLowerCase());

describe('hostile conformance: every case against every door', {concurrency: true}, () => {
  for (const door of DOORS.filter((row) => chosen === undefined || chosen.some((name) => row.name.toLowerCase().includes(name)))) {
    // The cases of a row one after another: they share its servers and connections.
    describe(door.name, {...ROW_TIMEOUT, concurrency: 1}, () => {
      const styled = styler();
      const planned = CASES.map((testCase) => (door.skip[testCase.name] === undefined ? planCase(door, testCase, styled) : []));
      let opened: Opened | undefined;
      before(async () => {
        opened = await door.open([...new Set(planned.flat().flatMap((test) => test.mounts))]);
      });
      after(() => opened?.close());
      CASES.forEach((testCase, index) => {
        const reason = door.skip[testCase.name];
        if (reason !== undefined) return void it(testCase.name, {skip: reason}, () => {});
        for (const test of planned[index]!) it(test.name, (t) => test.run(opened!, t));
      });
    });
  }
});
