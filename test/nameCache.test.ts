// src/engine/nameCache.ts: the copies the caches keep are the same names, code unit for code unit;
// the budget counts each name's bytes, and once it is spent the keeper with the most names is the
// one that forgets them. That a copy keeps nothing of the text it was cut from
// is measured on the heap in test/request-memory.test.ts.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {NAME_CACHE_BYTES, NameBudget, NameTable, copyName, isKeepable} from '../src/engine/nameCache.js';

describe('copyName', () => {
  test('gives back the same name, whatever its characters', () => {
    const names = ['', 'a', 'twelve chars', 'thirteen char', 'a "quoted" \\ name\n\t\u0000\u001f', '\ud83d', 'x\udc00y'.repeat(5), 'ключ-'.repeat(10), '😀'.repeat(20), '__proto__'];
    for (const name of names) {
      const source = `{"${name}": 1}`.repeat(3);
      const slice = source.slice(2, 2 + name.length);
      assert.equal(copyName(slice), name, JSON.stringify(name));
    }
  });
});

/** A table keeping a name when the budget admits it, as the caches do. */
class Keeper extends NameTable<number> {
  keep(name: string): boolean {
    if (!this.admits(name)) return false;
    this.set(name, name.length);
    return true;
  }
}

describe('NameBudget', () => {
  const nameOf = (i: number): string => `name ${i}`.padEnd(50, '.');
  const perName = 100 + 2 * 50;
  const fits = Math.floor(NAME_CACHE_BYTES / perName);

  test('takes names until their bytes would pass the budget; then the keeper with the most names forgets them all', () => {
    const budget = new NameBudget(100);
    const large = new Keeper(budget);
    const small = new Keeper(budget);
    for (let i = 0; i < 10; i++) assert.equal(small.keep(nameOf(i)), true);
    let i = 10;
    while (large.keep(nameOf(i))) i++;
    // The large keeper asked when the budget was spent: it is the largest, so it is the one retired.
    assert.equal(i, fits);
    assert.equal(large.keeps, false);
    assert.equal(large.keptNames, 0);
    assert.deepEqual([large.names, large.values], [[], []]);
    assert.equal(budget.bytesLeft, NAME_CACHE_BYTES - 10 * perName);
    // The names that repeat stay, and there is room again.
    assert.equal(small.keptNames, 10);
    assert.equal(small.keep(nameOf(-1)), true);
  });

  test('a keeper that asks when another holds the most names keeps its own, once that one is retired', () => {
    const budget = new NameBudget(100);
    const large = new Keeper(budget);
    const small = new Keeper(budget);
    for (let i = 0; i < fits; i++) assert.equal(large.keep(nameOf(i)), true);
    assert.equal(small.keep(nameOf(-1)), true);
    assert.equal(large.keeps, false);
    assert.equal(budget.bytesLeft, NAME_CACHE_BYTES - perName);
  });

  test('retire gives back every byte of what a keeper kept', () => {
    const budget = new NameBudget(100);
    const keeper = new Keeper(budget);
    for (let i = 0; i < 20; i++) keeper.keep(nameOf(i));
    keeper.retire();
    assert.equal(budget.bytesLeft, NAME_CACHE_BYTES);
    assert.equal(keeper.keep('again'), false);
  });

  test('names past 256 code units are never kept', () => {
    assert.equal(isKeepable('k'.repeat(256)), true);
    assert.equal(isKeepable('k'.repeat(257)), false);
    assert.equal(new Keeper(new NameBudget(100)).keep('k'.repeat(257)), false);
  });
});

describe('NameTable.place', () => {
  test('a position no kept name has held matches no name, the empty one included', () => {
    const table = new NameTable<string>(new NameBudget(100));
    table.place(3, 'kept', 'value');
    assert.deepEqual(table.names, [null, null, null, 'kept']);
    assert.equal(table.names.indexOf(''), -1);
    assert.equal(table.values[3], 'value');
  });

  test('positions past 64 are not remembered', () => {
    const table = new NameTable<string>(new NameBudget(100));
    table.place(64, 'kept', 'value');
    assert.equal(table.names.length, 0);
  });
});
