// src/engine/nameCache.ts: the copies the caches keep are the same names, code unit for code unit,
// and the budget counts each name's bytes. That a copy keeps nothing of the text it was cut from
// is measured on the heap in test/request-memory.test.ts.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {NAME_CACHE_BYTES, NameBudget, copyName, isKeepable} from '../src/engine/nameCache.js';

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

describe('NameBudget', () => {
  test('takes names until their bytes would pass the budget, and takes back what it gives', () => {
    const budget = new NameBudget(100);
    const name = 'n'.repeat(50);
    let taken = 0;
    while (budget.take(name)) taken++;
    assert.equal(taken, Math.floor(NAME_CACHE_BYTES / (100 + 2 * name.length)));
    assert.ok(budget.bytesLeft < 100 + 2 * name.length);
    budget.give(name);
    assert.equal(budget.take(name), true);
    assert.equal(budget.take(name), false);
  });

  test('names past 256 code units are never kept', () => {
    assert.equal(isKeepable('k'.repeat(256)), true);
    assert.equal(isKeepable('k'.repeat(257)), false);
  });
});
