// src/keywords/presence.ts: which of a fixed list of names an object has, as bits in one number
// (a Set past 31 names). Tested directly, and through the keywords that use it.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {PresenceSet, newSeen, seeBit} from '../../../src/keywords/rules/presence.js';
import {invalid, valid} from '../check.js';

describe('PresenceSet', () => {
  test('listed names have bits in list order; repeats collapse; others have none', () => {
    const set = new PresenceSet(['a', 'b', 'a', 'c']);
    assert.deepEqual(set.names, ['a', 'b', 'c']);
    assert.equal(set.bitOf('a'), 0);
    assert.equal(set.bitOf('c'), 2);
    assert.equal(set.bitOf('d'), undefined);
    assert.equal(set.includes('b'), true);
    assert.equal(set.includes('__proto__'), false);
    assert.equal(set.includes('constructor'), false);
  });

  test('see / has, below and past 31 names', () => {
    const names = Array.from({length: 70}, (_, index) => 'n' + index);
    const set = new PresenceSet(names);
    const seen = newSeen();
    const picked = ['n0', 'n5', 'n30', 'n31', 'n32', 'n63', 'n69'];
    for (const name of picked) set.see(seen, name);
    set.see(seen, 'not listed');
    for (const name of names) assert.equal(set.has(seen, name), picked.includes(name), name);
    assert.equal(set.has(seen, 'not listed'), false);
  });

  test('seeBit and has agree; an undefined Seen has nothing', () => {
    const set = new PresenceSet(Array.from({length: 40}, (_, index) => String(index)));
    const seen = newSeen();
    seeBit(seen, set.bitOf('30')!);
    seeBit(seen, set.bitOf('35')!);
    assert.equal(set.has(seen, '30'), true);
    assert.equal(set.has(seen, '35'), true);
    assert.equal(set.has(seen, '31'), false);
    assert.equal(set.has(undefined, '30'), false);
  });

  test('through required: bit 30 and bit 31 are distinct names', () => {
    const names = Array.from({length: 33}, (_, index) => 'p' + index);
    const allBut = (skip: string) => Object.fromEntries(names.filter((name) => name !== skip).map((name) => [name, 0]));
    invalid({required: names}, allBut('p30'));
    invalid({required: names}, allBut('p31'));
    invalid({required: names}, allBut('p32'));
    valid({required: names}, Object.fromEntries(names.map((name) => [name, 0])));
  });
});
