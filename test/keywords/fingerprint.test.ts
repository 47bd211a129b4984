// src/fingerprint.ts: a 53-bit hash of a JSON value computed as its events stream by. Equal values
// (numbers by value, objects in any key order) must hash alike; different values should not.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {Evaluator} from '../../src/evaluator.js';
import {fingerprintNode, fingerprintOf} from '../../src/fingerprint.js';
import {Tokenizer, defaultLimits} from '../../src/tokenizer.js';
import {walkValue} from '../../src/walker.js';
import {random} from '../support/chunks.js';

/** The fingerprint of JSON text, fed through the tokenizer in pieces of `size` characters. */
function ofText(text: string, size = text.length): number {
  const evaluator = new Evaluator(fingerprintNode, false);
  const tokenizer = new Tokenizer(evaluator, defaultLimits);
  evaluator.reset(tokenizer);
  for (let at = 0; at < text.length; at += size) tokenizer.write(text.slice(at, at + size));
  tokenizer.end();
  return fingerprintOf(evaluator.root);
}

/** The fingerprint of a parsed value (value mode's events). */
function ofValue(value: unknown): number {
  const evaluator = new Evaluator(fingerprintNode, false);
  walkValue(value, evaluator, defaultLimits);
  return fingerprintOf(evaluator.root);
}

function randomValue(next: () => number, depth = 0): unknown {
  const pick = Math.floor(next() * (depth > 3 ? 5 : 7));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return next() < 0.5;
    case 2:
      return Math.floor(next() * 1000) / (next() < 0.5 ? 1 : 8);
    case 3:
      return String.fromCharCode(97 + Math.floor(next() * 4)).repeat(Math.floor(next() * 3));
    case 4:
      return Math.floor(next() * 100) - 50;
    case 5:
      return Array.from({length: Math.floor(next() * 4)}, () => randomValue(next, depth + 1));
    default: {
      const object: Record<string, unknown> = {};
      for (let i = Math.floor(next() * 4); i > 0; i--) object[String.fromCharCode(97 + Math.floor(next() * 5))] = randomValue(next, depth + 1);
      return object;
    }
  }
}

/** JSON.stringify with object keys in a shuffled order. */
function shuffledJson(value: unknown, next: () => number): string {
  if (Array.isArray(value)) return '[' + value.map((item) => shuffledJson(item, next)).join(',') + ']';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const entries = Object.entries(value);
  for (let i = entries.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [entries[i], entries[j]] = [entries[j], entries[i]];
  }
  return '{' + entries.map(([key, member]) => JSON.stringify(key) + ':' + shuffledJson(member, next)).join(',') + '}';
}

describe('fingerprint', () => {
  test('a fingerprint is a non-negative integer below 2^53', () => {
    for (const text of ['null', 'true', '"x"', '-1.5e300', '[]', '{}', '{"a":[1,{"b":null}]}']) {
      const print = ofText(text);
      assert.ok(Number.isSafeInteger(print) && print >= 0, `${text} → ${print}`);
    }
  });

  test('streaming text, text in 1-character pieces, and a parsed value give the same fingerprint', () => {
    const next = random(7);
    for (let i = 0; i < 200; i++) {
      const value = randomValue(next);
      const text = JSON.stringify(value);
      const whole = ofText(text);
      assert.equal(ofText(text, 1), whole, text);
      assert.equal(ofValue(value), whole, text);
    }
  });

  test('objects hash alike whatever the key order', () => {
    const next = random(11);
    for (let i = 0; i < 200; i++) {
      const value = randomValue(next);
      assert.equal(ofText(shuffledJson(value, next)), ofText(JSON.stringify(value)), JSON.stringify(value));
    }
    assert.equal(ofText('{"a":1,"b":{"c":2,"d":3}}'), ofText('{"b":{"d":3,"c":2},"a":1}'));
  });

  test('numbers hash by value', () => {
    const one = ofText('1');
    for (const text of ['1.0', '1e0', '10e-1', '0.1e1', '1.000', '1E+0']) assert.equal(ofText(text), one, text);
    assert.equal(ofText('0'), ofText('-0'));
    assert.equal(ofText('0'), ofText('0.0e5'));
    assert.equal(ofText('12345678901234567890'), ofText('1.234567890123456789e19'));
    assert.notEqual(ofText('12345678901234567890'), ofText('12345678901234567891'));
    assert.notEqual(ofText('1'), ofText('1.0000000000000000001'));
    assert.notEqual(ofText('1e400'), ofText('1e401'));
    assert.notEqual(ofText('1'), ofText('-1'));
  });

  test('different values hash differently: kinds, order, pairing and concatenations', () => {
    const distinct = [
      'null', 'true', 'false', '0', '1', '"1"', '"true"', '"null"', '""', '"0"',
      '[]', '{}', '[[]]', '[{}]', '{"":null}', '{"":""}', '[null]', '[""]',
      '[1,2]', '[2,1]', '[1,[2]]', '[[1],2]', '[[1,2]]',
      '["ab","c"]', '["a","bc"]', '["abc"]', '{"ab":"c"}', '{"a":"bc"}', '{"abc":""}',
      '{"a":1,"b":2}', '{"a":2,"b":1}', '{"a":1}', '{"b":2}', '{"a":{"b":1}}', '{"a":{"a":1}}', '{"a":[1]}',
      '{"a":1,"b":1}', '{"a":2,"b":2}', '{"a":1,"b":1,"c":1}',
    ];
    const prints = new Map<number, string>();
    for (const text of distinct) {
      const print = ofText(text);
      assert.equal(prints.get(print), undefined, `${text} collides with ${prints.get(print)}`);
      prints.set(print, text);
    }
  });

  test('no collisions among thousands of distinct random values', () => {
    const next = random(2026);
    const byPrint = new Map<number, string>();
    const canonical = (value: unknown): string => shuffledJson(value, () => 0);
    for (let i = 0; i < 3000; i++) {
      const value = randomValue(next);
      const key = JSON.stringify(sortKeys(value));
      const print = ofValue(value);
      const earlier = byPrint.get(print);
      if (earlier !== undefined) assert.equal(earlier, key, `${canonical(value)} collides with ${earlier}`);
      byPrint.set(print, key);
    }
  });
});

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, member]) => [key, sortKeys(member)]));
}
