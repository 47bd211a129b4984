// src/engine/fingerprint.ts: a 53-bit hash of a JSON value computed as its events stream by. Equal values
// (numbers by value, objects in any key order) must hash alike; different values should not.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {ApplicationCount, Evaluator, type Run} from '../../src/engine/evaluator.js';
import {Scope} from '../../src/engine/dynamicScope.js';
import {KeyPlans} from '../../src/engine/keyPlan.js';
import {newNode, setKeywords, type CompiledKeyword, type FingerprintListener, type KeywordDefinition, type Resource, type SchemaNode} from '../../src/schema/node.js';
import {defaultLimits} from '../../src/json/limits.js';
import {Tokenizer} from '../../src/json/tokenizer.js';
import {walkValue} from '../../src/json/walker.js';
import {numberTextsEqual} from '../../src/json/numbers.js';
import fc from 'fast-check';
import {random} from '../support/chunks.js';
import {property} from '../support/property.js';

/** Fingerprints heard, by the instance location of the array whose item they are, then the index. */
type Heard = Map<string, number[]>;

/**
 * A schema that asks for the fingerprint of every item of the array it is applied to and, with
 * `recursive`, applies itself to every member too: every array at every depth asks.
 */
function asker(heard: Heard, recursive: boolean): SchemaNode {
  const listener: FingerprintListener = {
    fingerprinted(run: Run, _keyword: CompiledKeyword, index: number, fingerprint: number) {
      const location = run.evaluator.pointer(run.depth);
      const prints = heard.get(location) ?? [];
      prints[index] = fingerprint;
      heard.set(location, prints);
    },
  };
  const resource = {uri: '', compilation: {nodeCount: 0}, dynamicAnchors: new Map(), recursiveAnchor: false, root: undefined} as unknown as Resource;
  const node = newNode(resource, '');
  const definition: KeywordDefinition<undefined> = {
    name: 'asker',
    compile: () => undefined,
    item(run, keyword, index) {
      run.evaluator.fingerprintItem(run, keyword, listener);
      if (recursive) run.applyToMember(node, keyword, index, '');
    },
    key(run, keyword) {
      if (recursive) run.applyToMember(node, keyword, 0, '');
    },
    result() {},
  };
  setKeywords(node, [{definition, index: 0, value: undefined, name: 'asker', path: '', absoluteLocation: ''}]);
  return node;
}

/** The fingerprints heard while JSON `text` streams through the tokenizer in pieces of `size` characters. */
function hearText(text: string, node: (heard: Heard) => SchemaNode, size = text.length): Heard {
  const heard: Heard = new Map();
  const evaluator = new Evaluator(node(heard), false, new KeyPlans(), new Scope(null, null), new ApplicationCount(defaultLimits.maxApplications), 'document');
  const tokenizer = new Tokenizer(evaluator, defaultLimits);
  evaluator.reset(tokenizer);
  for (let at = 0; at < text.length; at += size) tokenizer.write(text.slice(at, at + size));
  tokenizer.end();
  return heard;
}

/** The fingerprint of JSON text, fed through the tokenizer in pieces of `size` characters. */
function ofText(text: string, size = text.length): number {
  // Wrapped in an array: fingerprints are of items.
  const heard = hearText(`[${text}]`, (map) => asker(map, false), size);
  return heard.get('')![0]!;
}

/** The fingerprint of a parsed value (value mode's events). */
function ofValue(value: unknown): number {
  const heard: Heard = new Map();
  walkValue([value], new Evaluator(asker(heard, false), false, new KeyPlans(), new Scope(null, null), new ApplicationCount(defaultLimits.maxApplications), 'document'), defaultLimits);
  return heard.get('')![0]!;
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

  test('every array that asks, at any depth, hears the fingerprint its item has alone', () => {
    const next = random(23);
    for (let i = 0; i < 200; i++) {
      const value = randomValue(next);
      const text = JSON.stringify(value);
      const heard = hearText(text, (map) => asker(map, true));
      const expected: Heard = new Map();
      const visit = (member: unknown, location: string): void => {
        if (Array.isArray(member)) {
          if (member.length > 0) expected.set(location, member.map((item) => ofValue(item)));
          member.forEach((item, index) => visit(item, `${location}/${index}`));
        } else if (member !== null && typeof member === 'object') {
          for (const [key, item] of Object.entries(member)) visit(item, `${location}/${key}`);
        }
      };
      visit(value, '');
      assert.deepEqual(heard, expected, text);
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

  test('numbers hash by value whether their text is its double\'s shortest decimal or not', () => {
    // Texts with the value of their double's shortest decimal hash by the double; the rest by their
    // canonical decimal. Equal values always fall on the same side.
    const groups = [
      ['1e23', '100000000000000000000000', '1.0e23', '10E22'],
      ['0.1', '1e-1', '0.10000000000000000000', '100e-3'],
      ['-0', '0', '-0.0e-7', '0E100'],
      ['1.00000000000000001', '100000000000000001e-17', '1.000000000000000010'],
      ['1e400', '10e399', '0.1e401'],
    ];
    const fingerprints = groups.map((texts, group) => {
      const first = ofText(texts[0]!);
      for (const text of texts) assert.equal(ofText(text), first, text);
      // The first three hold their doubles' values: a parsed value hashes as its text.
      if (group < 3) for (const text of texts) assert.equal(ofValue(JSON.parse(text)), first, text);
      return first;
    });
    assert.equal(new Set(fingerprints).size, groups.length);
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

describe('fingerprint of numbers, property', () => {
  // Values near where a double stops holding the text: around 2^53, 0.1's exact double, 1e23,
  // the subnormals and past the range; each written in several forms (exponent, padding, sign of zero).
  const digits = fc.constantFrom('1', '5', '9007199254740992', '9007199254740993', '1000000000000000055511151231257827', '99999999999999991611392', '123456789012345678', '2', '0');
  const exponent = fc.integer({min: -330, max: 330});
  const value = fc.tuple(fc.boolean(), digits, exponent);
  /** `coefficient × 10^exponent` written in one of several equivalent ways. */
  const render = ([negative, coefficient, power]: [boolean, string, number], form: number): string => {
    const sign = negative ? '-' : '';
    // JSON allows no leading zeros: zero has forms of its own (its sign does not count).
    if (coefficient === '0') return [`${sign}0`, `${sign}0.0`, `${sign}0e${power}`, `${sign}0.000E-${Math.abs(power)}`][form % 4]!;
    switch (form % 4) {
      case 0:
        return `${sign}${coefficient}e${power}`;
      case 1:
        return `${sign}${coefficient}0e${power - 1}`;
      case 2:
        return `${sign}${coefficient[0]}.${coefficient.slice(1) || '0'}E${power + coefficient.length - 1}`;
      default:
        return power >= 0 && power < 30 ? `${sign}${coefficient}${'0'.repeat(power)}` : `${sign}${coefficient}e${power < 0 ? '' : '+'}${power}`;
    }
  };

  test('two number texts have one fingerprint exactly when their decimal values are equal', () => {
    fc.assert(
      fc.property(value, value, fc.nat(3), fc.nat(3), (a, b, formA, formB) => {
        const [textA, textB] = [render(a, formA), render(b, formB)];
        // Past the double range JSON.parse gives Infinity; the tokenizer keeps the text.
        const equal = numberTextsEqual(textA, textB);
        assert.equal(ofText(textA) === ofText(textB), equal, `${textA} ${textB}`);
        assert.equal(ofText(textA), ofText(render(a, formA + 1)), `${textA} and another form`);
      }),
      property(300),
    );
  });
});
