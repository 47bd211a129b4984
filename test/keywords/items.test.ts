// src/keywords/items.ts: 2020-12 `prefixItems` + `items`; draft 4 to 2019-09 `items` (schema or
// array) + `additionalItems`. Each item's run starts with the item, so a bad item fails there.

import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {amended, invalid, onlyError, refusalByte, schemaError, summary, valid} from './check.js';
import {compile} from '../../src/index.js';
import {judges} from '../support/branching.js';

const legacyDrafts = ['draft4', 'draft6', 'draft7', 'draft2019-09'] as const;

describe('2020-12: prefixItems and items', () => {
  test('prefixItems applies by position; items to the rest', () => {
    const schema = {prefixItems: [{type: 'integer'}, {type: 'string'}], items: {type: 'boolean'}};
    valid(schema, []);
    valid(schema, [1]);
    valid(schema, [1, 'a', true, false]);
    invalid(schema, ['a']);
    invalid(schema, [1, 2]);
    invalid(schema, [1, 'a', 'b']);
  });

  test('items alone applies to every item', () => {
    valid({items: {type: 'number'}}, [1, 2.5]);
    invalid({items: {type: 'number'}}, [1, '2']);
    valid({items: {type: 'number'}}, {0: 'x'});
  });

  test('items: false after prefixItems forbids further items, and says so', () => {
    const schema = {prefixItems: [{}, {}], items: false};
    valid(schema, [1, 2]);
    assert.deepEqual(summary(onlyError(schema, [1, 2, 3, 4])), {
      keyword: 'items',
      keywordLocation: '/items',
      instanceLocation: '/2',
      params: {limit: 2},
      error: 'must NOT have more than 2 items',
    });
  });

  test('an array for items is a SchemaError in 2020-12', () => {
    const error = schemaError({items: [{}]});
    assert.equal(error.schemaLocation, '/items');
    assert.equal(error.code, 'schema.keyword.invalid');
  });

  test('additionalItems does not exist in 2020-12', () => {
    valid({prefixItems: [{}], additionalItems: false}, [1, 2, 3]);
  });

  test('the error of a failing item points into the subschema and at the item', () => {
    assert.deepEqual(summary(onlyError({prefixItems: [{}, {maximum: 5}]}, [9, 9])), {
      keyword: 'maximum',
      keywordLocation: '/prefixItems/1/maximum',
      instanceLocation: '/1',
      params: {comparison: '<=', limit: 5},
      error: 'must be <= 5',
    });
  });

  test('streaming: a bad item fails at that item, not at the close', () => {
    const text = '[1, "a", 2, 3, 4]';
    // A string of the wrong kind: at its opening quote.
    assert.equal(refusalByte({items: {type: 'integer'}}, text), text.indexOf('"a"'));
    const extra = '[1, 2, [3]]';
    assert.equal(refusalByte({prefixItems: [{}, {}], items: false}, extra), extra.indexOf('[3]'));
  });

  test('compile: prefixItems is an array of schemas', () => {
    assert.equal(schemaError({prefixItems: {}}).schemaLocation, '/prefixItems');
    assert.equal(schemaError({prefixItems: [{}, 3]}).schemaLocation, '/prefixItems/1');
    assert.equal(schemaError({items: 'x'}).schemaLocation, '/items');
  });
});

describe('draft 4 to 2019-09: items and additionalItems', () => {
  test('items as a schema applies to every item', () => {
    for (const draft of legacyDrafts) {
      valid({items: {type: 'string'}}, ['a', 'b'], {draft});
      invalid({items: {type: 'string'}}, ['a', 1], {draft});
    }
  });

  test('items as an array applies by position; additionalItems to the rest', () => {
    for (const draft of legacyDrafts) {
      const schema = {items: [{type: 'integer'}], additionalItems: {type: 'string'}};
      valid(schema, [1, 'a', 'b'], {draft});
      invalid(schema, ['a'], {draft});
      invalid(schema, [1, 2], {draft});
      valid({items: [{type: 'integer'}]}, [1, 2, 'x'], {draft});
    }
  });

  test('additionalItems: false forbids items past the array, and says so', () => {
    assert.deepEqual(summary(onlyError({items: [{}], additionalItems: false}, [1, 2], {draft: 'draft7'})), {
      keyword: 'additionalItems',
      keywordLocation: '/additionalItems',
      instanceLocation: '/1',
      params: {limit: 1},
      error: 'must NOT have more than 1 items',
    });
  });

  test('additionalItems is ignored unless items is an array', () => {
    valid({additionalItems: false}, [1, 2], {draft: 'draft7'});
    valid({items: {}, additionalItems: false}, [1, 2], {draft: 'draft2019-09'});
  });

  test('items: false rejects every item as a boolean schema', () => {
    const error = onlyError({items: false}, [1], {draft: 'draft7'});
    assert.deepEqual(summary(error), {keyword: 'false', keywordLocation: '/items', instanceLocation: '/0', params: {}, error: 'boolean schema false: no value is allowed here'});
    valid({items: false}, [], {draft: 'draft7'});
  });

  test('prefixItems does not exist before 2020-12', () => {
    valid({prefixItems: [{type: 'string'}]}, [1], {draft: 'draft2019-09'});
  });

  test('streaming: an extra item fails at its start', () => {
    const text = '[1, {"a": 1}]';
    assert.equal(refusalByte({items: [{}], additionalItems: false}, text, {draft: 'draft6'}), text.indexOf('{'));
  });

  test('compile: items array entries and additionalItems are schemas', () => {
    assert.equal(schemaError({items: [{}, 'x']}, {draft: 'draft7'}).schemaLocation, '/items/1');
    assert.equal(schemaError({items: [{}], additionalItems: 1}, {draft: 'draft7'}).schemaLocation, '/additionalItems');
  });
});

describe('items under useDefaults', () => {
  const tuple = {type: 'array', items: [{type: 'string'}, {type: 'integer', default: 0}, {default: 'last'}]};

  test('array-form items (draft 4 to 2019-09): a missing item gets its position\'s default', () => {
    for (const draft of legacyDrafts) {
      assert.deepEqual(amended(tuple, '["a"]', {draft, useDefaults: true}).value, ['a', 0, 'last'], draft);
      assert.deepEqual(amended(tuple, '["a", 5, 6, 7]', {draft, useDefaults: true}).value, ['a', 5, 6, 7], draft);
    }
  });

  test("'empty': an item that is null or \"\" gets it too", () => {
    assert.deepEqual(amended(tuple, '["a", null, ""]', {draft: 'draft7', useDefaults: 'empty'}).value, ['a', 0, 'last']);
    assert.equal(amended(tuple, '["a", null]', {draft: 'draft7', useDefaults: true}).valid, false);
  });

  test('only after the items that were sent, while no position before has none (ajv would leave a hole JSON cannot hold)', () => {
    assert.deepEqual(amended(tuple, '[]', {draft: 'draft7', useDefaults: true}).value, []);
  });

  test('2020-12 prefixItems gives no defaults, as in ajv', () => {
    assert.deepEqual(amended({prefixItems: [{default: 1}]}, '[]', {useDefaults: true}).value, []);
  });
});

describe('long arrays: one member for the items past those the keywords tell apart (Sources.alike)', () => {
  // Past 256 items the checker and the code keep no member per index, and selected one afresh
  // for each item. The index from which every keyword selects alike stands for the rest; these
  // keywords tell items apart up to 300 and 400, past that bound.
  const integers = (count: number): number[] => Array.from({length: count}, (_, index) => index);
  const cases: {name: string; schema: object; texts: [string, boolean][]}[] = [
    {
      name: 'prefixItems of 300, then items',
      schema: {prefixItems: integers(300).map(() => ({type: 'integer'})), items: {type: 'string'}},
      texts: [
        [JSON.stringify([...integers(300), ...integers(300).map(String)]), true],
        [JSON.stringify([...integers(299), 'x', ...integers(300).map(String)]), false],
        [JSON.stringify([...integers(300), 300, ...integers(299).map(String)]), false],
        [JSON.stringify([...integers(300), ...integers(299).map(String), 599]), false],
        // Judged as an item of the prefix, item 300 would pass: only its own member fails it.
        [JSON.stringify(integers(301)), false],
      ],
    },
    {
      name: 'draft 4 items as an array of 300, then additionalItems',
      schema: {$schema: 'http://json-schema.org/draft-04/schema#', items: integers(300).map(() => ({type: 'integer'})), additionalItems: {type: 'string'}},
      texts: [
        [JSON.stringify([...integers(300), 'a', 'b']), true],
        [JSON.stringify([...integers(257), 'x', ...integers(42)]), false],
        [JSON.stringify([...integers(300), 'a', 1]), false],
        [JSON.stringify(integers(301)), false],
      ],
    },
    {
      name: 'a const array of 400',
      schema: {const: integers(400)},
      texts: [
        [JSON.stringify(integers(400)), true],
        [JSON.stringify([...integers(399), 0]), false],
        [JSON.stringify(integers(401)), false],
        [JSON.stringify(integers(400).map(() => 0)), false],
      ],
    },
    {
      name: 'contains with maxContains, each item judged',
      schema: {items: {type: 'string'}, contains: {const: 'x'}, maxContains: 1},
      texts: [
        [JSON.stringify([...integers(500).map(String), 'x']), true],
        [JSON.stringify(['x', ...integers(500).map(String), 'x']), false],
        [JSON.stringify([...integers(500).map(String), 7]), false],
      ],
    },
  ];
  for (const {name, schema, texts} of cases) {
    test(name, () => {
      const validator = compile(schema);
      for (const [text, expected] of texts) {
        // Twice: the second time the members kept from the first are used.
        for (let round = 0; round < 2; round++) {
          for (const [way, judge] of Object.entries(judges)) assert.equal(judge(validator, text).valid, expected, `${way}, ${text.slice(0, 40)}…`);
        }
      }
    });
  }
});
