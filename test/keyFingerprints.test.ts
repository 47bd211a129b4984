// Repeated keys in large objects are remembered as fingerprints (src/engine/keyFingerprints.ts): a repeat
// is never missed, wherever it is, and distinct keys are never taken for one another.

import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import {compile} from '../src/index.js';
import {KeyFingerprints} from '../src/engine/keyFingerprints.js';

describe('KeyFingerprints', () => {
  it('knows every key it was given, and only those', () => {
    const fingerprints = new KeyFingerprints();
    const keys = Array.from({length: 100_000}, (_, i) => 'k' + i);
    for (const key of keys) assert.equal(fingerprints.add(key), true, key);
    for (const key of keys) assert.equal(fingerprints.add(key), false, key);
  });

  it('tells apart keys that differ in order, length or unusual characters', () => {
    const fingerprints = new KeyFingerprints();
    for (const key of ['', '\u0000', '\u0000\u0000', 'ab', 'ba', 'a', 'é', 'e\u0301', '😀', '\ud83d', '__proto__', 'constructor']) {
      assert.equal(fingerprints.add(key), true, JSON.stringify(key));
    }
  });
});

describe('a repeated key in a large object is a syntax error at the repeat', () => {
  const validator = compile(true);
  const body = (count: number): string[] => Array.from({length: count}, (_, i) => `"k${i}": ${i}`);
  it('accepts 50,000 distinct keys', () => {
    assert.equal(validator.validateText(`{${body(50_000).join(',')}}`).valid, true);
  });
  for (const [name, repeated, count] of [
    ['the first key, repeated last', 'k0', 50_000],
    ['the key at which the object became large', 'k24', 30],
    ['a key just after it', 'k25', 30],
    ['the last key, at once', 'k29', 30],
  ] as const) {
    it(name, () => {
      const text = `{${body(count).join(',')}, "${repeated}": true}`;
      const result = validator.validateText(text);
      assert.equal(result.valid, false);
      assert.equal(result.errors[0].params?.code, 'syntax.duplicateKey');
      assert.equal(result.errors[0].instanceLocation, '/' + repeated);
      assert.equal(result.errors[0].offset, text.lastIndexOf('"'));
    });
  }
  it('forgets the keys of one object before the next', () => {
    const object = `{${body(40).join(',')}}`;
    assert.equal(validator.validateText(`[${object}, ${object}]`).valid, true);
  });
});
