// Deadlines: one timer for the `timeout` of every body a reader has in flight. The sockets and
// the 408 are test/timeout.test.ts's and test/conformance/'s; here the list of watches itself.

import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import {setTimeout as sleep} from 'node:timers/promises';

import {Deadlines, type Expiring, type Watch} from '../adapters/deadline.js';
import type {BodyTimeout} from '../adapters/http-errors.js';

/** An idle bound of 32 ms: a tick every 2 ms. */
const IDLE = {idle: 32, total: 0};

/** An owner that records what it heard and when. */
function owner(name: string, heard: string[], onExpire?: () => void): Expiring {
  return {
    expire(bound: keyof BodyTimeout) {
      heard.push(`${name}: ${bound}`);
      onExpire?.();
    },
  };
}

describe('Deadlines', () => {
  it('counts the watches, whichever leaves first, and a repeated unwatch changes nothing', () => {
    const deadlines = new Deadlines({idle: 60_000, total: 0});
    const heard: string[] = [];
    const watches = ['a', 'b', 'c', 'd'].map((name) => deadlines.watch(owner(name, heard)));
    assert.equal(deadlines.watching, 4);
    for (const [index, watch] of [watches[1]!, watches[3]!, watches[1]!, watches[0]!, watches[2]!].entries()) {
      deadlines.unwatch(watch);
      assert.equal(deadlines.watching, [3, 2, 2, 1, 0][index]);
    }
  });

  it('tells each owner once, never early, and only owners still watched', async () => {
    const deadlines = new Deadlines(IDLE);
    const heard: string[] = [];
    const started = performance.now();
    // `a` and `b` run out in the same tick, and whichever is told first ends the other (as a
    // request's answer may end another body): that one is told nothing.
    const watches: Watch[] = [];
    const ender = (other: number) => () => deadlines.unwatch(watches[other]!);
    watches.push(deadlines.watch(owner('a', heard, ender(1))), deadlines.watch(owner('b', heard, ender(0))), deadlines.watch(owner('c', heard)));
    for (let waited = 0; heard.length < 2 && waited < 2000; waited += 5) await sleep(5);
    assert.ok(performance.now() - started >= IDLE.idle, 'not before the bound');
    await sleep(4 * IDLE.idle);
    assert.equal(heard.length, 2, heard.join(', '));
    assert.ok(heard.includes('c: idle'));
    assert.ok(heard.includes('a: idle') !== heard.includes('b: idle'));
    assert.equal(deadlines.watching, 0);
    for (const watch of watches) assert.equal(watch.watched, false);
  });

  it('a chunk since the last tick restarts the idle bound', async () => {
    const deadlines = new Deadlines(IDLE);
    const heard: string[] = [];
    const watch = deadlines.watch(owner('a', heard));
    const until = performance.now() + 3 * IDLE.idle;
    while (performance.now() < until) {
      watch.active = true;
      await sleep(2);
    }
    assert.deepEqual(heard, []);
    for (let waited = 0; heard.length === 0 && waited < 2000; waited += 5) await sleep(5);
    assert.deepEqual(heard, ['a: idle']);
  });
});
